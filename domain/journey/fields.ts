/**
 * Field rules of spec section 5 for the registration steps: one schema per form, used by the forms
 * (react-hook-form with standardSchemaResolver) and by the API. Messages are the spec's message keys (section 8);
 * the UI turns them into text and puts the key on the error element. Rules that need the database (PSGC codes
 * that exist and nest, an e-mail or a cash card nobody else uses) are checked by the server and answered with the
 * same keys on the same field names.
 */
import * as v from 'valibot'
import { emailSchema, mobilePhoneSchema } from '../identity'
import { INT4_ID_MAX, idNumber } from '../ids'
import { safeString } from '../safe-text'

export const journeyMessageKeys = {
  required: 'error-required',
  wrongFormat: 'error-wrong-format',
  personName: 'error-person-name',
  fullName: 'error-full-name',
  /** Not in the spec's list, which has no key for the age rule; the form shows the configured limits. */
  age: 'error-age',
  idNumberLength: 'error-id-number-length',
  invalidFinance: 'error-invalid-finance',
  invalidAddress: 'error-invalid-address',
  incorrectPhone: 'error-incorrect-phone',
  incorrectEwallet: 'error-incorrect-ewallet',
  phoneTaken: 'phone-error-taken',
  emailTaken: 'email-error-taken',
  fileSize: 'error-file-size',
  fileAge: 'error-file-age',
  /** The spec's two document-expiry texts, used verbatim. */
  expiryFormat: 'Invalid format of expiration date',
  expiryRange: 'Invalid expiration date. It should be within the next 10 years.',
  /** The spec's payout error text and rule names. */
  disbursementNumber: 'Disbursement number is not valid.',
  bankAccountExist: 'bankAccountExist',
  /** The server's rule (spec section 5): a number of the right shape that no bank issues (bankAccountInvalid). */
  bankAccountInvalid: 'bankAccountInvalid',
  uniqueCashCard: 'uniqueCashCard',
} as const
const k = journeyMessageKeys

// ---------------------------------------------------------------------------------------------------- dates

/** Asia/Manila is UTC+8 all year (no daylight saving), so its calendar date is a fixed shift. */
const MANILA_OFFSET_MS = 8 * 3600_000
export function manilaToday(now: Date): string {
  return new Date(now.getTime() + MANILA_OFFSET_MS).toISOString().slice(0, 10)
}

/** A complete, real calendar date YYYY-MM-DD (2026-02-30 is not one). */
export function isCompleteDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return false
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

/** Whole years between a birth date and a day, both YYYY-MM-DD (a birthday on 29 February counts on 1 March). */
export function ageOn(birthDate: string, day: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number]
  const [ty, tm, td] = day.split('-').map(Number) as [number, number, number]
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0)
}

/** YYYY-MM-DD plus whole years, clamped to the month's end (2024-02-29 + 10 years = 2034-02-28). */
export function addYears(day: string, years: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const last = new Date(Date.UTC(y + years, m, 0)).getUTCDate()
  return `${y + years}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`
}

export const AGE_LIMITS = { min: 20, max: 70 } as const
/**
 * What the content system may set the limits to (ADR 0048): never below 18, the Philippine age of majority (RA 6809;
 * a minor cannot consent to a contract, Civil Code Art. 1327), never above 100; the minimum below the maximum.
 */
export const AGE_LIMIT_BOUNDS = { min: 18, max: 100 } as const
export interface AgeLimits {
  min: number
  max: number
}

export interface DateRuleOptions {
  /** The clock the rule reads; defaults to the real one. */
  now?: () => Date
}
export interface AgeOptions extends DateRuleOptions {
  minAge?: number
  maxAge?: number
}

/** Birth date: complete, and an age between the limits (default 20 and 70) inclusive, counted in Asia/Manila. */
export function birthDateSchema(options: AgeOptions = {}) {
  const now = options.now ?? (() => new Date())
  const min = options.minAge ?? AGE_LIMITS.min
  const max = options.maxAge ?? AGE_LIMITS.max
  return v.pipe(
    safeString(k.required),
    v.trim(),
    v.nonEmpty(k.required),
    v.check(isCompleteDate, k.wrongFormat),
    v.check((value) => {
      const age = ageOn(value, manilaToday(now()))
      return age >= min && age <= max
    }, k.age),
  )
}

/** Document expiry: complete ('Invalid format of expiration date'), from today up to 10 years ahead. */
export function expiryDateSchema(options: DateRuleOptions = {}) {
  const now = options.now ?? (() => new Date())
  return v.pipe(
    safeString(k.expiryFormat),
    v.trim(),
    v.check(isCompleteDate, k.expiryFormat),
    v.check((value) => {
      const today = manilaToday(now())
      return value >= today && value <= addYears(today, 10)
    }, k.expiryRange),
  )
}

// ---------------------------------------------------------------------------------------------------- details

/** Letters (accents and ñ included), words separated by a space, dot, hyphen or apostrophe; up to 50. */
export const PERSON_NAME = /^\p{L}+(?:(?:[.'-]\s?|\s)\p{L}+)*\.?$/u
export const personNameSchema = v.pipe(
  safeString(k.required),
  v.trim(),
  v.nonEmpty(k.required),
  v.maxLength(50, k.personName),
  v.regex(PERSON_NAME, k.personName),
)

export const genders = ['male', 'female'] as const
export const civilStatuses = ['single', 'married', 'widowed', 'separated', 'annulled', 'live_in'] as const

export function makeDetailsSchema(options: AgeOptions = {}) {
  return v.object({
    firstName: personNameSchema,
    middleName: v.optional(
      v.union(
        [
          v.pipe(
            v.literal(''),
            v.transform(() => undefined),
          ),
          personNameSchema,
        ],
        k.personName,
      ),
    ),
    lastName: personNameSchema,
    birthDate: birthDateSchema(options),
    gender: v.picklist(genders, k.required),
    civilStatus: v.picklist(civilStatuses, k.required),
    email: emailSchema,
  })
}
/** /registration/details and seeded clients with the default limits; the form passes the configured ones. */
export const detailsSchema = makeDetailsSchema()
/**
 * The body of PUT /private/client: the widest limits the content system may set, so a configured 18 is not refused
 * before the route applies the configured limits (read from the database, on the server's clock).
 */
export const detailsBodySchema = makeDetailsSchema({
  minAge: AGE_LIMIT_BOUNDS.min,
  maxAge: AGE_LIMIT_BOUNDS.max,
})
export type DetailsInput = v.InferInput<typeof detailsSchema>
export type Details = v.InferOutput<typeof detailsSchema>

// ---------------------------------------------------------------------------------------------------- employment

export const employmentTypes = [
  'employed_private',
  'employed_government',
  'self_employed',
  'business_owner',
  'ofw',
  'seafarer',
  'freelancer',
  'contractual',
  'student',
  'homemaker',
  'unemployed',
  'retired',
] as const
/** Types with no employer or business to name. */
export const employmentTypesWithoutCompany = ['student', 'homemaker', 'unemployed', 'retired'] as const

/** Letters, digits, spaces and the punctuation company names use; up to 50. */
export const COMPANY_NAME = /^[\p{L}\d .,&'()/#@+-]{1,50}$/u
export const companyNameSchema = v.pipe(
  safeString(k.required),
  v.trim(),
  v.nonEmpty(k.required),
  v.regex(COMPANY_NAME, k.wrongFormat),
)

/** Income in whole pesos: 1 to 6 digits, no leading zero. The output is the number of pesos. */
export const incomeSchema = v.pipe(
  safeString(k.required),
  v.trim(),
  v.nonEmpty(k.required),
  v.regex(/^[1-9]\d{0,5}$/, k.invalidFinance),
  v.transform(Number),
)
/** A finance amount in whole pesos: at least 4 characters, up to 6 digits. */
export const financeAmountSchema = v.pipe(
  safeString(k.required),
  v.trim(),
  v.nonEmpty(k.required),
  v.regex(/^\d{4,6}$/, k.invalidFinance),
  v.transform(Number),
)

export const employmentSchema = v.pipe(
  v.object({
    employmentType: v.picklist(employmentTypes, k.required),
    companyName: v.optional(v.pipe(safeString(), v.trim())),
    monthlyIncome: incomeSchema,
    monthlyExpenses: financeAmountSchema,
    /** Optional: the employer's (or business's) phone, a landline or a mobile number (generic phone rule). */
    employerPhone: v.optional(
      v.pipe(
        safeString(),
        v.trim(),
        v.check((value) => value === '' || v.is(genericPhoneSchema, value), k.incorrectPhone),
        v.transform((value) => value || undefined),
      ),
    ),
    /** Optional: the BIR TIN, typed through TAX_ID_MASK; its digits are kept. */
    taxId: v.optional(
      v.pipe(
        safeString(),
        v.trim(),
        v.check((value) => value === '' || v.is(taxIdSchema, value), k.wrongFormat),
        v.transform((value) => (value ? normalizeTaxId(value) : undefined)),
      ),
    ),
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const value = dataset.value
    const needsCompany = !(employmentTypesWithoutCompany as readonly string[]).includes(value.employmentType)
    if (!needsCompany) return { ...value, companyName: value.companyName || undefined }
    const company = v.safeParse(companyNameSchema, value.companyName ?? '')
    if (!company.success) {
      addIssue({ message: company.issues[0].message, path: companyPath(value.companyName) })
      return NEVER
    }
    return { ...value, companyName: company.output }
  }),
)
const companyPath = (input: unknown) =>
  [
    {
      type: 'object' as const,
      origin: 'value' as const,
      input: {} as Record<string, unknown>,
      key: 'companyName',
      value: input,
    },
  ] as [v.ObjectPathItem]
export type EmploymentInput = v.InferInput<typeof employmentSchema>
export type Employment = v.InferOutput<typeof employmentSchema>

// ---------------------------------------------------------------------------------------------------- phone and tax id

/**
 * The generic phone rule (spec section 5: "Generic phone: at least 8 characters"), for a number that need not be a
 * mobile one: a landline with its area code ((02) 8123 4567 in Metro Manila, 8 digits after the area code since
 * 2019) or a mobile number. Digits with the separators people type (+ ( ) - . and spaces), 8 to 20 characters,
 * at least 7 of them digits. Mobile numbers keep their own 11-digit rule (`mobilePhoneSchema`).
 */
export const genericPhoneSchema = v.pipe(
  safeString(k.required),
  v.trim(),
  v.nonEmpty(k.required),
  v.minLength(8, k.incorrectPhone),
  v.maxLength(20, k.incorrectPhone),
  v.regex(/^\+?[\d\s().-]+$/, k.incorrectPhone),
  v.check((value) => (value.match(/\d/g)?.length ?? 0) >= 7, k.incorrectPhone),
)

/**
 * The tax id (spec section 5: "masks only"): the BIR's Taxpayer Identification Number, 9 digits and a branch code
 * of 3 digits (000 for an individual) or, on newer TINs, 5. The mask is the form's; the value is its digits, 9, 12
 * or 14 of them, shown as 123-456-789-000.
 */
export const TAX_ID_MASK = '999-999-999-99999'
export const normalizeTaxId = (value: string) => value.replace(/[\s-]/g, '')
export const taxIdSchema = v.pipe(
  safeString(k.required),
  v.transform(normalizeTaxId),
  v.nonEmpty(k.required),
  v.regex(/^\d{9}(\d{3}|\d{5})?$/, k.wrongFormat),
)
/** A TIN's digits in the mask's groups: '123456789000' -> '123-456-789-000'. */
export const formatTaxId = (digits: string) =>
  [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6, 9), digits.slice(9)].filter(Boolean).join('-')

// ---------------------------------------------------------------------------------------------------- reference

export const relations = ['parent', 'sibling', 'spouse', 'child', 'relative', 'friend', 'colleague'] as const

/** At least two words, each a person name. */
export const fullNameSchema = v.pipe(
  safeString(k.required),
  v.trim(),
  v.nonEmpty(k.required),
  v.maxLength(100, k.fullName),
  v.transform((value) => value.replace(/\s+/g, ' ')),
  v.check((value) => {
    const words = value.split(' ')
    return words.length >= 2 && words.every((word) => PERSON_NAME.test(word))
  }, k.fullName),
)

/** A relative chosen and typed by the client (never harvested from the phone), whose number is not the client's. */
export function makeReferenceSchema(ownPhone?: string) {
  return v.object({
    fullName: fullNameSchema,
    relation: v.picklist(relations, k.required),
    phone: v.pipe(
      mobilePhoneSchema,
      v.check((value) => value !== ownPhone, k.phoneTaken),
    ),
  })
}
export const referenceSchema = makeReferenceSchema()
export type ReferenceInput = v.InferInput<typeof referenceSchema>
export type Reference = v.InferOutput<typeof referenceSchema>

// ---------------------------------------------------------------------------------------------------- address

const psgcCode = v.pipe(
  safeString(k.required),
  v.trim(),
  v.nonEmpty(k.required),
  v.regex(/^\d{10}$/, k.invalidAddress),
)
/** Letters, digits, spaces and . , - # / ' ( ); up to 50. */
export const STREET = /^[\p{L}\d .,#/'()-]{1,50}$/u
export const streetSchema = v.pipe(
  safeString(k.required),
  v.trim(),
  v.nonEmpty(k.required),
  v.regex(STREET, k.invalidAddress),
)

/**
 * The four PSGC selects of /registration/address, named like the address API they come from: region, city
 * (province or independent city), district (city or municipality) and ward (barangay). The server checks that
 * each exists and sits under the previous one.
 */
export const addressSchema = v.object({
  regionId: psgcCode,
  cityId: psgcCode,
  districtId: psgcCode,
  wardId: psgcCode,
  street: streetSchema,
})
export type AddressInput = v.InferInput<typeof addressSchema>
export type Address = v.InferOutput<typeof addressSchema>

/** POST /private/client/geo: where the browser says the device is, sent only with the client's permission. */
export const geoSchema = v.object({
  latitude: v.pipe(v.number(k.wrongFormat), v.minValue(-90, k.wrongFormat), v.maxValue(90, k.wrongFormat)),
  longitude: v.pipe(v.number(k.wrongFormat), v.minValue(-180, k.wrongFormat), v.maxValue(180, k.wrongFormat)),
  accuracy: v.optional(
    v.pipe(v.number(k.wrongFormat), v.finite(k.wrongFormat), v.minValue(0, k.wrongFormat)),
  ),
})
export type Geo = v.InferOutput<typeof geoSchema>

// ---------------------------------------------------------------------------------------------------- identity document

/** Identity document types (spec section 3) with their slugs. */
export const identityDocumentTypes = {
  SSS: 'social-security-system',
  UMID: 'unified-multi-purpose-id',
  PP: 'passport',
  DL: 'driver-license',
  POSTAL_ID: 'postal-id',
  NATIONAL_ID: 'national-id',
} as const
export type IdentityDocumentType = keyof typeof identityDocumentTypes
export const identityDocumentTypeCodes = Object.keys(identityDocumentTypes) as IdentityDocumentType[]

/** Types whose card carries an expiry date; the SSS card, the UMID and the PhilSys ID do not. */
export const typesWithExpiry: readonly IdentityDocumentType[] = ['PP', 'DL', 'POSTAL_ID']

interface NumberRule {
  /** What the mask lets through, after spaces and dashes are removed and letters upper-cased. */
  pattern: RegExp
  /** Digit-only numbers of the wrong length get the length key; anything else the format key. */
  length?: number
  mask: string
}
/** Spec section 5: SSS 10 (2-7-1), UMID 12 (4-7-1), passport letter+7 digits+letter, postal ID letter+11 digits, national ID 16; DL and the rest by mask. */
export const documentNumberRules: Record<IdentityDocumentType, NumberRule> = {
  SSS: { pattern: /^\d{10}$/, length: 10, mask: '99-9999999-9' },
  UMID: { pattern: /^\d{12}$/, length: 12, mask: '9999-9999999-9' },
  PP: { pattern: /^[A-Z]\d{7}[A-Z]$/, mask: 'a9999999a' },
  DL: { pattern: /^[A-Z]\d{2}\d{2}\d{6}$/, mask: 'a99-99-999999' },
  POSTAL_ID: { pattern: /^[A-Z]\d{11}$/, mask: 'a99999999999' },
  NATIONAL_ID: { pattern: /^\d{16}$/, length: 16, mask: '9999-9999-9999-9999' },
}

export const normalizeDocumentNumber = (value: string) => value.replace(/[\s-]/g, '').toUpperCase()

/** The message for a document number, or null when it is valid for its type. */
export function documentNumberProblem(type: IdentityDocumentType, raw: string): string | null {
  const rule = documentNumberRules[type]
  const value = normalizeDocumentNumber(raw)
  if (!value) return k.required
  if (rule.pattern.test(value)) return null
  if (rule.length && /^\d+$/.test(value)) return k.idNumberLength
  return k.wrongFormat
}

/** The document a client identifies with, sent with POST /id-document/finish. */
export function makeIdentityDocumentSchema(options: DateRuleOptions = {}) {
  const expiry = expiryDateSchema(options)
  return v.pipe(
    v.object({
      documentType: v.picklist(identityDocumentTypeCodes, k.required),
      documentNumber: v.pipe(safeString(k.required), v.maxLength(32, k.wrongFormat)),
      expiryDate: v.optional(v.union([v.literal(''), safeString()])),
    }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const { documentType, documentNumber, expiryDate } = dataset.value
      let failed = false
      const problem = documentNumberProblem(documentType, documentNumber)
      if (problem) {
        addIssue({ message: problem, path: pathTo('documentNumber', documentNumber) })
        failed = true
      }
      let expiry_: string | undefined
      if (expiryDate || typesWithExpiry.includes(documentType)) {
        const parsed = v.safeParse(expiry, expiryDate ?? '')
        if (parsed.success) expiry_ = parsed.output
        else {
          addIssue({ message: parsed.issues[0].message, path: pathTo('expiryDate', expiryDate) })
          failed = true
        }
      }
      if (failed) return NEVER
      return {
        documentType,
        documentNumber: normalizeDocumentNumber(documentNumber),
        expiryDate: expiry_,
      }
    }),
  )
}
const pathTo = (key: string, value: unknown) =>
  [{ type: 'object' as const, origin: 'value' as const, input: {}, key, value }] as [v.ObjectPathItem]
export const identityDocumentSchema = makeIdentityDocumentSchema()
export type IdentityDocumentInput = v.InferInput<typeof identityDocumentSchema>
export type IdentityDocument = v.InferOutput<typeof identityDocumentSchema>

/** The photos of POST /id-document/upload, addressed by this name in download/{type} and delete/{type}. */
export const idDocumentSides = ['front', 'back', 'selfie'] as const
export type IdDocumentSide = (typeof idDocumentSides)[number]

/** POST /client-document types. */
export const clientDocumentTypes = ['employment_certificate', 'comprehensive_check_up_result'] as const

// ---------------------------------------------------------------------------------------------------- payout

export const payoutTypes = ['bank_transfer', 'ewallet', 'cash_card', 'cash_pickup'] as const
export type PayoutType = (typeof payoutTypes)[number]
export const cashPickupProviders = ['cebuana', 'm_lhuillier'] as const

/** Bank account ("iban" field): 10 to 18 digits, spaces and dashes ignored. */
export const bankAccountSchema = v.pipe(
  safeString(k.required),
  v.transform((value) => value.replace(/[\s-]/g, '')),
  v.nonEmpty(k.required),
  v.regex(/^\d{10,18}$/, k.disbursementNumber),
)
/** E-wallet account: the 11-digit mobile number the wallet is registered to. */
export const ewalletNumberSchema = v.pipe(
  safeString(k.required),
  v.transform((value) => value.replace(/[\s-]/g, '')),
  v.nonEmpty(k.required),
  v.regex(/^\d{11}$/, k.incorrectEwallet),
)
/** Cash card: 12 to 25 letters or digits. */
export const cashCardSchema = v.pipe(
  safeString(k.required),
  v.transform((value) => value.replace(/[\s-]/g, '').toUpperCase()),
  v.nonEmpty(k.required),
  v.regex(/^[A-Z\d]{12,25}$/, k.disbursementNumber),
)
/** institution.id is an `integer` column: a bank id beyond it is a violation, not a failed query. */
const institutionId = idNumber(INT4_ID_MAX, k.required)

export const payoutSchema = v.variant(
  'type',
  [
    v.object({ type: v.literal('bank_transfer'), bankId: institutionId, accountNumber: bankAccountSchema }),
    v.object({ type: v.literal('ewallet'), bankId: institutionId, accountNumber: ewalletNumberSchema }),
    v.object({ type: v.literal('cash_card'), accountNumber: cashCardSchema }),
    v.object({ type: v.literal('cash_pickup'), provider: v.picklist(cashPickupProviders, k.required) }),
  ],
  k.required,
)
export type PayoutInput = v.InferInput<typeof payoutSchema>
export type Payout = v.InferOutput<typeof payoutSchema>

/**
 * The server's `bankAccountInvalid` rule (spec section 5 names it without its condition): an account number every
 * digit of which is the same (0000000000, 9999999999) is a placeholder typed to get past the form, never an account
 * a Philippine bank issues, and a payout to it would only bounce back days later. Checked by the server only (the
 * form's rule stays the 10–18 digits), on PUT /iban/validate and when a bank account is saved.
 */
export function isPlaceholderAccount(accountNumber: string): boolean {
  return /^(\d)\1+$/.test(accountNumber)
}

/** PUT /private/client/iban/validate. */
export const ibanValidateSchema = v.object({ iban: bankAccountSchema })
