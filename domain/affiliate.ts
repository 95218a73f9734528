/**
 * Affiliate leads (spec sections 2, 3, 9): an affiliate sends a visitor to
 * `/registration?lead_id=<uuid>&redirected-from-affiliates=true`; the lead's data prefills registration.
 * One set of rules for the link, the lead a back-office user creates and the prefill the app reads.
 */
import * as v from 'valibot'
import { emailSchema, mobilePhoneSchema, UUID_PATTERN } from './identity'
import {
  civilStatuses,
  documentNumberProblem,
  genders,
  identityDocumentTypeCodes,
  isCompleteDate,
  journeyMessageKeys,
  manilaToday,
  normalizeDocumentNumber,
  personNameSchema,
} from './journey/fields'

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
  v.string(journeyMessageKeys.wrongFormat),
  v.trim(),
  v.regex(UUID_PATTERN, journeyMessageKeys.wrongFormat),
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

/** The Affiliate model of spec section 3. */
const affiliateText = (max: number) =>
  v.pipe(v.string(journeyMessageKeys.wrongFormat), v.trim(), v.maxLength(max))
export const affiliateSchema = v.object({
  partner: v.pipe(affiliateText(100), v.nonEmpty(journeyMessageKeys.required)),
  code: v.optional(affiliateText(100)),
  campaign: v.optional(affiliateText(200)),
  source: v.optional(affiliateText(200)),
  optionalParam: v.optional(affiliateText(500)),
})
export type Affiliate = v.InferOutput<typeof affiliateSchema>

/** A birth date as the lead stores it: a real calendar date YYYY-MM-DD, not in the future (Asia/Manila). */
const leadBirthDate = v.pipe(
  v.string(journeyMessageKeys.wrongFormat),
  v.trim(),
  v.check(isCompleteDate, journeyMessageKeys.wrongFormat),
  v.check(
    (value) => value <= manilaToday(new Date()) && value >= '1900-01-01',
    journeyMessageKeys.wrongFormat,
  ),
)

const docPath = (key: string, value: unknown) =>
  [{ type: 'object' as const, origin: 'value' as const, input: {}, key, value }] as [v.ObjectPathItem]

/**
 * POST /private/back-office/affiliates/leads: what an affiliate knows about the visitor. Only the phone and the
 * partner are required; every other field is checked when present, so the registration form never receives
 * data its own rules would refuse (age limits excepted: the details step applies those to the client).
 */
export const leadCreateSchema = v.pipe(
  v.object({
    firstName: v.optional(personNameSchema),
    middleName: v.optional(personNameSchema),
    lastName: v.optional(personNameSchema),
    documentType: v.optional(v.picklist(identityDocumentTypeCodes, journeyMessageKeys.wrongFormat)),
    clientIdentificator: v.optional(v.pipe(v.string(journeyMessageKeys.wrongFormat), v.maxLength(32))),
    dateOfBirth: v.optional(leadBirthDate),
    gender: v.optional(v.picklist(genders, journeyMessageKeys.wrongFormat)),
    civilStatus: v.optional(v.picklist(civilStatuses, journeyMessageKeys.wrongFormat)),
    email: v.optional(emailSchema),
    phone: mobilePhoneSchema,
    affiliate: affiliateSchema,
    /** How long the lead stays open; 72 hours (the cookie's lifetime) by default. */
    ttlHours: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(24 * 30)), LEAD_TTL_HOURS),
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const { documentType, clientIdentificator } = dataset.value
    if (documentType === undefined && clientIdentificator === undefined) return dataset.value
    if (documentType === undefined) {
      addIssue({ message: journeyMessageKeys.required, path: docPath('documentType', documentType) })
      return NEVER
    }
    const problem = documentNumberProblem(documentType, clientIdentificator ?? '')
    if (problem) {
      addIssue({ message: problem, path: docPath('clientIdentificator', clientIdentificator) })
      return NEVER
    }
    return { ...dataset.value, clientIdentificator: normalizeDocumentNumber(clientIdentificator ?? '') }
  }),
)
export type LeadCreateInput = v.InferInput<typeof leadCreateSchema>
export type LeadCreate = v.InferOutput<typeof leadCreateSchema>

/** The Lead prefill data of spec section 3, as GET /public/affiliates/leads/{id} answers it. */
export interface LeadPrefill {
  leadId: string
  firstName: string | null
  middleName: string | null
  lastName: string | null
  documentType: string | null
  clientIdentificator: string | null
  /** YYYY-MM-DD. */
  dateOfBirth: string | null
  gender: string | null
  civilStatus: string | null
  email: string | null
  phone: string | null
}

/** YYYY-MM-DD as the registration form shows it, MM/DD/YYYY; null for anything that is not a complete date. */
export function toDisplayDate(value: string | null | undefined): string | null {
  if (!value || !isCompleteDate(value)) return null
  const [y, m, d] = value.split('-')
  return `${m}/${d}/${y}`
}
