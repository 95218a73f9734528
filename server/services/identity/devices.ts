/**
 * Devices an account has confirmed. The id is whatever the app keeps (a random UUID in local storage); only its
 * sha256 is stored, so the table holds no identifier a third party could reuse elsewhere.
 */
import { createHash } from 'node:crypto'
import { and, count, eq } from 'drizzle-orm'
import type { SubjectType } from '../../auth/tokens'
import type { DbOrTx } from '../../db/client'
import { trustedDevice } from '../../db/schema-identity'

export const hashDevice = (deviceId: string | undefined) =>
  deviceId ? createHash('sha256').update(`hiram-device\u0000${deviceId}`).digest('base64url') : null

export async function isTrusted(db: DbOrTx, type: SubjectType, id: number, deviceHash: string | null) {
  if (!deviceHash) return false
  const [row] = await db
    .select({ id: trustedDevice.id })
    .from(trustedDevice)
    .where(
      and(
        eq(trustedDevice.subjectType, type),
        eq(trustedDevice.subjectId, id),
        eq(trustedDevice.deviceHash, deviceHash),
      ),
    )
  return Boolean(row)
}

/**
 * Whether the device is one the account named `client:12` / `user:3` has trusted before: the test that sets a
 * requester's limits apart from a stranger's (docs/decisions/0006). Anything else (no account, no device) is not.
 */
export async function isKnownTo(db: DbOrTx, account: string, deviceHash: string | null) {
  const match = /^(client|user):(\d+)$/.exec(account)
  if (!match || !deviceHash) return false
  return isTrusted(db, match[1] as SubjectType, Number(match[2]), deviceHash)
}

export async function trustedCount(db: DbOrTx, type: SubjectType, id: number) {
  const [row] = await db
    .select({ n: count() })
    .from(trustedDevice)
    .where(and(eq(trustedDevice.subjectType, type), eq(trustedDevice.subjectId, id)))
  return row?.n ?? 0
}

export async function trustDevice(
  db: DbOrTx,
  type: SubjectType,
  id: number,
  deviceHash: string | null,
  now: Date,
) {
  if (!deviceHash) return
  await db
    .insert(trustedDevice)
    .values({ subjectType: type, subjectId: id, deviceHash, createdAt: now, lastSeenAt: now })
    .onConflictDoUpdate({
      target: [trustedDevice.subjectType, trustedDevice.subjectId, trustedDevice.deviceHash],
      set: { lastSeenAt: now },
    })
}
