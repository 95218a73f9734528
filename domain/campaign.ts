/**
 * Campaign parameters (spec section 2): kept for 30 minutes in the `affiliate` cookie and sent with the
 * application, then removed.
 */
import * as v from 'valibot'
import { safeString } from './safe-text'

export const campaignParams = [
  'gclid',
  'utm_partner',
  'utm_source',
  'utm_content',
  'utm_campaign',
  'utm_medium',
  'my_source',
  'my_content',
  'my_campaign',
  'my_medium',
] as const
export type CampaignParam = (typeof campaignParams)[number]
export type Campaign = Partial<Record<CampaignParam, string>>

export const AFFILIATE_COOKIE = 'affiliate'
export const AFFILIATE_COOKIE_MAX_AGE_S = 1800

/**
 * The analytics query (spec section 9: the `analytics-query` cookie, 600 minutes): the marketing parameters of the
 * query a visitor arrived with, kept so that the registration guard can pass them to the employment page (spec
 * section 2, Registration guard, work info) and the application can send them as its marketing data (section 7).
 * Written once per page load from the landing address (src/features/campaign/store-campaign.ts), not on the
 * app's own navigations, so that the guard's removal after passing it on holds.
 */
export const ANALYTICS_QUERY_COOKIE_MAX_AGE_S = 600 * 60

/** Marketing parameters a query may carry: the campaign's, and the ad networks' click ids. */
const MARKETING_PARAM = /^(utm_[a-z]{1,20}|my_[a-z]{1,20}|gclid|fbclid|msclkid)$/
export const isMarketingParam = (name: string) => MARKETING_PARAM.test(name)

/**
 * localStorage: the landing's marketing query kept for the application's marketing data, `{ query, expiresAt }`
 * (ms), for the analytics query's 600 minutes: the registration guard removes the cookie at the employment step.
 */
export const MARKETING_QUERY_KEY = 'hiram:marketing-query'

/** The most parameters, and the longest value, the analytics query keeps (a cookie is small). */
const ANALYTICS_QUERY_PARAMS = 20
const ANALYTICS_QUERY_VALUE_LENGTH = 200

/**
 * The marketing parameters of a query string as a query string (without `?`), the first of each name, at most
 * 20, each value cut to 200 characters; null when there are none. Anything else in the query stays out.
 */
export function analyticsQueryFromSearch(search: string): string | null {
  const kept = new URLSearchParams()
  for (const [name, value] of new URLSearchParams(search)) {
    if ([...kept.keys()].length >= ANALYTICS_QUERY_PARAMS) break
    const trimmed = value.trim()
    if (isMarketingParam(name) && trimmed && !kept.has(name))
      kept.set(name, trimmed.slice(0, ANALYTICS_QUERY_VALUE_LENGTH))
  }
  const query = kept.toString()
  return query ? query : null
}

/** The campaign parameters present in a query string, trimmed and length-limited; null when there are none. */
export function campaignFromSearch(search: string): Campaign | null {
  const params = new URLSearchParams(search)
  const campaign: Campaign = {}
  for (const name of campaignParams) {
    const value = params.get(name)?.trim()
    if (value) campaign[name] = value.slice(0, 200)
  }
  return Object.keys(campaign).length ? campaign : null
}

/**
 * The campaign a request may carry (sign-up stores it with the client): only the known parameters, each up to
 * 200 characters; unknown keys are dropped, so a caller cannot store arbitrary data through it.
 */
const param = v.optional(v.pipe(safeString(), v.trim(), v.maxLength(200)))
export const campaignSchema = v.object({
  gclid: param,
  utm_partner: param,
  utm_source: param,
  utm_content: param,
  utm_campaign: param,
  utm_medium: param,
  my_source: param,
  my_content: param,
  my_campaign: param,
  my_medium: param,
} satisfies Record<CampaignParam, typeof param>)

/** The affiliate cookie's value as the campaign it holds, or null when it is missing or not a campaign. */
export function parseCampaignCookie(raw: string | null): Campaign | null {
  if (!raw) return null
  try {
    const parsed = v.safeParse(campaignSchema, JSON.parse(raw))
    if (!parsed.success) return null
    const campaign = Object.fromEntries(
      Object.entries(parsed.output).filter(([, value]) => value),
    ) as Campaign
    return Object.keys(campaign).length ? campaign : null
  } catch {
    return null
  }
}
