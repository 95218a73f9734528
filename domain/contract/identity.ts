/**
 * The client's account (spec section 7, Client public, Session, profile changes): sign-up, phone and e-mail
 * codes, login with a second factor when risky, password recovery, credential changes, the current client,
 * token refresh and logout, and the single-link (my loan only) login. Instants are ISO strings.
 */
import * as v from 'valibot'
import {
  changeEmailSchema,
  changeEmailSendCodeSchema,
  changePasswordSchema,
  changePhoneSchema,
  changePhoneSendCodeSchema,
  clientLoginSchema,
  codeBodySchema,
  emailCodeRequestSchema,
  messageKeys,
  phoneCodeRequestSchema,
  recoverPasswordSchema,
  signUpSchema,
  singleLinkLoginSchema,
  singleLinkOtpSchema,
} from '../identity'
import { safeString } from '../safe-text'
import { defineContract } from './define'
import {
  clientChangedSchema,
  clientLoginAnswerSchema,
  clientViewSchema,
  codeSentSchema,
  sentOnlySchema,
  verifiedSchema,
} from './identity-answers'

export const checkAvailability = defineContract({
  method: 'get',
  path: '/public/client/check/:key/:value',
  summary: 'Whether an e-mail or a mobile number is still free for sign-up',
  tags: ['identity'],
  access: 'public',
  params: v.object({
    key: v.picklist(['email', 'phone'], 'Must be email or phone.'),
    value: v.pipe(safeString(), v.maxLength(254, messageKeys.wrongFormat)),
  }),
  response: v.object({ available: v.boolean() }),
})

export const signUp = defineContract({
  method: 'post',
  path: '/public/client',
  summary: 'Sign up: records the consents, sends a phone code, opens a session (token in Authorization)',
  tags: ['identity'],
  access: 'public',
  body: signUpSchema,
  /** 201; `nextCodeAt` is null when no code could be sent now (the day's codes used up). */
  response: v.object({ client: clientViewSchema, nextCodeAt: v.nullable(v.string()) }),
})

export const sendPublicPhoneCode = defineContract({
  method: 'post',
  path: '/public/client/phone/sms-code',
  summary: "Send a phone verification code to an unverified client's number",
  tags: ['identity'],
  access: 'public',
  body: phoneCodeRequestSchema,
  response: sentOnlySchema,
})

export const sendPublicPhoneCodeTs = defineContract({
  method: 'post',
  path: '/public/client/phone/sms-code-ts',
  summary: "Send a phone verification code to an unverified client's number, with the resend time",
  tags: ['identity'],
  access: 'public',
  body: phoneCodeRequestSchema,
  response: codeSentSchema,
})

export const sendPhoneCode = defineContract({
  method: 'post',
  path: '/private/client/phone/sms-code',
  summary: "Send a verification code to the current client's number",
  tags: ['identity'],
  access: 'client',
  response: sentOnlySchema,
})

export const sendPhoneCodeTs = defineContract({
  method: 'post',
  path: '/private/client/phone/sms-code-ts',
  summary: "Send a verification code to the current client's number, with the resend time",
  tags: ['identity'],
  access: 'client',
  response: codeSentSchema,
})

export const verifyPhone = defineContract({
  method: 'post',
  path: '/private/client/phone/verify',
  summary: "Verify the current client's number with the code sent to it",
  tags: ['identity'],
  access: 'client',
  body: codeBodySchema,
  response: verifiedSchema,
})

export const verifyPhoneTs = defineContract({
  method: 'post',
  path: '/private/client/phone/verify-ts',
  summary: "Verify the current client's number with the code sent to it, answering the time",
  tags: ['identity'],
  access: 'client',
  body: codeBodySchema,
  response: v.object({ ...verifiedSchema.entries, verifiedAt: v.string() }),
})

export const sendPublicEmailCode = defineContract({
  method: 'post',
  path: '/public/client/email/send-code',
  summary: "Send an e-mail verification code to a client's unverified e-mail (same answer for any e-mail)",
  tags: ['identity'],
  access: 'public',
  body: emailCodeRequestSchema,
  response: codeSentSchema,
})

export const sendEmailCode = defineContract({
  method: 'post',
  path: '/private/client/email/send-code',
  summary: "Send a verification code to the current client's e-mail",
  tags: ['identity'],
  access: 'client',
  response: codeSentSchema,
})

export const verifyEmail = defineContract({
  method: 'post',
  path: '/private/client/email/verify',
  summary: "Verify the current client's e-mail with the code sent to it",
  tags: ['identity'],
  access: 'client',
  body: codeBodySchema,
  response: verifiedSchema,
})

export const recoverPassword = defineContract({
  method: 'post',
  path: '/public/client/recover/password',
  summary:
    'Password recovery: { login } sends a code by SMS; { login, code, password, passwordRepeat } resets',
  tags: ['identity'],
  access: 'public',
  body: recoverPasswordSchema,
  /** The code sent (the same for an unknown login), or the password reset. */
  response: v.union([codeSentSchema, v.object({ reset: v.literal(true) })]),
})

export const clientLogin = defineContract({
  method: 'post',
  path: '/public/client/login',
  summary:
    'Client login with a mobile number or an e-mail; a risky login answers mfa: true and sends an SMS code',
  tags: ['identity'],
  access: 'public',
  body: clientLoginSchema,
  response: clientLoginAnswerSchema,
})

export const completeClientLogin = defineContract({
  method: 'post',
  path: '/public/client/login/mfa',
  summary: 'Complete a risky client login with the SMS code; answers a full token',
  tags: ['identity'],
  access: 'client',
  mfaPending: true,
  body: codeBodySchema,
  response: v.object({ mfa: v.literal(false), client: clientViewSchema }),
})

export const resendClientLoginCode = defineContract({
  method: 'post',
  path: '/public/client/login/mfa/sms-code',
  summary: 'Send a new SMS code for a pending client login',
  tags: ['identity'],
  access: 'client',
  mfaPending: true,
  response: codeSentSchema,
})

export const getClient = defineContract({
  method: 'get',
  path: '/private/client',
  summary: 'The current client (spec section 3, Client)',
  tags: ['identity'],
  access: 'client',
  response: clientViewSchema,
})

/** A new token went out in the Authorization header (and the auth.token cookie); it lives `expiresIn` seconds. */
export const tokenRefreshedSchema = v.object({ expiresIn: v.number() })
export const loggedOutSchema = v.object({ loggedOut: v.literal(true) })

export const refreshClientToken = defineContract({
  method: 'get',
  path: '/private/client/token/refresh',
  summary: 'A new token for the same session (Authorization header and auth.token cookie)',
  tags: ['identity'],
  access: 'client',
  // A single-link visit must outlive one token too.
  singleLink: true,
  response: tokenRefreshedSchema,
})

export const clientLogout = defineContract({
  method: 'post',
  path: '/private/client/logout',
  summary: 'End the session on the server (single-link sessions and pending logins too)',
  tags: ['identity'],
  access: 'client',
  singleLink: true,
  mfaPending: true,
  response: loggedOutSchema,
})

export const changePassword = defineContract({
  method: 'post',
  path: '/private/client/change/password',
  summary: 'Change the password (the old one must match, the new one must differ); ends the other sessions',
  tags: ['identity'],
  access: 'client',
  body: changePasswordSchema,
  response: v.object({ changed: v.literal(true) }),
})

export const sendChangePhoneCode = defineContract({
  method: 'post',
  path: '/private/client/change/phone/send-code',
  summary: 'Send a code to the new mobile number (it must differ from the current one and be free)',
  tags: ['identity'],
  access: 'client',
  body: changePhoneSendCodeSchema,
  response: codeSentSchema,
})

export const changePhone = defineContract({
  method: 'put',
  path: '/private/client/change/phone',
  summary: 'Change the mobile number with the code sent to the new number; ends the other sessions',
  tags: ['identity'],
  access: 'client',
  body: changePhoneSchema,
  response: clientChangedSchema,
})

export const sendChangeEmailCode = defineContract({
  method: 'post',
  path: '/private/client/change/email/send-code',
  summary: 'Send a code to the new e-mail (it must differ from the current one and be free)',
  tags: ['identity'],
  access: 'client',
  body: changeEmailSendCodeSchema,
  response: codeSentSchema,
})

export const changeEmail = defineContract({
  method: 'put',
  path: '/private/client/change/email',
  summary: 'Change the e-mail with the code sent to the new e-mail; ends the other sessions',
  tags: ['identity'],
  access: 'client',
  body: changeEmailSchema,
  response: clientChangedSchema,
})

export const sendSingleLinkCode = defineContract({
  method: 'post',
  path: '/public/affiliates/leads/otp',
  summary: 'Send an SMS code to the phone of the client behind a single-link token (lead_id)',
  tags: ['identity'],
  access: 'public',
  body: singleLinkOtpSchema,
  /** `to` is the number masked: the holder learns where the code went, not the number. */
  response: v.object({ ...codeSentSchema.entries, to: v.string() }),
})

export const singleLinkLogin = defineContract({
  method: 'post',
  path: '/public/affiliates/leads/otp/login',
  summary: 'Trade a single-link token and its SMS code for a my-loan-only session (the token is used up)',
  tags: ['identity'],
  access: 'public',
  body: singleLinkLoginSchema,
  response: v.object({ singleLink: v.literal(true), expiresIn: v.number() }),
})
