/**
 * The client statuses the journey sets (spec section 4; issue 22 item 5; docs/decisions/0041-referrals.md, "Client
 * statuses 4 and 5"): verification (4) while the identity-verification provider has an open session for the
 * client, and bank account select (5) while a payout that bounced waits for the client to choose another account.
 * Each is entered only from active (1) and left only back to active, in the transaction of the step that causes it,
 * so a blocked (2) or blacklisted (3) client is never made active by it.
 */
import { and, eq } from 'drizzle-orm'
import { clientStatus } from '../../../domain/journey/routing'
import type { DbOrTx } from '../../db/client'
import { client } from '../../db/schema-identity'

type Status = (typeof clientStatus)[keyof typeof clientStatus]

/** Moves the client from `from` to `to`, and does nothing when the client is in any other status. */
export async function moveClientStatus(tx: DbOrTx, clientId: number, from: Status, to: Status, now: Date) {
  await tx
    .update(client)
    .set({ status: to, updatedAt: now })
    .where(and(eq(client.id, clientId), eq(client.status, from)))
}

export const enterVerification = (tx: DbOrTx, clientId: number, now: Date) =>
  moveClientStatus(tx, clientId, clientStatus.active, clientStatus.verification, now)

export const leaveVerification = (tx: DbOrTx, clientId: number, now: Date) =>
  moveClientStatus(tx, clientId, clientStatus.verification, clientStatus.active, now)

export const enterBankAccountSelect = (tx: DbOrTx, clientId: number, now: Date) =>
  moveClientStatus(tx, clientId, clientStatus.active, clientStatus.bankAccountSelect, now)

export const leaveBankAccountSelect = (tx: DbOrTx, clientId: number, now: Date) =>
  moveClientStatus(tx, clientId, clientStatus.bankAccountSelect, clientStatus.active, now)
