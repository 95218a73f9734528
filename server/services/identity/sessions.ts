/**
 * Sessions: a row per login; tokens are short-lived pointers to it. Refresh issues a new token for the same
 * session and slides its expiry, never beyond an absolute limit.
 */
import { and, eq, isNull, ne, sql } from 'drizzle-orm'
import { DomainError } from '../../../domain/errors'
import { type SubjectType, signToken, TOKEN_TTL_SECONDS } from '../../auth/tokens'
import type { DbOrTx } from '../../db/client'
import { session } from '../../db/schema-identity'
import { trustDevice } from './devices'

/** A session lives at most this long after login, however often it is refreshed. */
export const SESSION_ABSOLUTE_HOURS = 12

/** A single-link session (my loan only) is a short visit. */
export const SINGLE_LINK_SESSION_HOURS = 2

export interface OpenSession {
  type: SubjectType
  id: number
  mfaPending?: boolean
  singleLink?: boolean
  /** The device the login came from; completing the second factor trusts it. */
  deviceHash?: string | null
}

export async function openSession(db: DbOrTx, secret: Uint8Array, input: OpenSession, now: Date) {
  const hours = input.singleLink ? SINGLE_LINK_SESSION_HOURS : SESSION_ABSOLUTE_HOURS
  const expiresAt = new Date(now.getTime() + hours * 3600_000)
  const [row] = await db
    .insert(session)
    .values({
      subjectType: input.type,
      subjectId: input.id,
      mfaPending: input.mfaPending ?? false,
      singleLink: input.singleLink ?? false,
      deviceHash: input.deviceHash ?? null,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
    })
    .returning({ id: session.id })
  const token = await signToken(
    secret,
    {
      sid: row!.id,
      sub: String(input.id),
      type: input.type,
      mfa: input.mfaPending ?? false,
      sl: input.singleLink ?? false,
    },
    now,
  )
  return { sessionId: row!.id, token, expiresIn: TOKEN_TTL_SECONDS }
}

/** The session was revoked (a logout, a password change, blocking) or its subject is gone: log in again. */
export const sessionEnded = () => new DomainError('unauthenticated', 'unauthorized', 'The session has ended.')

const mfaNotPending = () =>
  new DomainError('conflict', 'mfaNotPending', 'This session does not need a second factor.')

/** A new token for the same session; a revoked session is refused (sessionEnded). */
export async function refreshSession(db: DbOrTx, secret: Uint8Array, sessionId: string, now: Date) {
  const [row] = await db
    .update(session)
    .set({ lastSeenAt: now })
    .where(and(eq(session.id, sessionId), isNull(session.revokedAt)))
    .returning()
  if (!row) throw sessionEnded()
  const token = await signToken(
    secret,
    {
      sid: row.id,
      sub: String(row.subjectId),
      type: row.subjectType as SubjectType,
      mfa: row.mfaPending,
      sl: row.singleLink,
    },
    now,
  )
  return { token, expiresIn: TOKEN_TTL_SECONDS }
}

/** The second factor passed: the same session, now a full login. Returns the device to trust, if any. */
export async function completeMfa(db: DbOrTx, sessionId: string) {
  const [row] = await db
    .update(session)
    .set({ mfaPending: false })
    .where(and(eq(session.id, sessionId), eq(session.mfaPending, true), isNull(session.revokedAt)))
    .returning({ deviceHash: session.deviceHash })
  return row ?? null
}

/** Refuses (mfaNotPending) a second-factor call from a session that needs none. */
export async function assertMfaPending(db: DbOrTx, sessionId: string) {
  const [row] = await db
    .select({ mfaPending: session.mfaPending })
    .from(session)
    .where(eq(session.id, sessionId))
  if (!row?.mfaPending) throw mfaNotPending()
}

/**
 * The second factor passed (its code was checked): the same session becomes a full login, the device it was
 * opened from is trusted, and a token without `mfa` goes out.
 */
export async function completeSecondFactor(
  db: DbOrTx,
  secret: Uint8Array,
  subject: { type: SubjectType; id: number; sessionId: string },
  now: Date,
) {
  const done = await completeMfa(db, subject.sessionId)
  if (!done) throw mfaNotPending()
  await trustDevice(db, subject.type, subject.id, done.deviceHash, now)
  return refreshSession(db, secret, subject.sessionId, now)
}

/** The device a session was opened from (sha256 of its id), null when the login sent none. */
export async function sessionDevice(db: DbOrTx, sessionId: string) {
  const [row] = await db
    .select({ deviceHash: session.deviceHash })
    .from(session)
    .where(eq(session.id, sessionId))
  return row?.deviceHash ?? null
}

export async function revokeSession(db: DbOrTx, sessionId: string, reason: string) {
  await db
    .update(session)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(session.id, sessionId), isNull(session.revokedAt)))
}

/** Ends every open session of a subject (password change, blocking), optionally keeping the current one. */
export async function revokeAllSessions(
  db: DbOrTx,
  type: SubjectType,
  id: number,
  reason: string,
  keep?: string,
) {
  await db
    .update(session)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(
      and(
        eq(session.subjectType, type),
        eq(session.subjectId, id),
        isNull(session.revokedAt),
        keep ? ne(session.id, keep) : undefined,
      ),
    )
}
