/**
 * Single-link login (the /affiliate/sleeper-otp flow): a back-office user issues a one-time link token for a
 * client; the link's holder asks for an SMS code to the client's phone and trades token plus code for a
 * session that sees the active loan only. Possessing the link alone is not enough: links get forwarded.
 */
import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNull } from 'drizzle-orm'
import { DomainError } from '../../../domain/errors'
import type { DbOrTx } from '../../db/client'
import { singleLinkToken } from '../../db/schema-identity'
import { CLIENT_BLOCKED, findClient } from './clients'

/** The lifetime of the leadId cookie (259200 s): the link works as long as the page may remember it. */
export const SINGLE_LINK_TTL_HOURS = 72

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

export const linkInvalid = () =>
  new DomainError(
    'notFound',
    'linkInvalid',
    'This link is no longer valid. Please log in with your password.',
  )

export async function issueSingleLink(db: DbOrTx, clientId: number, issuedBy: number | null, now: Date) {
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(now.getTime() + SINGLE_LINK_TTL_HOURS * 3600_000)
  await db
    .insert(singleLinkToken)
    .values({ clientId, tokenHash: hashToken(token), issuedBy, createdAt: now, expiresAt })
  return { leadId: token, expiresAt, path: `/affiliate/sleeper-otp?lead_id=${token}` }
}

/** The client behind a live (unused, unexpired) link token. */
export async function findLiveLink(db: DbOrTx, token: string, now: Date) {
  const [row] = await db
    .select({ id: singleLinkToken.id, clientId: singleLinkToken.clientId })
    .from(singleLinkToken)
    .where(
      and(
        eq(singleLinkToken.tokenHash, hashToken(token)),
        isNull(singleLinkToken.consumedAt),
        gt(singleLinkToken.expiresAt, now),
      ),
    )
  return row ?? null
}

/** The live link behind a token and its client; a dead link or a blocked client is refused. */
export async function linkedClient(db: DbOrTx, token: string, now: Date) {
  const link = await findLiveLink(db, token, now)
  if (!link) throw linkInvalid()
  const row = await findClient(db, link.clientId)
  if (!row) throw linkInvalid()
  if (row.status === CLIENT_BLOCKED)
    throw new DomainError('forbidden', 'accountBlocked', 'The account is blocked.')
  return { link, row }
}

/** Marks the token used; false when another request used it first. */
export async function consumeLink(db: DbOrTx, id: number, now: Date) {
  const used = await db
    .update(singleLinkToken)
    .set({ consumedAt: now })
    .where(and(eq(singleLinkToken.id, id), isNull(singleLinkToken.consumedAt)))
    .returning({ id: singleLinkToken.id })
  return used.length > 0
}
