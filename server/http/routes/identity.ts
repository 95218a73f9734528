/**
 * Client identity (spec section 7, Client public, Session, profile changes): sign-up, phone and e-mail codes,
 * login with a second factor when risky, password recovery, credential changes, token refresh and logout.
 * Rules live in server/services/identity; these handlers only order the steps, and never await a provider
 * inside a transaction.
 */
import type { Context } from 'hono'
import * as v from 'valibot'
import {
  changeEmail,
  changePassword,
  changePhone,
  checkAvailability,
  clientLogin,
  clientLogout,
  completeClientLogin,
  getClient,
  recoverPassword,
  refreshClientToken,
  resendClientLoginCode,
  sendChangeEmailCode,
  sendChangePhoneCode,
  sendEmailCode,
  sendPhoneCode,
  sendPhoneCodeTs,
  sendPublicEmailCode,
  sendPublicPhoneCode,
  sendPublicPhoneCodeTs,
  signUp,
  verifyEmail,
  verifyPhone,
  verifyPhoneTs,
} from '../../../domain/contract/identity'
import { toViolations } from '../../../domain/contract/wire'
import { DomainError, invalid } from '../../../domain/errors'
import { emailSchema, mobilePhoneSchema } from '../../../domain/identity'
import { clientAddress, deviceIdOf, sendToken } from '../../auth/transport'
import { assertHuman } from '../../providers/captcha'
import {
  authenticateClient,
  CLIENT_BLOCKED,
  clientAccount,
  clientView,
  findClientByLogin,
  isAvailable,
  loginRisks,
  signUp as signUpClient,
} from '../../services/identity/clients'
import * as credentials from '../../services/identity/credentials'
import { hashDevice, trustDevice } from '../../services/identity/devices'
import type { SentCode } from '../../services/identity/messages'
import { assertMfaPending, completeSecondFactor, openSession } from '../../services/identity/sessions'
import { sandboxDeployment } from '../../services/sandbox/mode'
import { deliverCode, limitPublicCodes, requesterDevice, requesterOf, tryDeliverCode } from '../code-delivery'
import type { AppEnv } from '../context'
import { ok } from '../envelope'
import { currentClient, db, deps } from '../request'
import { type AnyRoute, implement } from '../route'
import { answerLogout, answerRefresh } from '../session-answers'

/** The timing fields the `-ts` variants add, as ISO strings. */
const timing = (sent: SentCode) => ({
  nextCodeAt: sent.nextCodeAt.toISOString(),
  codeExpiresAt: sent.expiresAt.toISOString(),
})

/** The session a change is made from, for the credential services. */
const changeSession = (c: Context<AppEnv>) => ({
  sessionId: c.get('principal').sessionId,
  address: clientAddress(c),
})

/**
 * The public phone code: the answer is the same whether or not the number belongs to anyone; a code is issued
 * either way (so the same limits apply) and delivered only to an existing client whose number is not verified.
 */
const sendPublicPhoneCodeOf = async (
  c: Context<AppEnv>,
  body: { mobilePhone: { number: string }; captchaToken?: string },
) => {
  await assertHuman(deps(c).captcha, body.captchaToken, 'sms_code', clientAddress(c))
  const number = body.mobilePhone.number
  const row = await findClientByLogin(db(c), number)
  return deliverCode(c, {
    purpose: 'phone_verify',
    channel: 'sms',
    target: number,
    owner: row ? clientAccount(row.id) : '',
    deliver: Boolean(row && !row.phoneVerifiedAt && row.status !== CLIENT_BLOCKED),
  })
}

const sendOwnPhoneCode = async (c: Context<AppEnv>) => {
  const row = await currentClient(c)
  if (row.phoneVerifiedAt)
    throw new DomainError('conflict', 'phoneAlreadyVerified', 'The mobile number is already verified.')
  return deliverCode(c, {
    purpose: 'phone_verify',
    channel: 'sms',
    target: row.phone,
    owner: clientAccount(row.id),
  })
}

const verifyOwnPhone = async (c: Context<AppEnv>, code: string) => {
  const { secrets, now } = deps(c)
  const at = now()
  const fresh = await credentials.verifyPhone(db(c), secrets.codeKey, await currentClient(c), code, at)
  return {
    fresh,
    at,
    data: { verified: true as const, client: await clientView(db(c), fresh, sandboxDeployment(deps(c))) },
  }
}

export const identityRoutes: AnyRoute[] = [
  implement(checkAvailability, async (c, { params }) => {
    const parsed = v.safeParse(params.key === 'email' ? emailSchema : mobilePhoneSchema, params.value)
    if (!parsed.success) throw invalid(toViolations(parsed.issues, 'params.value'))
    const available = await isAvailable(db(c), params.key, parsed.output, clientAddress(c), deps(c).now())
    return ok(c, { available })
  }),

  implement(signUp, async (c, { body }) => {
    const { captcha, secrets, logger, now } = deps(c)
    await assertHuman(captcha, body.captchaToken, 'signup', clientAddress(c))
    await limitPublicCodes(c)
    const at = now()
    const row = await signUpClient(db(c), body, at)
    const deviceHash = hashDevice(deviceIdOf(c, body.deviceId))
    await trustDevice(db(c), 'client', row.id, deviceHash, at)
    const sent = await tryDeliverCode(
      c,
      { purpose: 'phone_verify', channel: 'sms', target: row.phone, owner: clientAccount(row.id) },
      { deviceId: body.deviceId, addressCapped: true },
    )
    const opened = await openSession(db(c), secrets.jwtSecret, { type: 'client', id: row.id, deviceHash }, at)
    logger.info(
      { clientId: row.id, event: 'client.signed_up', lead: body.leadId ? row.leadLinked : undefined },
      'client signed up',
    )
    sendToken(c, opened.token)
    return ok(
      c,
      {
        client: await clientView(db(c), row, sandboxDeployment(deps(c))),
        nextCodeAt: sent.nextCodeAt?.toISOString() ?? null,
      },
      201,
    )
  }),

  implement(sendPublicPhoneCode, async (c, { body }) => {
    await sendPublicPhoneCodeOf(c, body)
    return ok(c, { sent: true })
  }),
  implement(sendPublicPhoneCodeTs, async (c, { body }) =>
    ok(c, { sent: true, ...timing(await sendPublicPhoneCodeOf(c, body)) }),
  ),
  implement(sendPhoneCode, async (c) => {
    await sendOwnPhoneCode(c)
    return ok(c, { sent: true })
  }),
  implement(sendPhoneCodeTs, async (c) => ok(c, { sent: true, ...timing(await sendOwnPhoneCode(c)) })),
  implement(verifyPhone, async (c, { body }) => ok(c, (await verifyOwnPhone(c, body.code)).data)),
  implement(verifyPhoneTs, async (c, { body }) => {
    const { fresh, at, data } = await verifyOwnPhone(c, body.code)
    return ok(c, { ...data, verifiedAt: (fresh.phoneVerifiedAt ?? at).toISOString() })
  }),

  implement(sendPublicEmailCode, async (c, { body }) => {
    await assertHuman(deps(c).captcha, body.captchaToken, 'email_code', clientAddress(c))
    const row = await findClientByLogin(db(c), body.email)
    const sent = await deliverCode(c, {
      purpose: 'email_verify',
      channel: 'email',
      target: body.email,
      owner: row ? clientAccount(row.id) : '',
      deliver: Boolean(row && !row.emailVerifiedAt && row.status !== CLIENT_BLOCKED),
    })
    return ok(c, { sent: true, ...timing(sent) })
  }),

  implement(sendEmailCode, async (c) => {
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
  }),

  implement(verifyEmail, async (c, { body }) => {
    const { secrets, now } = deps(c)
    const fresh = await credentials.verifyEmail(
      db(c),
      secrets.codeKey,
      await currentClient(c),
      body.code,
      now(),
    )
    return ok(c, { verified: true, client: await clientView(db(c), fresh, sandboxDeployment(deps(c))) })
  }),

  implement(recoverPassword, async (c, { body }) => {
    const { captcha, secrets, logger, now } = deps(c)
    if (body.code === undefined) {
      await assertHuman(captcha, body.captchaToken, 'recover', clientAddress(c))
      const row = await findClientByLogin(db(c), body.login)
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
    const row = await credentials.resetPassword(
      db(c),
      secrets.codeKey,
      // The schema requires the password with the code.
      { login: body.login, code: body.code, password: body.password! },
      await requesterDevice(c),
      now(),
    )
    logger.info({ clientId: row.id, event: 'client.password_reset' }, 'client password reset')
    return ok(c, { reset: true })
  }),

  implement(clientLogin, async (c, { body }) => {
    const { captcha, secrets, logger, now } = deps(c)
    const score = await assertHuman(captcha, body.captchaToken, 'login', clientAddress(c))
    const at = now()
    const requester = await requesterOf(c, body.deviceId)
    const { deviceHash } = requester
    // Wrong passwords lock the requester that typed them; a device the client trusts keeps its own budget.
    const login = await authenticateClient(db(c), body.login, body.password, requester, at)
    const { row } = login
    const reasons = await loginRisks(db(c), login, score)
    const opened = await openSession(
      db(c),
      secrets.jwtSecret,
      { type: 'client', id: row.id, mfaPending: reasons.length > 0, deviceHash },
      at,
    )
    if (!reasons.length) {
      await trustDevice(db(c), 'client', row.id, deviceHash, at)
      logger.info({ clientId: row.id, event: 'client.login' }, 'client logged in')
      sendToken(c, opened.token)
      return ok(c, { mfa: false, client: await clientView(db(c), row, sandboxDeployment(deps(c))) })
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
  }),

  implement(completeClientLogin, async (c, { body }) => {
    const { secrets, logger, now } = deps(c)
    const { sessionId } = c.get('principal')
    await assertMfaPending(db(c), sessionId)
    const row = await currentClient(c)
    await credentials.checkClientCode(db(c), secrets.codeKey, row, 'login_mfa', row.phone, body.code, now())
    const { token } = await completeSecondFactor(
      db(c),
      secrets.jwtSecret,
      { type: 'client', id: row.id, sessionId },
      now(),
    )
    logger.info({ clientId: row.id, event: 'client.login' }, 'client logged in after a second factor')
    sendToken(c, token)
    return ok(c, { mfa: false, client: await clientView(db(c), row, sandboxDeployment(deps(c))) })
  }),

  implement(resendClientLoginCode, async (c) => {
    await assertMfaPending(db(c), c.get('principal').sessionId)
    const row = await currentClient(c)
    const sent = await deliverCode(c, {
      purpose: 'login_mfa',
      channel: 'sms',
      target: row.phone,
      owner: clientAccount(row.id),
    })
    return ok(c, { sent: true, ...timing(sent) })
  }),

  implement(getClient, async (c) =>
    ok(c, await clientView(db(c), await currentClient(c), sandboxDeployment(deps(c)))),
  ),

  implement(refreshClientToken, answerRefresh),

  implement(clientLogout, answerLogout),

  implement(changePassword, async (c, { body }) => {
    const { messaging, logger, now } = deps(c)
    const row = await currentClient(c)
    await credentials.changePassword(db(c), messaging, row, body, changeSession(c), now())
    logger.info({ clientId: row.id, event: 'client.password_changed' }, 'client password changed')
    return ok(c, { changed: true })
  }),

  implement(sendChangePhoneCode, async (c, { body }) => {
    const row = await currentClient(c)
    const number = body.mobilePhone.number
    await credentials.assertNewPhone(db(c), row, number)
    const sent = await deliverCode(c, {
      purpose: 'change_phone',
      channel: 'sms',
      target: number,
      owner: clientAccount(row.id),
    })
    return ok(c, { sent: true, ...timing(sent) })
  }),

  implement(changePhone, async (c, { body }) => {
    const { secrets, messaging, logger, now } = deps(c)
    const row = await currentClient(c)
    const fresh = await credentials.changePhone(
      db(c),
      secrets.codeKey,
      messaging,
      row,
      { number: body.mobilePhone.number, code: body.code },
      changeSession(c),
      now(),
    )
    logger.info({ clientId: row.id, event: 'client.phone_changed' }, 'client mobile number changed')
    return ok(c, { client: await clientView(db(c), fresh, sandboxDeployment(deps(c))) })
  }),

  implement(sendChangeEmailCode, async (c, { body }) => {
    const row = await currentClient(c)
    await credentials.assertNewEmail(db(c), row, body.email)
    const sent = await deliverCode(c, {
      purpose: 'change_email',
      channel: 'email',
      target: body.email,
      owner: clientAccount(row.id),
    })
    return ok(c, { sent: true, ...timing(sent) })
  }),

  implement(changeEmail, async (c, { body }) => {
    const { secrets, messaging, logger, now } = deps(c)
    const row = await currentClient(c)
    const fresh = await credentials.changeEmail(
      db(c),
      secrets.codeKey,
      messaging,
      row,
      body,
      changeSession(c),
      now(),
    )
    logger.info({ clientId: row.id, event: 'client.email_changed' }, 'client e-mail changed')
    return ok(c, { client: await clientView(db(c), fresh, sandboxDeployment(deps(c))) })
  }),
]
