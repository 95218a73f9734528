/**
 * Back-office users of a given role for API tests: a row straight into the database and a session for it (these
 * tests are about what a role may do, not about logging in; tests/api/back-office-users.test.ts covers that).
 */
import type { Role } from '../../domain/back-office/roles'
import type { Database } from '../../server/db/client'
import { backOfficeUser } from '../../server/db/schema-identity'
import { openSession } from '../../server/services/identity/sessions'

let serial = 0

export interface Staff {
  id: number
  token: string
  email: string
}

/** A new active user holding `roles`, with an open session (no second factor pending). */
export async function staffMember(
  t: { database: Database; secrets: { jwtSecret: Uint8Array } },
  ...roles: Role[]
): Promise<Staff> {
  serial += 1
  const email = `${roles.join('-') || 'none'}-${process.pid}-${serial}@staff.hiram.local`
  const [row] = await t.database.db
    .insert(backOfficeUser)
    .values({ email, name: `Staff ${serial}`, passwordHash: null, roles })
    .returning({ id: backOfficeUser.id })
  const { token } = await openSession(
    t.database.db,
    t.secrets.jwtSecret,
    { type: 'user', id: row!.id },
    new Date(),
  )
  return { id: row!.id, token, email }
}
