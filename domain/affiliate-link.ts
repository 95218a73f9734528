/**
 * The lead link of spec sections 2 and 5 (docs/decisions/0014): what `/registration` accepts in its query and
 * the cookie that remembers the lead. Kept apart from domain/affiliate.ts (the lead's fields and the back-office
 * schema) because the route's `validateSearch` runs in the app's entry chunk: this module needs nothing of the
 * registration field rules, so the home page does not download them.
 */
import * as v from 'valibot'
import { messageKeys, UUID_PATTERN } from './identity'
import { safeString } from './safe-text'

/** The cookie that keeps the lead id between pages: path '/', 259200 seconds (labelled days in the spec). */
export const LEAD_COOKIE = 'leadId'
export const LEAD_COOKIE_MAX_AGE_S = 259_200
/** A lead stays open as long as the cookie that remembers it (72 hours) unless the back office says otherwise. */
export const LEAD_TTL_HOURS = 72

/** The one value of `redirected-from-affiliates` a lead link may carry. */
export const REDIRECTED_FROM_AFFILIATES = 'true'

/** The lead link of a lead: where an affiliate sends the visitor. */
export const leadLinkPath = (leadId: string) =>
  `/registration?lead_id=${leadId}&redirected-from-affiliates=${REDIRECTED_FROM_AFFILIATES}`

/** A lead id: a UUID (random v4 for real leads), compared lower-cased. */
export const leadIdSchema = v.pipe(
  safeString(messageKeys.wrongFormat),
  v.trim(),
  v.regex(UUID_PATTERN, messageKeys.wrongFormat),
  v.toLowerCase(),
)

/**
 * The query of `/registration`: either no lead at all, or a UUID `lead_id` together with
 * `redirected-from-affiliates=true`. TanStack parses `true` into a boolean, so both spellings are accepted.
 * Anything else fails (the route shows the 404 page). Other parameters (utm_*, gclid...) are not this
 * schema's business: TanStack keeps them in the location.
 */
export const leadLinkSearchSchema = v.pipe(
  v.object({
    lead_id: v.optional(leadIdSchema),
    'redirected-from-affiliates': v.optional(
      v.pipe(
        v.union([v.literal(true), v.literal(REDIRECTED_FROM_AFFILIATES)]),
        v.transform(() => true as const),
      ),
    ),
  }),
  v.check(
    (search) => (search.lead_id === undefined) === (search['redirected-from-affiliates'] === undefined),
    'A lead link carries lead_id and redirected-from-affiliates together.',
  ),
)
export type LeadLinkSearch = v.InferOutput<typeof leadLinkSearchSchema>
