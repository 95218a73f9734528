/**
 * Who is calling: the bearer token in the Authorization header (the only place the API reads it), checked
 * against its server-side session on every private call.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Context } from 'hono'
import { mayDo, type Permission } from '../../domain/back-office/roles'
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
  /** A back-office user's roles (domain/back-office/roles.ts); empty for a client. */
  roles: string[]
  /** sha256 of the device id the session was opened from, for the audit trail. */
  deviceHash: string | null
}

export const CLIENT_BLOCKED = clientStatus.blocked

const unauthorized = (message = 'Authentication required.') =>
  new DomainError('unauthenticated', 'unauthorized', message)
const forbidden = (message: string) => new DomainError('forbidden', 'forbidden', message)

/** A back-office user whose roles do not hold the route's permission: a 403 the route layer audits. */
export class RoleNotAllowed extends DomainError {
  constructor(readonly principal: Principal) {
    super('forbidden', 'roleNotAllowed', 'Your role does not allow this action.')
  }
}

export interface AccessRule {
  access: 'client' | 'user'
  /** Reachable by a single-link (my-loan only) session. */
  singleLink?: boolean
  /** Reachable while the second factor is still pending (the call that completes it). */
  mfaPending?: boolean
  /** A back-office route's permission; a back-office route without one is refused to everybody. */
  permission?: Permission
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
      deviceHash: session.deviceHash,
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
    return { ...principalOf(row, claims.type), roles: [] }
  }
  const [user] = await db
    .select({ active: backOfficeUser.active, roles: backOfficeUser.roles })
    .from(backOfficeUser)
    .where(eq(backOfficeUser.id, row.subjectId))
  if (!user) throw unauthorized('The session has ended.')
  if (!user.active) throw forbidden('The account is disabled.')
  const principal = { ...principalOf(row, claims.type), roles: user.roles }
  if (!rule.permission || !mayDo(user.roles, rule.permission)) throw new RoleNotAllowed(principal)
  return principal
}

function principalOf(
  row: { id: string; subjectId: number; singleLink: boolean; deviceHash: string | null },
  type: SubjectType,
) {
  return {
    sessionId: row.id,
    type,
    id: row.subjectId,
    singleLink: row.singleLink,
    deviceHash: row.deviceHash,
  }
}
