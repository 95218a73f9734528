/**
 * Who is calling: the bearer token in the Authorization header (the only place the API reads it), checked
 * against its server-side session on every private call.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Context } from 'hono'
import { DomainError } from '../../domain/errors'
import { clientStatus } from '../../domain/journey/routing'
import { backOfficeUser, client, session } from '../db/schema-identity'
import type { AppEnv } from '../http/context'
import { type SubjectType, verifyToken } from './tokens'

export interface Principal {
  sessionId: string
  type: SubjectType
  id: number
  singleLink: boolean
}

export const CLIENT_BLOCKED = clientStatus.blocked

const unauthorized = (message = 'Authentication required.') =>
  new DomainError('unauthenticated', 'unauthorized', message)
const forbidden = (message: string) => new DomainError('forbidden', 'forbidden', message)

export interface AccessRule {
  access: 'client' | 'user'
  /** Reachable by a single-link (my-loan only) session. */
  singleLink?: boolean
  /** Reachable while the second factor is still pending (the call that completes it). */
  mfaPending?: boolean
}

export async function authenticate(c: Context<AppEnv>, rule: AccessRule): Promise<Principal> {
  const header = c.req.header('authorization') ?? ''
  const match = /^Bearer\s+([\w-]+\.[\w-]+\.[\w-]*)$/i.exec(header)
  if (!match) throw unauthorized()
  const { secrets, database, now } = c.get('deps')
  const verified = await verifyToken(secrets.jwtSecret, match[1]!, now())
  if (!verified.ok)
    throw unauthorized(verified.reason === 'expired' ? 'The session has expired.' : 'Invalid token.')
  const { claims } = verified
  if (claims.type !== rule.access) throw forbidden('This token cannot be used here.')

  const db = database.db
  const [row] = await db
    .select({
      id: session.id,
      subjectId: session.subjectId,
      mfaPending: session.mfaPending,
      singleLink: session.singleLink,
    })
    .from(session)
    .where(
      and(
        eq(session.id, claims.sid),
        eq(session.subjectType, claims.type),
        isNull(session.revokedAt),
        gt(session.expiresAt, sql`now()`),
      ),
    )
  if (!row || String(row.subjectId) !== claims.sub) throw unauthorized('The session has ended.')
  if (row.mfaPending && !rule.mfaPending) throw unauthorized('A second factor is required.')
  if (row.singleLink && !rule.singleLink) throw forbidden('This session can only see the active loan.')

  if (claims.type === 'client') {
    const [owner] = await db
      .select({ status: client.status })
      .from(client)
      .where(eq(client.id, row.subjectId))
    if (!owner) throw unauthorized('The session has ended.')
    if (owner.status === CLIENT_BLOCKED) throw forbidden('The account is blocked.')
  } else {
    const [user] = await db
      .select({ active: backOfficeUser.active })
      .from(backOfficeUser)
      .where(eq(backOfficeUser.id, row.subjectId))
    if (!user) throw unauthorized('The session has ended.')
    if (!user.active) throw forbidden('The account is disabled.')
  }
  return { sessionId: row.id, type: claims.type, id: row.subjectId, singleLink: row.singleLink }
}
