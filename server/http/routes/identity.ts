/**
 * Client identity (spec section 7, Client public, Session, profile changes): sign-up, phone and e-mail codes,
 * login with a second factor when risky, password recovery, credential changes, token refresh and logout.
 * Rules live in server/services/identity; these handlers only order the steps, and never await a provider
 * inside a transaction.
 */
import type { Context } from 'hono'
import * as v from 'valibot'
import { DomainError, invalid } from '../../../domain/errors'
import {
  changeEmailSchema,
  changeEmailSendCodeSchema,
  changePasswordSchema,
  changePhoneSchema,
  changePhoneSendCodeSchema,
  clientLoginSchema,
  codeBodySchema,
  emailCodeRequestSchema,
  emailSchema,
  messageKeys,
  mobilePhoneSchema,
  phoneCodeRequestSchema,
  recoverPasswordSchema,
  signUpSchema,
} from '../../../domain/identity'
import { safeString } from '../../../domain/safe-text'
import { hashPassword } from '../../auth/passwords'
import { clearToken, clientAddress, deviceIdOf, sendToken } from '../../auth/transport'
import { assertHuman, CAPTCHA_SAFE_SCORE } from '../../providers/captcha'
import {
  authenticateClient,
  CLIENT_BLOCKED,
  type ClientRow,
  clientAccount,
  clientView,
  emailTaken,
  findClient,
  findClientByLogin,
  isTaken,
  markEmailVerified,
  markPhoneVerified,
  phoneTaken,
  setEmail,
  setPassword,
  setPhone,
  signUp,
} from '../../services/identity/clients'
import { assertCode, checkCode } from '../../services/identity/codes'
import { hashDevice, isKnownTo, trustDevice, trustedCount } from '../../services/identity/devices'
import { checkPasswordThrottled, clearAccountFailures } from '../../services/identity/login'
import { type SentCode, sendNotice } from '../../services/identity/messages'
import {
  completeMfa,
  isMfaPending,
  openSession,
  refreshSession,
  revokeAllSessions,
  revokeSession,
  sessionDevice,
} from '../../services/identity/sessions'
import { limitPerAddress } from '../../services/identity/throttle'
import {
  CHECKS_PER_ADDRESS,
  deliverCode,
  limitPublicCodes,
  RISKY_AFTER_FAILURES,
  requesterDevice,
  requesterOf,
  tryDeliverCode,
  withRetryAfter,
} from '../code-delivery'
import type { AppEnv } from '../context'
import { ok } from '../envelope'
import { db, deps } from '../request'
import { type AnyRoute, defineRoute, toViolations } from '../route'

/** The timing fields the `-ts` variants add, as ISO strings. */
const timing = (sent: SentCode) => ({
  nextCodeAt: sent.nextCodeAt.toISOString(),
  codeExpiresAt: sent.expiresAt.toISOString(),
})

async function currentClient(c: Context<AppEnv>): Promise<ClientRow> {
  const row = await findClient(db(c), c.get('principal').id)
  // The session check found the client a moment ago; a vanished row means the session is over.
  if (!row) throw new DomainError('unauthenticated', 'unauthorized', 'The session has ended.')
  return row
}

const checkClientCode = async (
  c: Context<AppEnv>,
  purpose: Parameters<typeof checkCode>[2],
  target: string,
  code: string,
  clientId: number,
) => {
  const { secrets, now } = deps(c)
  assertCode(await checkCode(db(c), secrets.codeKey, purpose, target, code, now(), clientAccount(clientId)))
}

const sentSchema = v.object({
  sent: v.boolean(),
  nextCodeAt: v.optional(v.string()),
  codeExpiresAt: v.optional(v.string()),
})

const phoneSmsCode = (ts: boolean) =>
  defineRoute({
    method: 'post',
    path: `/public/client/phone/sms-code${ts ? '-ts' : ''}`,
    summary: `Send a phone verification code to an unverified client's number${ts ? ', with the resend time' : ''}`,
    tags: ['identity'],
    access: 'public',
    body: phoneCodeRequestSchema,
    response: sentSchema,
    // The answer is the same whether or not the number belongs to anyone: a code is issued either way (so the
    // same limits apply) and delivered only to an existing client whose number is not verified yet.
    handler: async (c, { body }) => {
      await assertHuman(deps(c).captcha, body.captchaToken, 'sms_code', clientAddress(c))
      const number = body.mobilePhone.number
      const row = await findClientByLogin(db(c), number)
      const deliver = Boolean(row && !row.phoneVerifiedAt && row.status !== CLIENT_BLOCKED)
      const sent = await deliverCode(c, {
        purpose: 'phone_verify',
        channel: 'sms',
        target: number,
        owner: row ? clientAccount(row.id) : '',
        deliver,
      })
      return ok(c, ts ? { sent: true, ...timing(sent) } : { sent: true })
    },
  })

const privateSmsCode = (ts: boolean) =>
  defineRoute({
    method: 'post',
    path: `/private/client/phone/sms-code${ts ? '-ts' : ''}`,
    summary: `Send a verification code to the current client's number${ts ? ', with the resend time' : ''}`,
    tags: ['identity'],
    access: 'client',
    response: sentSchema,
    handler: async (c) => {
      const row = await currentClient(c)
      if (row.phoneVerifiedAt)
        throw new DomainError('conflict', 'phoneAlreadyVerified', 'The mobile number is already verified.')
      const sent = await deliverCode(c, {
        purpose: 'phone_verify',
        channel: 'sms',
        target: row.phone,
        owner: clientAccount(row.id),
      })
      return ok(c, ts ? { sent: true, ...timing(sent) } : { sent: true })
    },
  })

const privateVerify = (ts: boolean) =>
  defineRoute({
    method: 'post',
    path: `/private/client/phone/verify${ts ? '-ts' : ''}`,
    summary: `Verify the current client's number with the code sent to it${ts ? ', answering the time' : ''}`,
    tags: ['identity'],
    access: 'client',
    body: codeBodySchema,
    handler: async (c, { body }) => {
      const row = await currentClient(c)
      const now = deps(c).now()
      if (!row.phoneVerifiedAt) {
        await checkClientCode(c, 'phone_verify', row.phone, body.code, row.id)
        await markPhoneVerified(db(c), row.id, now)
      }
      const fresh = (await findClient(db(c), row.id))!
      const data = { verified: true, client: await clientView(db(c), fresh) }
      return ok(c, ts ? { ...data, verifiedAt: (fresh.phoneVerifiedAt ?? now).toISOString() } : data)
    },
  })

/** Step 2 of the client login and of its second factor: the session is open, the token goes out. */
async function answerLogin(c: Context<AppEnv>, row: ClientRow, token: string) {
  sendToken(c, token)
  return ok(c, { mfa: false, client: await clientView(db(c), row) })
}

/** New token for the caller's session; the client and back-office refresh routes share it. */
export async function refreshToken(c: Context<AppEnv>) {
  const { secrets, now } = deps(c)
  const refreshed = await refreshSession(db(c), secrets.jwtSecret, c.get('principal').sessionId, now())
  if (!refreshed) throw new DomainError('unauthenticated', 'unauthorized', 'The session has ended.')
  sendToken(c, refreshed.token)
  return ok(c, { expiresIn: refreshed.expiresIn })
}

export const identityRoutes: AnyRoute[] = [
  defineRoute({
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
    handler: async (c, { params }) => {
      const parsed = v.safeParse(params.key === 'email' ? emailSchema : mobilePhoneSchema, params.value)
      if (!parsed.success) throw invalid(toViolations(parsed.issues, 'params.value'))
      await withRetryAfter(c, () =>
        limitPerAddress(db(c), 'check', clientAddress(c), CHECKS_PER_ADDRESS, 10, deps(c).now()),
      )
      return ok(c, { available: !(await isTaken(db(c), params.key, parsed.output)) })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/client',
    summary: 'Sign up: records the consents, sends a phone code, opens a session (token in Authorization)',
    tags: ['identity'],
    access: 'public',
    body: signUpSchema,
    handler: async (c, { body }) => {
      const { captcha, secrets, logger, now } = deps(c)
      await assertHuman(captcha, body.captchaToken, 'signup', clientAddress(c))
      await limitPublicCodes(c)
      const at = now()
      const row = await signUp(db(c), body, at)
      const deviceHash = hashDevice(deviceIdOf(c, body.deviceId))
      await trustDevice(db(c), 'client', row.id, deviceHash, at)
      const sent = await tryDeliverCode(
        c,
        { purpose: 'phone_verify', channel: 'sms', target: row.phone, owner: clientAccount(row.id) },
        { deviceId: body.deviceId, addressCapped: true },
      )
      const opened = await openSession(
        db(c),
        secrets.jwtSecret,
        { type: 'client', id: row.id, deviceHash },
        at,
      )
      logger.info(
        { clientId: row.id, event: 'client.signed_up', lead: body.leadId ? row.leadLinked : undefined },
        'client signed up',
      )
      sendToken(c, opened.token)
      return ok(
        c,
        { client: await clientView(db(c), row), nextCodeAt: sent.nextCodeAt?.toISOString() ?? null },
        201,
      )
    },
  }),

  phoneSmsCode(false),
  phoneSmsCode(true),
  privateSmsCode(false),
  privateSmsCode(true),
  privateVerify(false),
  privateVerify(true),

  defineRoute({
    method: 'post',
    path: '/public/client/email/send-code',
    summary: "Send an e-mail verification code to a client's unverified e-mail (same answer for any e-mail)",
    tags: ['identity'],
    access: 'public',
    body: emailCodeRequestSchema,
    response: sentSchema,
    handler: async (c, { body }) => {
      await assertHuman(deps(c).captcha, body.captchaToken, 'email_code', clientAddress(c))
      const row = await findClientByLogin(db(c), body.email)
      const deliver = Boolean(row && !row.emailVerifiedAt && row.status !== CLIENT_BLOCKED)
      const sent = await deliverCode(c, {
        purpose: 'email_verify',
        channel: 'email',
        target: body.email,
        owner: row ? clientAccount(row.id) : '',
        deliver,
      })
      return ok(c, { sent: true, ...timing(sent) })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/email/send-code',
    summary: "Send a verification code to the current client's e-mail",
    tags: ['identity'],
    access: 'client',
    response: sentSchema,
    handler: async (c) => {
      const row = await currentClient(c)
      if (row.emailVerifiedAt)
        throw new DomainError('conflict', 'emailAlreadyVerified', 'The e-mail is already verified.')
      const sent = await deliverCode(c, {
        purpose: 'email_verify',
        channel: 'email',
        target: row.email,
        owner: clientAccount(row.id),
      })
      return ok(c, { sent: true, ...timing(sent) })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/email/verify',
    summary: "Verify the current client's e-mail with the code sent to it",
    tags: ['identity'],
    access: 'client',
    body: codeBodySchema,
    handler: async (c, { body }) => {
      const row = await currentClient(c)
      if (!row.emailVerifiedAt) {
        await checkClientCode(c, 'email_verify', row.email, body.code, row.id)
        await markEmailVerified(db(c), row.id, deps(c).now())
      }
      return ok(c, { verified: true, client: await clientView(db(c), (await findClient(db(c), row.id))!) })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/client/recover/password',
    summary:
      'Password recovery: { login } sends a code by SMS; { login, code, password, passwordRepeat } resets',
    tags: ['identity'],
    access: 'public',
    body: recoverPasswordSchema,
    handler: async (c, { body }) => {
      const { captcha, secrets, logger, now } = deps(c)
      const row = await findClientByLogin(db(c), body.login)
      if (body.code === undefined) {
        await assertHuman(captcha, body.captchaToken, 'recover', clientAddress(c))
        // Same answer for an unknown login; its code is issued (limits apply alike) but goes nowhere.
        const sent = await deliverCode(c, {
          purpose: 'recover_password',
          channel: 'sms',
          target: row?.phone ?? body.login.trim().toLowerCase(),
          owner: row ? clientAccount(row.id) : '',
          deliver: Boolean(row),
        })
        return ok(c, { sent: true, ...timing(sent) })
      }
      if (!row) {
        assertCode('not_sent')
        return ok(c, null)
      }
      const at = now()
      // A stranger's wrong codes count apart from the owner's: they cannot kill the code the owner was sent.
      const requesterKnown = await isKnownTo(db(c), clientAccount(row.id), await requesterDevice(c))
      assertCode(
        await checkCode(
          db(c),
          secrets.codeKey,
          'recover_password',
          row.phone,
          body.code,
          at,
          clientAccount(row.id),
          requesterKnown,
        ),
      )
      const passwordHash = await hashPassword(body.password!)
      await setPassword(db(c), row.id, passwordHash, at)
      // The code reached the phone, which proves the number too.
      if (!row.phoneVerifiedAt) await markPhoneVerified(db(c), row.id, at)
      await revokeAllSessions(db(c), 'client', row.id, 'password_reset')
      await clearAccountFailures(db(c), clientAccount(row.id))
      logger.info({ clientId: row.id, event: 'client.password_reset' }, 'client password reset')
      return ok(c, { reset: true })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/client/login',
    summary:
      'Client login with a mobile number or an e-mail; a risky login answers mfa: true and sends an SMS code',
    tags: ['identity'],
    access: 'public',
    body: clientLoginSchema,
    handler: async (c, { body }) => {
      const { captcha, secrets, logger, now } = deps(c)
      const score = await assertHuman(captcha, body.captchaToken, 'login', clientAddress(c))
      const at = now()
      const requester = await requesterOf(c, body.deviceId)
      const { deviceHash } = requester
      // Wrong passwords lock the requester that typed them; a device the client trusts keeps its own budget.
      const { row, priorFailures, knownDevice } = await withRetryAfter(c, () =>
        authenticateClient(db(c), body.login, body.password, requester, at),
      )
      // A device counts as new only once the client has one it trusts: the first device is trusted on use.
      const newDevice = !knownDevice && (await trustedCount(db(c), 'client', row.id)) > 0
      const reasons = [
        priorFailures >= RISKY_AFTER_FAILURES && 'recent_failures',
        score < CAPTCHA_SAFE_SCORE && 'low_captcha_score',
        newDevice && 'new_device',
      ].filter((reason): reason is string => Boolean(reason))
      const opened = await openSession(
        db(c),
        secrets.jwtSecret,
        { type: 'client', id: row.id, mfaPending: reasons.length > 0, deviceHash },
        at,
      )
      if (!reasons.length) {
        await trustDevice(db(c), 'client', row.id, deviceHash, at)
        logger.info({ clientId: row.id, event: 'client.login' }, 'client logged in')
        return answerLogin(c, row, opened.token)
      }
      const sent = await tryDeliverCode(
        c,
        { purpose: 'login_mfa', channel: 'sms', target: row.phone, owner: clientAccount(row.id) },
        { deviceId: body.deviceId },
      )
      logger.info(
        { clientId: row.id, event: 'client.login_mfa', reasons },
        'client login needs a second factor',
      )
      sendToken(c, opened.token)
      return ok(c, { mfa: true, client: null, nextCodeAt: sent.nextCodeAt?.toISOString() ?? null })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/client/login/mfa',
    summary: 'Complete a risky client login with the SMS code; answers a full token',
    tags: ['identity'],
    access: 'client',
    mfaPending: true,
    body: codeBodySchema,
    handler: async (c, { body }) => {
      const { secrets, logger, now } = deps(c)
      const { sessionId } = c.get('principal')
      if (!(await isMfaPending(db(c), sessionId)))
        throw new DomainError('conflict', 'mfaNotPending', 'This session does not need a second factor.')
      const row = await currentClient(c)
      await checkClientCode(c, 'login_mfa', row.phone, body.code, row.id)
      const done = await completeMfa(db(c), sessionId)
      if (!done)
        throw new DomainError('conflict', 'mfaNotPending', 'This session does not need a second factor.')
      await trustDevice(db(c), 'client', row.id, done.deviceHash, now())
      const refreshed = await refreshSession(db(c), secrets.jwtSecret, sessionId, now())
      if (!refreshed) throw new DomainError('unauthenticated', 'unauthorized', 'The session has ended.')
      logger.info({ clientId: row.id, event: 'client.login' }, 'client logged in after a second factor')
      return answerLogin(c, row, refreshed.token)
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/client/login/mfa/sms-code',
    summary: 'Send a new SMS code for a pending client login',
    tags: ['identity'],
    access: 'client',
    mfaPending: true,
    response: sentSchema,
    handler: async (c) => {
      if (!(await isMfaPending(db(c), c.get('principal').sessionId)))
        throw new DomainError('conflict', 'mfaNotPending', 'This session does not need a second factor.')
      const row = await currentClient(c)
      const sent = await deliverCode(c, {
        purpose: 'login_mfa',
        channel: 'sms',
        target: row.phone,
        owner: clientAccount(row.id),
      })
      return ok(c, { sent: true, ...timing(sent) })
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client',
    summary: 'The current client (spec section 3, Client)',
    tags: ['identity'],
    access: 'client',
    handler: async (c) => ok(c, await clientView(db(c), await currentClient(c))),
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/token/refresh',
    summary: 'A new token for the same session (Authorization header and auth.token cookie)',
    tags: ['identity'],
    access: 'client',
    // A single-link visit must outlive one token too.
    singleLink: true,
    handler: refreshToken,
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/logout',
    summary: 'End the session on the server (single-link sessions and pending logins too)',
    tags: ['identity'],
    access: 'client',
    singleLink: true,
    mfaPending: true,
    handler: async (c) => {
      await revokeSession(db(c), c.get('principal').sessionId, 'logout')
      clearToken(c)
      return ok(c, { loggedOut: true })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/change/password',
    summary: 'Change the password (the old one must match, the new one must differ); ends the other sessions',
    tags: ['identity'],
    access: 'client',
    body: changePasswordSchema,
    handler: async (c, { body }) => {
      const { messaging, logger, now } = deps(c)
      const row = await currentClient(c)
      const { sessionId } = c.get('principal')
      const at = now()
      // Throttled like a login from an unknown device, keyed by this session's device (or the session itself):
      // a stolen session must not become a password oracle, nor use the owner's budget, nor lock the owner out.
      const check = await withRetryAfter(c, async () =>
        checkPasswordThrottled(
          db(c),
          {
            account: clientAccount(row.id),
            requester: {
              address: clientAddress(c),
              deviceHash: (await sessionDevice(db(c), sessionId)) ?? `session:${sessionId}`,
            },
            passwordHash: row.passwordHash,
            password: body.oldPassword,
            trustDevices: false,
          },
          at,
        ),
      )
      if (!check.ok) throw invalid([{ propertyPath: 'oldPassword', message: messageKeys.oldPassword }])
      if (body.password === body.oldPassword)
        throw invalid([{ propertyPath: 'password', message: messageKeys.uniqueNewPassword }])
      await setPassword(db(c), row.id, await hashPassword(body.password), at)
      await revokeAllSessions(db(c), 'client', row.id, 'password_changed', sessionId)
      await sendNotice(db(c), messaging, 'sms', row.phone, 'password_changed')
      logger.info({ clientId: row.id, event: 'client.password_changed' }, 'client password changed')
      return ok(c, { changed: true })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/change/phone/send-code',
    summary: 'Send a code to the new mobile number (it must differ from the current one and be free)',
    tags: ['identity'],
    access: 'client',
    body: changePhoneSendCodeSchema,
    response: sentSchema,
    handler: async (c, { body }) => {
      const row = await currentClient(c)
      const number = body.mobilePhone.number
      if (number === row.phone || (await isTaken(db(c), 'phone', number))) throw phoneTaken()
      const sent = await deliverCode(c, {
        purpose: 'change_phone',
        channel: 'sms',
        target: number,
        owner: clientAccount(row.id),
      })
      return ok(c, { sent: true, ...timing(sent) })
    },
  }),

  defineRoute({
    method: 'put',
    path: '/private/client/change/phone',
    summary: 'Change the mobile number with the code sent to the new number; ends the other sessions',
    tags: ['identity'],
    access: 'client',
    body: changePhoneSchema,
    handler: async (c, { body }) => {
      const { messaging, logger, now } = deps(c)
      const row = await currentClient(c)
      const number = body.mobilePhone.number
      if (number === row.phone || (await isTaken(db(c), 'phone', number))) throw phoneTaken()
      await checkClientCode(c, 'change_phone', number, body.code, row.id)
      await setPhone(db(c), row.id, number, now())
      await revokeAllSessions(db(c), 'client', row.id, 'phone_changed', c.get('principal').sessionId)
      await sendNotice(db(c), messaging, 'sms', row.phone, 'phone_changed')
      logger.info({ clientId: row.id, event: 'client.phone_changed' }, 'client mobile number changed')
      return ok(c, { client: await clientView(db(c), (await findClient(db(c), row.id))!) })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/change/email/send-code',
    summary: 'Send a code to the new e-mail (it must differ from the current one and be free)',
    tags: ['identity'],
    access: 'client',
    body: changeEmailSendCodeSchema,
    response: sentSchema,
    handler: async (c, { body }) => {
      const row = await currentClient(c)
      if (body.email === row.email || (await isTaken(db(c), 'email', body.email))) throw emailTaken()
      const sent = await deliverCode(c, {
        purpose: 'change_email',
        channel: 'email',
        target: body.email,
        owner: clientAccount(row.id),
      })
      return ok(c, { sent: true, ...timing(sent) })
    },
  }),

  defineRoute({
    method: 'put',
    path: '/private/client/change/email',
    summary: 'Change the e-mail with the code sent to the new e-mail; ends the other sessions',
    tags: ['identity'],
    access: 'client',
    body: changeEmailSchema,
    handler: async (c, { body }) => {
      const { messaging, logger, now } = deps(c)
      const row = await currentClient(c)
      if (body.email === row.email || (await isTaken(db(c), 'email', body.email))) throw emailTaken()
      await checkClientCode(c, 'change_email', body.email, body.code, row.id)
      await setEmail(db(c), row.id, body.email, now())
      await revokeAllSessions(db(c), 'client', row.id, 'email_changed', c.get('principal').sessionId)
      await sendNotice(db(c), messaging, 'email', row.email, 'email_changed')
      logger.info({ clientId: row.id, event: 'client.email_changed' }, 'client e-mail changed')
      return ok(c, { client: await clientView(db(c), (await findClient(db(c), row.id))!) })
    },
  }),
]
