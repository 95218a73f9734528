/**
 * Back-office identity: user login (an e-mail code on a device not confirmed before), the user's own record,
 * token refresh, logout, the message outbox, blocking clients and issuing single-link tokens.
 */
import type { Context } from 'hono'
import {
  completeUserLogin,
  getBackOfficeUser,
  issueSingleLink,
  listOutbox,
  refreshUserToken,
  resendUserLoginCode,
  setClientStatus,
  userLogin,
  userLogout,
} from '../../../domain/contract/back-office'
import { notFound } from '../../../domain/errors'
import { clientAddress, sendToken } from '../../auth/transport'
import { assertHuman } from '../../providers/captcha'
import { CLIENT_BLOCKED, clientView, findClient, setStatus } from '../../services/identity/clients'
import { assertCode, checkCode } from '../../services/identity/codes'
import { isTrusted, trustDevice } from '../../services/identity/devices'
import { listOutbox as outboxPage } from '../../services/identity/outbox'
import {
  assertMfaPending,
  completeSecondFactor,
  openSession,
  revokeAllSessions,
  sessionEnded,
} from '../../services/identity/sessions'
import { issueSingleLink as issueLink } from '../../services/identity/single-link'
import { authenticateUser, findUser, userAccount, userView } from '../../services/identity/users'
import { sandboxDeployment } from '../../services/sandbox/mode'
import { deliverCode, requesterOf, tryDeliverCode } from '../code-delivery'
import type { AppEnv } from '../context'
import { ok, okPage } from '../envelope'
import { db, deps } from '../request'
import { type AnyRoute, implement } from '../route'
import { answerLogout, answerRefresh } from '../session-answers'

/** The user of a session whose second factor is pending. */
async function pendingUser(c: Context<AppEnv>) {
  const { sessionId, id } = c.get('principal')
  await assertMfaPending(db(c), sessionId)
  const row = await findUser(db(c), id)
  if (!row) throw sessionEnded()
  return row
}

export const backOfficeIdentityRoutes: AnyRoute[] = [
  implement(userLogin, async (c, { body }) => {
    const { captcha, secrets, logger, now } = deps(c)
    await assertHuman(captcha, body.captchaToken, 'user_login', clientAddress(c))
    const at = now()
    const requester = await requesterOf(c, body.deviceId)
    const { deviceHash } = requester
    // Wrong passwords lock the requester that typed them; a device the user trusts keeps its own budget.
    const row = await authenticateUser(db(c), body.email, body.password, requester, at)
    const trusted = await isTrusted(db(c), 'user', row.id, deviceHash)
    const opened = await openSession(
      db(c),
      secrets.jwtSecret,
      { type: 'user', id: row.id, mfaPending: !trusted, deviceHash },
      at,
    )
    sendToken(c, opened.token)
    if (trusted) {
      await trustDevice(db(c), 'user', row.id, deviceHash, at)
      logger.info({ userId: row.id, event: 'user.login' }, 'back-office user logged in')
      return ok(c, { mfa: false, user: userView(row) })
    }
    const sent = await tryDeliverCode(
      c,
      { purpose: 'login_mfa', channel: 'email', target: row.email, owner: userAccount(row.id) },
      { deviceId: body.deviceId },
    )
    logger.info({ userId: row.id, event: 'user.login_mfa' }, 'back-office login from a new device')
    return ok(c, { mfa: true, user: null, nextCodeAt: sent.nextCodeAt?.toISOString() ?? null })
  }),

  implement(completeUserLogin, async (c, { body }) => {
    const { secrets, logger, now } = deps(c)
    const row = await pendingUser(c)
    assertCode(
      await checkCode(db(c), secrets.codeKey, 'login_mfa', row.email, body.code, now(), userAccount(row.id)),
    )
    const { token } = await completeSecondFactor(
      db(c),
      secrets.jwtSecret,
      { type: 'user', id: row.id, sessionId: c.get('principal').sessionId },
      now(),
    )
    sendToken(c, token)
    logger.info({ userId: row.id, event: 'user.login' }, 'back-office user logged in after a second factor')
    return ok(c, { mfa: false, user: userView(row) })
  }),

  implement(resendUserLoginCode, async (c) => {
    const row = await pendingUser(c)
    const sent = await deliverCode(c, {
      purpose: 'login_mfa',
      channel: 'email',
      target: row.email,
      owner: userAccount(row.id),
    })
    return ok(c, { sent: true, nextCodeAt: sent.nextCodeAt.toISOString() })
  }),

  implement(getBackOfficeUser, async (c, { params }) => {
    // 404, not 403: whether another user id exists is none of the caller's business.
    if (params.id !== c.get('principal').id) throw notFound('User')
    const row = await findUser(db(c), params.id)
    if (!row) throw notFound('User')
    return ok(c, userView(row))
  }),

  implement(refreshUserToken, answerRefresh),

  implement(userLogout, answerLogout),

  implement(listOutbox, async (c, { query }) => {
    const { page, perPage } = query
    const { items, total } = await outboxPage(db(c), {
      recipient: query.recipient || undefined,
      page,
      perPage,
    })
    return okPage(c, items, { page, perPage, total })
  }),

  implement(setClientStatus, async (c, { params, body }) => {
    const { logger, now } = deps(c)
    const row = await setStatus(db(c), params.id, body.status, now())
    if (!row) throw notFound('Client')
    if (body.status === CLIENT_BLOCKED) await revokeAllSessions(db(c), 'client', row.id, 'blocked')
    logger.info(
      {
        clientId: row.id,
        userId: c.get('principal').id,
        status: body.status,
        event: 'client.status_changed',
      },
      'client status changed by the back office',
    )
    return ok(c, await clientView(db(c), row, sandboxDeployment(deps(c))))
  }),

  implement(issueSingleLink, async (c, { params }) => {
    const { logger, now } = deps(c)
    const row = await findClient(db(c), params.id)
    if (!row) throw notFound('Client')
    const link = await issueLink(db(c), row.id, c.get('principal').id, now())
    logger.info(
      { clientId: row.id, userId: c.get('principal').id, event: 'client.single_link_issued' },
      'single-link token issued',
    )
    return ok(c, { leadId: link.leadId, path: link.path, expiresAt: link.expiresAt.toISOString() }, 201)
  }),
]
