/**
 * Back-office users: the first one is seeded on an empty database from ADMIN_EMAIL / ADMIN_PASSWORD (with local
 * defaults), and they log in with an e-mail and a password, plus an e-mail code on a device not seen before.
 */
import { count, eq } from 'drizzle-orm'
import type { BackOfficeUser } from '../../../domain/contract/back-office'
import { DomainError } from '../../../domain/errors'
import { hashPassword } from '../../auth/passwords'
import type { Db, DbOrTx } from '../../db/client'
import { backOfficeUser } from '../../db/schema-identity'
import { checkPasswordThrottled, type Requester } from './login'

export type UserRow = typeof backOfficeUser.$inferSelect

/** Local-use defaults, printed by `npm start`; production sets ADMIN_EMAIL and ADMIN_PASSWORD. */
export const DEFAULT_ADMIN_EMAIL = 'admin@hiram.local'
export const DEFAULT_ADMIN_PASSWORD = 'HiramAdmin2026'

export const userAccount = (id: number) => `user:${id}`

export interface SeedUser {
  email: string
  password: string
  name?: string
}

/** Creates the first user when there is none; returns whether it did. Safe to run from several processes. */
export async function seedFirstUser(db: Db, user: SeedUser): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(backOfficeUser)
  if ((existing?.n ?? 0) > 0) return false
  const passwordHash = await hashPassword(user.password)
  const inserted = await db
    .insert(backOfficeUser)
    .values({
      email: user.email.trim().toLowerCase(),
      name: user.name ?? 'Administrator',
      passwordHash,
      roles: ['administrator'],
    })
    .onConflictDoNothing()
    .returning({ id: backOfficeUser.id })
  return inserted.length > 0
}

export async function findUser(db: DbOrTx, id: number) {
  const [row] = await db.select().from(backOfficeUser).where(eq(backOfficeUser.id, id))
  return row ?? null
}

export async function authenticateUser(
  db: Db,
  email: string,
  password: string,
  requester: Requester,
  now: Date,
) {
  const normalized = email.trim().toLowerCase()
  const [row] = await db.select().from(backOfficeUser).where(eq(backOfficeUser.email, normalized))
  const check = await checkPasswordThrottled(
    db,
    {
      account: row ? userAccount(row.id) : `user-login:${normalized}`,
      requester,
      passwordHash: row?.passwordHash ?? null,
      password,
    },
    now,
  )
  if (!row || !check.ok) {
    throw new DomainError('unauthenticated', 'invalidCredentials', 'The e-mail or password is not correct.', [
      { propertyPath: 'password', message: 'error-invalid-credentials' },
    ])
  }
  if (!row.active) throw new DomainError('forbidden', 'accountDisabled', 'The account is disabled.')
  return row
}

/** The user as the app reads it (the session's user). */
export const userView = (row: UserRow): BackOfficeUser => ({
  id: row.id,
  email: row.email,
  name: row.name,
  roles: row.roles,
  active: row.active,
})
