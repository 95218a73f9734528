import {
  AFFILIATE_COOKIE,
  AFFILIATE_COOKIE_MAX_AGE_S,
  ANALYTICS_QUERY_COOKIE_MAX_AGE_S,
  analyticsQueryFromSearch,
  type Campaign,
  campaignFromSearch,
  MARKETING_QUERY_KEY,
} from '../../../domain/campaign'
import { ANALYTICS_QUERY_COOKIE } from '../../../domain/journey/routing'
import { readCookie, removeCookie, writeCookie } from '../../app/cookies'

/**
 * Stores the marketing parameters of the address the visitor arrived with for 600 minutes (spec section 9), for
 * the registration guard's work-info rule and the application's marketing data. Called once per page load: the
 * app's own navigations do not write it, so the guard's removal after passing it on holds.
 */
export function storeAnalyticsQueryFromLanding(search: string, now = Date.now()) {
  const query = analyticsQueryFromSearch(search)
  if (!query) return
  writeCookie(ANALYTICS_QUERY_COOKIE, query, ANALYTICS_QUERY_COOKIE_MAX_AGE_S)
  // The guard removes the cookie at the employment step (spec section 2), long before the client applies: the
  // application's marketing data (src/app/tracking/signals.ts) reads this copy, kept for the same 600 minutes.
  try {
    localStorage.setItem(
      MARKETING_QUERY_KEY,
      JSON.stringify({ query, expiresAt: now + ANALYTICS_QUERY_COOKIE_MAX_AGE_S * 1000 }),
    )
  } catch {
    // Storage blocked or full: the application then carries the cookie's parameters while it lives.
  }
}

/** Stores the campaign parameters of the current URL, if any, for 30 minutes. */
export function storeCampaignFromUrl(search: string) {
  const campaign = campaignFromSearch(search)
  if (campaign) writeCookie(AFFILIATE_COOKIE, JSON.stringify(campaign), AFFILIATE_COOKIE_MAX_AGE_S)
}

export function readCampaign(): Campaign | null {
  const raw = readCookie(AFFILIATE_COOKIE)
  if (!raw) return null
  try {
    return JSON.parse(raw) as Campaign
  } catch {
    return null
  }
}

export const clearCampaign = () => removeCookie(AFFILIATE_COOKIE)
