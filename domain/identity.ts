/**
 * Field rules of spec section 5 for identity: one schema per field, used by the forms and by the API.
 * Messages are the spec's message keys; the UI turns them into text and puts the key on the error element.
 */
import * as v from 'valibot'
import { campaignSchema } from './campaign'
import { safeString } from './safe-text'

export const messageKeys = {
  required: 'error-required',
  mail: 'error-mail',
  emailTaken: 'email-error-taken',
  phoneTaken: 'phone-error-taken',
  incorrectPhone: 'error-incorrect-phone',
  verificationCode: 'error-verification-code',
  verificationCodeUnsent: 'error-verification-code-unsent',
  /**
   * A one-time password not sent (spec section 8): the agreement's signing code (step otp_agreement) and the
   * affiliate lead's single-link code, as opposed to a phone verification code.
   */
  otpCodeUnsent: 'error-otp-code-unsent',
  wrongFormat: 'error-wrong-format',
  passwordMismatch: 'error-password-mismatch',
  oldPassword: 'oldPassword',
  uniqueNewPassword: 'uniqueNewPassword',
  captcha: 'error-captcha',
} as const

const required = (schema: v.GenericSchema<string, string>) =>
  v.pipe(safeString(messageKeys.required), v.trim(), v.nonEmpty(messageKeys.required), schema)

/** What people type or paste between the digits of a number: spaces, dashes, dots, parentheses. */
const PHONE_SEPARATORS = /[\s.()\-\u2010-\u2015]/g
/** With the country code (and the trunk 0 some people keep after it), or national, with or without its 0. */
const PHONE_FORMS = [/^\+?630?([89]\d{9})$/, /^0?([89]\d{9})$/]

/**
 * The usual ways to write a Philippine mobile number, as its national form 09XXXXXXXXX: `+63 917 123 4567`,
 * `+63 (0) 917 123 4567`, `63917…`, `0917-123-4567`, `(0917) 123 4567`, `917 123 4567`. Anything else comes back
 * trimmed but otherwise as it was, for the schema to refuse.
 */
export function normalizeMobilePhone(input: string): string {
  const compact = input.replace(PHONE_SEPARATORS, '')
  for (const form of PHONE_FORMS) {
    const digits = form.exec(compact)?.[1]
    if (digits) return `0${digits}`
  }
  return input.trim()
}

/** 11 digits, 0 then 8 or 9 (09XXXXXXXXX), after normalizeMobilePhone. */
export const mobilePhoneSchema = required(
  v.pipe(v.string(), v.transform(normalizeMobilePhone), v.regex(/^0[89]\d{9}$/, messageKeys.incorrectPhone)),
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

/**
 * An id the app keeps for the device (a random UUID in local storage), sent as `x-device-id` or `deviceId`.
 * A login from a device the account has not confirmed before asks for a second factor.
 */
export const deviceIdSchema = v.pipe(v.string(), v.regex(/^[\w-]{8,128}$/, messageKeys.wrongFormat))

/** A UUID in its 8-4-4-4-12 hexadecimal form (affiliate lead ids). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

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
    captchaToken: v.optional(v.pipe(safeString(), v.maxLength(4096))),
    deviceId: v.optional(deviceIdSchema),
    campaign: v.optional(campaignSchema),
    /** The affiliate lead the visitor came with (the leadId cookie); linked to the new client and closed. */
    leadId: v.optional(
      v.pipe(
        v.string(messageKeys.wrongFormat),
        v.regex(UUID_PATTERN, messageKeys.wrongFormat),
        v.toLowerCase(),
      ),
    ),
  }),
  v.forward(
    v.partialCheck(
      [['password'], ['passwordRepeat']],
      (input) => input.password === input.passwordRepeat,
      messageKeys.passwordMismatch,
    ),
    ['passwordRepeat'],
  ),
)
export type SignUp = v.InferOutput<typeof signUpSchema>

const captchaToken = v.optional(v.pipe(safeString(), v.maxLength(4096)))
const loginPassword = v.pipe(
  safeString(messageKeys.required),
  v.nonEmpty(messageKeys.required),
  v.maxLength(128),
)

/** Log in with a phone number or an e-mail, and a password. */
export const clientLoginSchema = v.object({
  // A phone number typed the usual ways (`+63 917 123 4567`) finds the account stored as 09XXXXXXXXX; an e-mail
  // is left as typed.
  login: required(
    v.pipe(
      v.string(),
      v.maxLength(254),
      v.transform((login) => (login.includes('@') ? login : normalizeMobilePhone(login))),
    ),
  ),
  password: loginPassword,
  captchaToken,
  deviceId: v.optional(deviceIdSchema),
})

export const userLoginSchema = v.object({
  email: emailSchema,
  password: loginPassword,
  captchaToken,
  deviceId: v.optional(deviceIdSchema),
})

export const codeBodySchema = v.object({ code: verificationCodeSchema })

export const phoneCodeRequestSchema = v.object({
  mobilePhone: v.object({ number: mobilePhoneSchema }),
  captchaToken,
})

export const emailCodeRequestSchema = v.object({ email: emailSchema, captchaToken })

export const changePhoneSendCodeSchema = v.object({ mobilePhone: v.object({ number: mobilePhoneSchema }) })
export const changePhoneSchema = v.object({
  mobilePhone: v.object({ number: mobilePhoneSchema }),
  code: verificationCodeSchema,
})

export const changeEmailSendCodeSchema = v.object({ email: emailSchema })
export const changeEmailSchema = v.object({ email: emailSchema, code: verificationCodeSchema })

export const changePasswordSchema = v.pipe(
  v.object({
    oldPassword: loginPassword,
    password: passwordSchema,
    passwordRepeat: v.string(messageKeys.required),
  }),
  v.forward(
    v.partialCheck(
      [['password'], ['passwordRepeat']],
      (input) => input.password === input.passwordRepeat,
      messageKeys.passwordMismatch,
    ),
    ['passwordRepeat'],
  ),
)
export type ChangePassword = v.InferOutput<typeof changePasswordSchema>

/**
 * Password recovery in two calls to one path: `{ login }` sends a code by SMS; `{ login, code, password,
 * passwordRepeat }` sets the new password.
 */
export const recoverPasswordSchema = v.pipe(
  v.object({
    login: required(v.pipe(v.string(), v.maxLength(254))),
    code: v.optional(verificationCodeSchema),
    password: v.optional(passwordSchema),
    passwordRepeat: v.optional(v.string()),
    captchaToken,
  }),
  v.forward(
    v.partialCheck(
      [['code'], ['password']],
      (input) => input.code === undefined || input.password !== undefined,
      messageKeys.required,
    ),
    ['password'],
  ),
  v.forward(
    v.partialCheck(
      [['code'], ['password'], ['passwordRepeat']],
      (input) => input.code === undefined || input.password === input.passwordRepeat,
      messageKeys.passwordMismatch,
    ),
    ['passwordRepeat'],
  ),
)

/** The single-link token a lead link carries (`lead_id`): 43 base64url characters. */
export const leadTokenSchema = required(
  v.pipe(v.string(), v.regex(/^[\w-]{20,128}$/, messageKeys.wrongFormat)),
)
export const singleLinkOtpSchema = v.object({ leadId: leadTokenSchema, captchaToken })
export const singleLinkLoginSchema = v.object({ leadId: leadTokenSchema, code: verificationCodeSchema })
