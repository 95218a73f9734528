/**
 * Campaign parameters (spec section 2): kept for 30 minutes in the `affiliate` cookie and sent with the
 * application, then removed.
 */
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
