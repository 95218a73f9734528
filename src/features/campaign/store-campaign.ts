import {
  AFFILIATE_COOKIE,
  AFFILIATE_COOKIE_MAX_AGE_S,
  type Campaign,
  campaignFromSearch,
} from '../../../domain/campaign'
import { readCookie, removeCookie, writeCookie } from '../../app/cookies'

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
