/**
 * Managing back-office users (issue 19 item 1, docs/decisions/0031-back-office-roles.md): invite by e-mail with
 * roles, accept the invitation (choose a password), change roles, disable. Each change is one transaction with its
 * audit entry. The invitation is a one-time token of which only the hash is stored, like a single link; the first
 * login after it comes from a device the user never confirmed, so it asks for the e-mailed code (the second factor
 * every back-office login has on a new device).
 */
import { createHash, randomBytes } from 'node:crypto'
import { and, count, desc, eq, gt, ne, sql } from 'drizzle-orm'
import type { Role } from '../../../domain/back-office/roles'
import type { StaffUser } from '../../../domain/contract/staff'
import { DomainError } from '../../../domain/errors'
import { hashPassword } from '../../auth/passwords'
import type { Db, DbOrTx } from '../../db/client'
import { backOfficeUser } from '../../db/schema-identity'
import type { MessagingProvider } from '../../providers/messaging'
import { recordChange } from '../audit/audit'
import { revokeAllSessions } from './sessions'
import type { UserRow } from './users'

export const INVITATION_TTL_HOURS = 72

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

export const staffView = (row: UserRow): StaffUser => ({
  id: row.id,
  email: row.email,
  name: row.name,
  roles: row.roles,
  active: row.active,
  invited: row.passwordHash === null,
  inviteExpiresAt: row.passwordHash === null ? (row.inviteExpiresAt?.toISOString() ?? null) : null,
  createdAt: row.createdAt.toISOString(),
})

/** What the audit trail keeps of a user: never the password's or the invitation's hash. */
const audited = (row: UserRow) => ({ name: row.name, email: row.email, roles: row.roles, active: row.active })

export async function listStaff(db: DbOrTx, page: number, perPage: number) {
  const [total] = await db.select({ n: count() }).from(backOfficeUser)
  const rows = await db
    .select()
    .from(backOfficeUser)
    .orderBy(desc(backOfficeUser.createdAt), desc(backOfficeUser.id))
    .limit(perPage)
    .offset((page - 1) * perPage)
  return { items: rows.map(staffView), total: total?.n ?? 0 }
}

const newInvitation = (now: Date) => {
  const token = randomBytes(32).toString('base64url')
  return {
    token,
    inviteTokenHash: hashToken(token),
    inviteExpiresAt: new Date(now.getTime() + INVITATION_TTL_HOURS * 3600_000),
  }
}

/** The e-mail with the invitation link, through the outbox (sent after the transaction: never I/O inside it). */
async function sendInvitation(db: Db, messaging: MessagingProvider, email: string, token: string) {
  await messaging.send(db, {
    channel: 'email',
    recipient: email,
    subject: 'You are invited to the Hiram back office',
    body: `You have been given access to the Hiram back office. Choose your password within ${INVITATION_TTL_HOURS} hours: /admin-invitation?token=${token} . Your first login will ask for a code we e-mail you.`,
    purpose: 'staff_invitation',
  })
}

export interface Invite {
  email: string
  name: string
  roles: Role[]
}

export async function inviteStaff(
  db: Db,
  messaging: MessagingProvider,
  invite: Invite,
  invitedBy: number,
  now: Date,
): Promise<StaffUser> {
  const email = invite.email.trim().toLowerCase()
  const { token, ...invitation } = newInvitation(now)
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(backOfficeUser)
      .values({ email, name: invite.name, roles: invite.roles, passwordHash: null, invitedBy, ...invitation })
      .onConflictDoNothing()
      .returning()
    if (!created)
      throw new DomainError('conflict', 'userExists', 'A user with this e-mail exists.', [
        { propertyPath: 'email', message: 'A user with this e-mail exists.' },
      ])
    await recordChange(tx, { entity: 'back_office_user', entityId: created.id, after: audited(created) })
    return created
  })
  await sendInvitation(db, messaging, email, token)
  return staffView(row)
}

export async function resendStaffInvitation(
  db: Db,
  messaging: MessagingProvider,
  id: number,
  now: Date,
): Promise<StaffUser> {
  const { token, ...invitation } = newInvitation(now)
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(backOfficeUser)
      .set(invitation)
      .where(and(eq(backOfficeUser.id, id), sql`${backOfficeUser.passwordHash} is null`))
      .returning()
    if (!updated) {
      const [exists] = await tx
        .select({ id: backOfficeUser.id })
        .from(backOfficeUser)
        .where(eq(backOfficeUser.id, id))
      if (!exists) throw new DomainError('notFound', 'notFound', 'No such user.')
      throw new DomainError(
        'conflict',
        'invitationAccepted',
        'This user has accepted the invitation already.',
      )
    }
    await recordChange(tx, {
      entity: 'back_office_user',
      entityId: id,
      after: { ...audited(updated), invitationResent: true },
    })
    return updated
  })
  await sendInvitation(db, messaging, row.email, token)
  return staffView(row)
}

export interface StaffChange {
  name?: string
  roles?: Role[]
  active?: boolean
}

/**
 * Changes a user. The last active administrator can neither lose the role nor be disabled (nobody could manage
 * users after), and nobody disables themselves. Disabling ends the user's sessions in the same transaction.
 */
export async function updateStaff(db: Db, id: number, change: StaffChange, by: number): Promise<StaffUser> {
  return db.transaction(async (tx) => {
    // Serialises changes to who is an administrator, so two requests cannot each remove "the other" last one.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('back-office-administrators'))`)
    const [before] = await tx.select().from(backOfficeUser).where(eq(backOfficeUser.id, id)).for('update')
    if (!before) throw new DomainError('notFound', 'notFound', 'No such user.')
    if (id === by && change.active === false)
      throw new DomainError('conflict', 'cannotDisableSelf', 'You cannot disable your own account.', [
        { propertyPath: 'active', message: 'You cannot disable your own account.' },
      ])
    const roles = change.roles ?? before.roles
    const active = change.active ?? before.active
    const stopsAdministrating =
      before.roles.includes('administrator') && before.active && (!roles.includes('administrator') || !active)
    if (stopsAdministrating) {
      const [others] = await tx
        .select({ n: count() })
        .from(backOfficeUser)
        .where(
          and(
            ne(backOfficeUser.id, id),
            eq(backOfficeUser.active, true),
            sql`'administrator' = any(${backOfficeUser.roles})`,
            sql`${backOfficeUser.passwordHash} is not null`,
          ),
        )
      if ((others?.n ?? 0) === 0)
        throw new DomainError(
          'conflict',
          'lastAdministrator',
          'The last active administrator must stay one.',
          [
            {
              propertyPath: change.active === false ? 'active' : 'roles',
              message: 'The last active administrator must stay one.',
            },
          ],
        )
    }
    const [after] = await tx
      .update(backOfficeUser)
      .set({ name: change.name ?? before.name, roles, active })
      .where(eq(backOfficeUser.id, id))
      .returning()
    if (!active && before.active) await revokeAllSessions(tx, 'user', id, 'disabled')
    // Fewer rights take effect on the next call anyway (roles are read on every call); a changed role list ends
    // the sessions too, so an open admin screen reloads with what the user may now do.
    else if (change.roles && roles.join() !== before.roles.join())
      await revokeAllSessions(tx, 'user', id, 'roles_changed')
    await recordChange(tx, {
      entity: 'back_office_user',
      entityId: id,
      before: audited(before),
      after: audited(after!),
    })
    return staffView(after!)
  })
}

const invitationInvalid = () =>
  new DomainError(
    'notFound',
    'invitationInvalid',
    'This invitation link is no longer valid. Ask an administrator for a new one.',
  )

/** Accepts an invitation: sets the password once; the token dies with it. */
export async function acceptStaffInvitation(db: Db, token: string, password: string, now: Date) {
  const passwordHash = await hashPassword(password)
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(backOfficeUser)
      .set({ passwordHash, inviteTokenHash: null, inviteExpiresAt: null })
      .where(
        and(
          eq(backOfficeUser.inviteTokenHash, hashToken(token)),
          gt(backOfficeUser.inviteExpiresAt, now),
          eq(backOfficeUser.active, true),
          sql`${backOfficeUser.passwordHash} is null`,
        ),
      )
      .returning()
    if (!row) throw invitationInvalid()
    return { email: row.email }
  })
}
