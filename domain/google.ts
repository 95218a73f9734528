/**
 * The Google model of spec section 3 (`keywordData`; issue 22 item 5): the search keyword of a Google Ads click,
 * from the landing query the ad's tracking template writes. Google fills `{keyword}` into the parameter the
 * advertiser chose, by convention `utm_term` (or `keyword`); a click is Google's when it carries a click id
 * (`gclid`, or `gbraid`/`wbraid` on iOS) or `utm_source=google`. A keyword from any other source is not Google's
 * and is left out, so a partner's `utm_term` never passes for a Google keyword.
 */
import * as v from 'valibot'
import { safeString } from './safe-text'

export const googleModelSchema = v.object({
  keywordData: v.pipe(safeString(), v.trim(), v.nonEmpty(), v.maxLength(200, 'At most 200 characters.')),
})
export type GoogleModel = v.InferOutput<typeof googleModelSchema>

const CLICK_IDS = ['gclid', 'gbraid', 'wbraid'] as const
const KEYWORD_PARAMS = ['keyword', 'utm_term'] as const

/** The Google model of a landing query (a query string or its parameters), or null when it has none. */
export function googleModelOf(query: string | Record<string, string | undefined>): GoogleModel | null {
  const get =
    typeof query === 'string'
      ? (name: string) => new URLSearchParams(query).get(name) ?? undefined
      : (name: string) => query[name]
  const fromGoogle =
    CLICK_IDS.some((id) => get(id)?.trim()) || get('utm_source')?.trim().toLowerCase() === 'google'
  if (!fromGoogle) return null
  for (const name of KEYWORD_PARAMS) {
    // ValueTrack leaves an unfilled `{keyword}` as is on some networks (display, discovery): not a keyword.
    const raw = get(name)?.trim()
    if (!raw || raw === '{keyword}') continue
    const parsed = v.safeParse(googleModelSchema, { keywordData: raw.slice(0, 200) })
    if (parsed.success) return parsed.output
  }
  return null
}
