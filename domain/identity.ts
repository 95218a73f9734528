/**
 * Field rules of spec section 5 for identity: one schema per field, used by the forms and by the API.
 * Messages are the spec's message keys; the UI turns them into text and puts the key on the error element.
 */
import * as v from 'valibot'

export const messageKeys = {
  required: 'error-required',
  mail: 'error-mail',
  emailTaken: 'email-error-taken',
  phoneTaken: 'phone-error-taken',
  incorrectPhone: 'error-incorrect-phone',
  verificationCode: 'error-verification-code',
  verificationCodeUnsent: 'error-verification-code-unsent',
  wrongFormat: 'error-wrong-format',
} as const

const required = (schema: v.GenericSchema<string, string>) =>
  v.pipe(v.string(messageKeys.required), v.trim(), v.nonEmpty(messageKeys.required), schema)

/** 11 digits, 0 then 8 or 9 (09XXXXXXXXX). */
export const mobilePhoneSchema = required(
  v.pipe(v.string(), v.regex(/^0[89]\d{9}$/, messageKeys.incorrectPhone)),
)

/** An e-mail with a top-level domain of 2 or more letters; stored lower-cased. */
export const emailSchema = required(
  v.pipe(
    v.string(),
    v.maxLength(254, messageKeys.mail),
    v.regex(/^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/, messageKeys.mail),
    v.toLowerCase(),
  ),
)

/** 4 to 24 letters or digits. */
export const passwordSchema = v.pipe(
  v.string(messageKeys.required),
  v.nonEmpty(messageKeys.required),
  v.regex(/^[A-Za-z0-9]{4,24}$/, messageKeys.wrongFormat),
)

export const verificationCodeSchema = required(
  v.pipe(v.string(), v.regex(/^\d{3}$/, messageKeys.verificationCode)),
)

export const languageSchema = v.optional(v.picklist(['en']), 'en')

/** Versions of the texts a client agrees to; a new version means asking again. */
export const consentVersions = {
  terms: '2026-11-01',
  privacy: '2026-11-01',
  marketing: '2026-11-01',
} as const

export const signUpSchema = v.pipe(
  v.object({
    mobilePhone: v.object({ number: mobilePhoneSchema }),
    email: emailSchema,
    password: passwordSchema,
    passwordRepeat: v.string(messageKeys.required),
    language: languageSchema,
    consents: v.object({
      terms: v.literal(true, messageKeys.required),
      privacy: v.literal(true, messageKeys.required),
      marketing: v.optional(v.boolean(), false),
    }),
    captchaToken: v.optional(v.string()),
    campaign: v.optional(v.record(v.string(), v.pipe(v.string(), v.maxLength(200)))),
  }),
  v.forward(
    v.partialCheck(
      [['password'], ['passwordRepeat']],
      (input) => input.password === input.passwordRepeat,
      'error-password-mismatch',
    ),
    ['passwordRepeat'],
  ),
)
export type SignUp = v.InferOutput<typeof signUpSchema>

/** Log in with a phone number or an e-mail, and a password. */
export const clientLoginSchema = v.object({
  login: required(v.pipe(v.string(), v.maxLength(254))),
  password: v.pipe(v.string(messageKeys.required), v.nonEmpty(messageKeys.required), v.maxLength(128)),
  captchaToken: v.optional(v.string()),
})

export const userLoginSchema = v.object({
  email: emailSchema,
  password: v.pipe(v.string(messageKeys.required), v.nonEmpty(messageKeys.required), v.maxLength(128)),
})
