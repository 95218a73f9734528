/**
 * The back office's own account and identity calls: user login (an e-mail code on a device not confirmed
 * before), the user's own record, token refresh, logout, the message outbox, blocking clients and issuing
 * single-link tokens. The pricing and configuration calls are in lending-config.ts, the review queue and the
 * application decision with the lending contracts.
 */
import * as v from 'valibot'
import { codeBodySchema, userLoginSchema } from '../identity'
import { idString } from '../ids'
import { clientStatus } from '../journey/routing'
import { safeString } from '../safe-text'
import { defineContract } from './define'
import { loggedOutSchema, tokenRefreshedSchema } from './identity'
import { clientViewSchema } from './identity-answers'
import { pagingQuery } from './reference'

/** A back-office user as the app reads it (the session's user). */
export const backOfficeUserSchema = v.object({
  id: v.number(),
  email: v.string(),
  name: v.string(),
  roles: v.array(v.string()),
  active: v.boolean(),
})
export type BackOfficeUser = v.InferOutput<typeof backOfficeUserSchema>

/** A message sent through the SMS or e-mail provider, as the outbox lists it. */
export const outboxMessageSchema = v.object({
  id: v.number(),
  /** `sms` or `email`. */
  channel: v.string(),
  recipient: v.string(),
  subject: v.nullable(v.string()),
  body: v.string(),
  purpose: v.string(),
  provider: v.string(),
  status: v.string(),
  createdAt: v.string(),
})
export type OutboxMessage = v.InferOutput<typeof outboxMessageSchema>

const idParams = v.object({ id: idString() })

export const userLogin = defineContract({
  method: 'post',
  path: '/public/user/login',
  summary: 'Back-office login; from a device not confirmed before it answers mfa: true and e-mails a code',
  tags: ['back-office'],
  access: 'public',
  body: userLoginSchema,
  response: v.variant('mfa', [
    v.object({ mfa: v.literal(false), user: backOfficeUserSchema }),
    v.object({ mfa: v.literal(true), user: v.null(), nextCodeAt: v.nullable(v.string()) }),
  ]),
})

export const completeUserLogin = defineContract({
  method: 'post',
  path: '/public/user/login/mfa',
  summary: 'Complete a back-office login with the e-mailed code; trusts the device the login came from',
  tags: ['back-office'],
  access: 'user',
  permission: 'session',
  mfaPending: true,
  body: codeBodySchema,
  response: v.object({ mfa: v.literal(false), user: backOfficeUserSchema }),
})

export const resendUserLoginCode = defineContract({
  method: 'post',
  path: '/public/user/login/mfa/email-code',
  summary: 'Send a new e-mail code for a pending back-office login',
  tags: ['back-office'],
  access: 'user',
  permission: 'session',
  mfaPending: true,
  response: v.object({ sent: v.literal(true), nextCodeAt: v.string() }),
})

export const getBackOfficeUser = defineContract({
  method: 'get',
  path: '/private/back-office/user/:id',
  summary: 'A back-office user; each user may read their own record only',
  tags: ['back-office'],
  access: 'user',
  permission: 'session',
  params: idParams,
  response: backOfficeUserSchema,
})

export const refreshUserToken = defineContract({
  method: 'get',
  path: '/private/back-office/token/refresh',
  summary: 'A new back-office token for the same session',
  tags: ['back-office'],
  access: 'user',
  permission: 'session',
  response: tokenRefreshedSchema,
})

export const userLogout = defineContract({
  method: 'post',
  path: '/private/back-office/logout',
  summary: 'End the back-office session on the server',
  tags: ['back-office'],
  access: 'user',
  permission: 'session',
  mfaPending: true,
  response: loggedOutSchema,
})

const outbox = defineContract({
  method: 'get',
  path: '/private/back-office/outbox',
  summary: 'Messages sent through the SMS and e-mail providers, newest first (x-* pagination headers)',
  tags: ['back-office'],
  access: 'user',
  permission: 'outbox.read',
  paginated: true,
  query: v.object({
    recipient: v.optional(v.pipe(safeString(), v.trim(), v.toLowerCase(), v.maxLength(254))),
    ...pagingQuery(50, 200),
  }),
  response: v.array(outboxMessageSchema),
})
/**
 * The outbox, a page at a time. `defineContract` does not keep `paginated: true` as a literal type, which the
 * caller's answer type (a Page) is chosen by; the intersection restores it.
 */
export const listOutbox = outbox as typeof outbox & { paginated: true }

export const setClientStatus = defineContract({
  method: 'put',
  path: '/private/back-office/client/:id/status',
  summary: 'Block (status 2) or unblock (status 1) a client; blocking ends every session of the client',
  tags: ['back-office'],
  access: 'user',
  permission: 'clients.status',
  params: idParams,
  body: v.object({
    status: v.picklist([clientStatus.active, clientStatus.blocked], 'Must be 1 (active) or 2 (blocked).'),
  }),
  response: clientViewSchema,
})

export const issueSingleLink = defineContract({
  method: 'post',
  path: '/private/back-office/client/:id/single-link',
  summary: 'Issue a one-time single-link (my-loan only) login token for a client; 72 hours, single use',
  tags: ['back-office'],
  access: 'user',
  permission: 'clients.single-link',
  params: idParams,
  /** 201; `path` is the link to send the client (`/affiliate/sleeper-otp?lead_id=...`). */
  response: v.object({ leadId: v.string(), path: v.string(), expiresAt: v.string() }),
})
