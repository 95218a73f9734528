/**
 * Affiliate leads (spec sections 2, 3, 9): an affiliate sends a visitor to
 * `/registration?lead_id=<uuid>&redirected-from-affiliates=true`; the lead's data prefills registration.
 * One set of rules for the link, the lead a back-office user creates and the prefill the app reads.
 */
import * as v from 'valibot'
import { LEAD_TTL_HOURS } from './affiliate-link'
import { emailSchema, mobilePhoneSchema } from './identity'
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
import { safeString } from './safe-text'

export * from './affiliate-link'

/** The Affiliate model of spec section 3. */
const affiliateText = (max: number) =>
  v.pipe(safeString(journeyMessageKeys.wrongFormat), v.trim(), v.maxLength(max))
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
  safeString(journeyMessageKeys.wrongFormat),
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
    clientIdentificator: v.optional(v.pipe(safeString(journeyMessageKeys.wrongFormat), v.maxLength(32))),
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
