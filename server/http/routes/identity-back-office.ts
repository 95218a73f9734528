/**
 * Back-office identity: user login (an e-mail code on a device not confirmed before), the user's own record,
 * token refresh, logout, the message outbox, blocking clients and issuing single-link tokens.
 */
import * as v from 'valibot'
import { DomainError, notFound } from '../../../domain/errors'
import { codeBodySchema, userLoginSchema } from '../../../domain/identity'
import { idString } from '../../../domain/ids'
import { safeString } from '../../../domain/safe-text'
import { clearToken, clientAddress, sendToken } from '../../auth/transport'
import { assertHuman } from '../../providers/captcha'
import {
  CLIENT_ACTIVE,
  CLIENT_BLOCKED,
  clientView,
  findClient,
  setStatus,
} from '../../services/identity/clients'
import { assertCode, checkCode } from '../../services/identity/codes'
import { isTrusted, trustDevice } from '../../services/identity/devices'
import { listOutbox } from '../../services/identity/outbox'
import {
  completeMfa,
  isMfaPending,
  openSession,
  refreshSession,
  revokeAllSessions,
  revokeSession,
} from '../../services/identity/sessions'
import { issueSingleLink } from '../../services/identity/single-link'
import { authenticateUser, findUser, userAccount, userView } from '../../services/identity/users'
import { deliverCode, requesterOf, tryDeliverCode, withRetryAfter } from '../code-delivery'
import { ok, okPage } from '../envelope'
import { pageNumber } from '../params'
import { db, deps } from '../request'
import { type AnyRoute, defineRoute } from '../route'
import { refreshToken } from './identity'

const idParam = v.object({
  id: idString(),
})

const userSchema = v.object({
  id: v.number(),
  email: v.string(),
  name: v.string(),
  roles: v.array(v.string()),
  active: v.boolean(),
})

const notPending = () =>
  new DomainError('conflict', 'mfaNotPending', 'This session does not need a second factor.')

export const backOfficeIdentityRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/public/user/login',
    summary: 'Back-office login; from a device not confirmed before it answers mfa: true and e-mails a code',
    tags: ['back-office'],
    access: 'public',
    body: userLoginSchema,
    handler: async (c, { body }) => {
      const { captcha, secrets, logger, now } = deps(c)
      await assertHuman(captcha, body.captchaToken, 'user_login', clientAddress(c))
      const at = now()
      const requester = await requesterOf(c, body.deviceId)
      const { deviceHash } = requester
      // Wrong passwords lock the requester that typed them; a device the user trusts keeps its own budget.
      const row = await withRetryAfter(c, () =>
        authenticateUser(db(c), body.email, body.password, requester, at),
      )
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
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/user/login/mfa',
    summary: 'Complete a back-office login with the e-mailed code; trusts the device the login came from',
    tags: ['back-office'],
    access: 'user',
    mfaPending: true,
    body: codeBodySchema,
    handler: async (c, { body }) => {
      const { secrets, logger, now } = deps(c)
      const { sessionId, id } = c.get('principal')
      if (!(await isMfaPending(db(c), sessionId))) throw notPending()
      const row = await findUser(db(c), id)
      if (!row) throw new DomainError('unauthenticated', 'unauthorized', 'The session has ended.')
      assertCode(
        await checkCode(
          db(c),
          secrets.codeKey,
          'login_mfa',
          row.email,
          body.code,
          now(),
          userAccount(row.id),
        ),
      )
      const done = await completeMfa(db(c), sessionId)
      if (!done) throw notPending()
      await trustDevice(db(c), 'user', row.id, done.deviceHash, now())
      const refreshed = await refreshSession(db(c), secrets.jwtSecret, sessionId, now())
      if (!refreshed) throw new DomainError('unauthenticated', 'unauthorized', 'The session has ended.')
      sendToken(c, refreshed.token)
      logger.info({ userId: row.id, event: 'user.login' }, 'back-office user logged in after a second factor')
      return ok(c, { mfa: false, user: userView(row) })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/user/login/mfa/email-code',
    summary: 'Send a new e-mail code for a pending back-office login',
    tags: ['back-office'],
    access: 'user',
    mfaPending: true,
    handler: async (c) => {
      const { sessionId, id } = c.get('principal')
      if (!(await isMfaPending(db(c), sessionId))) throw notPending()
      const row = await findUser(db(c), id)
      if (!row) throw new DomainError('unauthenticated', 'unauthorized', 'The session has ended.')
      const sent = await deliverCode(c, {
        purpose: 'login_mfa',
        channel: 'email',
        target: row.email,
        owner: userAccount(row.id),
      })
      return ok(c, { sent: true, nextCodeAt: sent.nextCodeAt.toISOString() })
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/back-office/user/:id',
    summary: 'A back-office user; each user may read their own record only',
    tags: ['back-office'],
    access: 'user',
    params: idParam,
    response: userSchema,
    handler: async (c, { params }) => {
      // 404, not 403: whether another user id exists is none of the caller's business.
      if (params.id !== c.get('principal').id) throw notFound('User')
      const row = await findUser(db(c), params.id)
      if (!row) throw notFound('User')
      return ok(c, userView(row))
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/back-office/token/refresh',
    summary: 'A new back-office token for the same session',
    tags: ['back-office'],
    access: 'user',
    handler: refreshToken,
  }),

  defineRoute({
    method: 'post',
    path: '/private/back-office/logout',
    summary: 'End the back-office session on the server',
    tags: ['back-office'],
    access: 'user',
    mfaPending: true,
    handler: async (c) => {
      await revokeSession(db(c), c.get('principal').sessionId, 'logout')
      clearToken(c)
      return ok(c, { loggedOut: true })
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/back-office/outbox',
    summary: 'Messages sent through the SMS and e-mail providers, newest first (x-* pagination headers)',
    tags: ['back-office'],
    access: 'user',
    paginated: true,
    query: v.object({
      recipient: v.optional(v.pipe(safeString(), v.trim(), v.toLowerCase(), v.maxLength(254))),
      page: pageNumber('1', 1_000_000),
      perPage: pageNumber('50', 200),
    }),
    handler: async (c, { query }) => {
      const { items, total } = await listOutbox(db(c), {
        recipient: query.recipient || undefined,
        page: query.page,
        perPage: query.perPage,
      })
      const data = items.map((m) => ({
        id: m.id,
        channel: m.channel,
        recipient: m.recipient,
        subject: m.subject,
        body: m.body,
        purpose: m.purpose,
        provider: m.provider,
        status: m.status,
        createdAt: m.createdAt.toISOString(),
      }))
      return okPage(c, data, { page: query.page, perPage: query.perPage, total })
    },
  }),

  defineRoute({
    method: 'put',
    path: '/private/back-office/client/:id/status',
    summary: 'Block (status 2) or unblock (status 1) a client; blocking ends every session of the client',
    tags: ['back-office'],
    access: 'user',
    params: idParam,
    body: v.object({
      status: v.picklist([CLIENT_ACTIVE, CLIENT_BLOCKED], 'Must be 1 (active) or 2 (blocked).'),
    }),
    handler: async (c, { params, body }) => {
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
      return ok(c, await clientView(db(c), row))
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/back-office/client/:id/single-link',
    summary: 'Issue a one-time single-link (my-loan only) login token for a client; 72 hours, single use',
    tags: ['back-office'],
    access: 'user',
    params: idParam,
    response: v.object({ leadId: v.string(), path: v.string(), expiresAt: v.string() }),
    handler: async (c, { params }) => {
      const { logger, now } = deps(c)
      const row = await findClient(db(c), params.id)
      if (!row) throw notFound('Client')
      const link = await issueSingleLink(db(c), row.id, c.get('principal').id, now())
      logger.info(
        { clientId: row.id, userId: c.get('principal').id, event: 'client.single_link_issued' },
        'single-link token issued',
      )
      return ok(c, { leadId: link.leadId, path: link.path, expiresAt: link.expiresAt.toISOString() }, 201)
    },
  }),
]
