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
