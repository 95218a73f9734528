/**
 * Back-office users and roles (issue 19 item 1, docs/decisions/0031-back-office-roles.md) and the audit trail
 * (item 2, docs/decisions/0032-audit-trail.md). An administrator invites a user by e-mail with their roles; the
 * invitation's one-time link lets them choose a password; their first login, from a device never seen, asks for
 * the e-mailed code like every new device. Users are disabled, never deleted: the audit trail names them.
 */
import * as v from 'valibot'
import { roleSchema } from '../back-office/roles'
import { emailSchema, passwordSchema } from '../identity'
import { idString } from '../ids'
import { calendarDaySchema, safeString } from '../safe-text'
import { defineContract } from './define'
import { pagingQuery } from './reference'

export const staffUserSchema = v.object({
  id: v.number(),
  email: v.string(),
  name: v.string(),
  roles: v.array(v.string()),
  active: v.boolean(),
  /** The invitation is not accepted yet: no password chosen. */
  invited: v.boolean(),
  inviteExpiresAt: v.nullable(v.string()),
  createdAt: v.string(),
})
export type StaffUser = v.InferOutput<typeof staffUserSchema>

const name = v.pipe(
  safeString(),
  v.trim(),
  v.nonEmpty('Required.'),
  v.maxLength(100, 'Must be at most 100 characters.'),
)
const roleList = v.pipe(
  v.array(roleSchema),
  v.minLength(1, 'Choose at least one role.'),
  v.maxLength(5),
  v.check((list) => new Set(list).size === list.length, 'A role is listed twice.'),
)

export const inviteUserSchema = v.object({ email: emailSchema, name, roles: roleList })
export const updateUserSchema = v.pipe(
  v.object({ name: v.optional(name), roles: v.optional(roleList), active: v.optional(v.boolean()) }),
  v.check(
    (body) => body.name !== undefined || body.roles !== undefined || body.active !== undefined,
    'Change the name, the roles or whether the user is active.',
  ),
)
export const acceptInvitationSchema = v.object({
  token: v.pipe(safeString(), v.regex(/^[\w-]{20,100}$/, 'This invitation link is not valid.')),
  password: passwordSchema,
})

const idParams = v.object({ id: idString() })

const users = defineContract({
  method: 'get',
  path: '/private/back-office/users',
  summary: 'Back-office users with their roles, newest first (x-* pagination headers)',
  tags: ['back-office', 'users'],
  access: 'user',
  permission: 'users.read',
  paginated: true,
  query: v.object(pagingQuery(50, 200)),
  response: v.array(staffUserSchema),
})
export const listUsers = users as typeof users & { paginated: true }

export const inviteUser = defineContract({
  method: 'post',
  path: '/private/back-office/users',
  summary:
    'Invite a back-office user by e-mail with their roles; the e-mail carries a one-time link (72 hours)',
  tags: ['back-office', 'users'],
  access: 'user',
  permission: 'users.manage',
  body: inviteUserSchema,
  response: staffUserSchema,
})

export const updateUser = defineContract({
  method: 'patch',
  path: '/private/back-office/users/:id',
  summary:
    "Change a user's name, roles or whether they may log in; disabling ends their sessions. The last active administrator stays one",
  tags: ['back-office', 'users'],
  access: 'user',
  permission: 'users.manage',
  params: idParams,
  body: updateUserSchema,
  response: staffUserSchema,
})

export const resendInvitation = defineContract({
  method: 'post',
  path: '/private/back-office/users/:id/invitation',
  summary: 'Send a new invitation link to a user who has not accepted theirs; the old link stops working',
  tags: ['back-office', 'users'],
  access: 'user',
  permission: 'users.manage',
  params: idParams,
  response: staffUserSchema,
})

export const acceptInvitation = defineContract({
  method: 'post',
  path: '/public/user/invitation',
  summary:
    'Accept a back-office invitation: choose the password. The first login then asks for the e-mailed code',
  tags: ['back-office', 'users'],
  access: 'public',
  body: acceptInvitationSchema,
  response: v.object({ email: v.string() }),
})

export const auditEntrySchema = v.object({
  id: v.number(),
  at: v.string(),
  userId: v.nullable(v.number()),
  deviceHash: v.nullable(v.string()),
  call: v.string(),
  permission: v.string(),
  outcome: v.picklist(['done', 'refused']),
  entity: v.nullable(v.string()),
  entityId: v.nullable(v.string()),
  clientId: v.nullable(v.number()),
  request: v.unknown(),
  before: v.unknown(),
  after: v.unknown(),
})
export type AuditEntry = v.InferOutput<typeof auditEntrySchema>

const optionalId = v.optional(idString())
const isoDate = v.optional(calendarDaySchema())

const audit = defineContract({
  method: 'get',
  path: '/private/back-office/audit',
  summary:
    'The audit trail, newest first: every back-office write and refused attempt, per client, per user, per entity and per Manila date range',
  tags: ['back-office', 'audit'],
  access: 'user',
  permission: 'audit.read',
  paginated: true,
  query: v.object({
    clientId: optionalId,
    userId: optionalId,
    entity: v.optional(v.pipe(safeString(), v.trim(), v.maxLength(60))),
    /** Manila calendar dates, inclusive. */
    from: isoDate,
    to: isoDate,
    ...pagingQuery(50, 200),
  }),
  response: v.array(auditEntrySchema),
})
export const listAudit = audit as typeof audit & { paginated: true }
