/**
 * Writing a loan off (issue 18, item 4; docs/decisions/0029-debt-sale-and-write-off.md). The back office writes
 * off an overdue loan, or one on hold, with a reason: in one transaction under the client's and the loan's locks
 * the interest due up to today is booked, every receivable part is brought to 0 by a `write_off` entry (the
 * outstanding leaves the books as a loss; the entries, not an edit, say so), the write-off is recorded (who,
 * when, why, how much) and the statechart moves by WRITTEN_OFF (status 10).
 *
 * A later payment is a recovery (`recoveryEntries`, called by the posting): for each part in the allocation
 * order (penalties, fees, interest, principal) up to what was written off of it and not recovered yet, a
 * `recovery` entry reinstates that much of the receivable and an `allocation` entry pays it, so the balances
 * stay 0, the ledger shows what was recovered of which part, and a reversal's compensating entries undo both.
 * What is paid beyond everything written off is the client's credit (refunded like any overpayment).
 */
import { and, eq, sql } from 'drizzle-orm'
import { allocationOrder, type LedgerPart } from '../../../domain/loan/ledger'
import type { Tx } from '../../db/client'
import { loanWriteOff } from '../../db/schema-debt'
import { loanLedgerEntry, servicingAction } from '../../db/schema-payments'
import type { AppDeps } from '../../deps'
import type { Actor } from '../journey/journey'
import { accrueLocked, bookEntries, loanTransaction, type NewEntry } from '../payments/loans'
import { assertAccepts, endSchedules, zeroingEntries } from './debt-sale'

type Deps = Pick<AppDeps, 'database' | 'logger' | 'now'>

export const WRITE_OFF_CALL = 'POST /web/private/back-office/loan/{id}/write-off'

export async function writeOff(deps: Deps, userId: number, loanId: number, reason: string) {
  const now = deps.now()
  const by: Actor = { kind: 'back-office', id: userId, call: WRITE_OFF_CALL }
  return loanTransaction(deps, loanId, by, now, async (tx, locked, today) => {
    assertAccepts(locked, { type: 'WRITTEN_OFF' })
    const { row: accrued, balances } = await accrueLocked(tx, locked, today, now)
    const entries = zeroingEntries('write_off', balances, reason)
    await bookEntries(tx, accrued, entries, today, now)
    const amount = -entries.reduce((a, e) => a + e.amount, 0)
    await tx.insert(loanWriteOff).values({
      loanId,
      clientId: accrued.clientId,
      userId,
      reason,
      amount,
      businessDate: today,
      at: now,
    })
    await endSchedules(tx, loanId)
    await tx.insert(servicingAction).values({ action: 'write_off', userId, at: now, reason, loanId })
    return { result: { loanId, amount }, event: { type: 'WRITTEN_OFF' as const } }
  })
}

/**
 * What a payment of `amount` books on a written-off loan (see the file comment): recovery and allocation pairs
 * per part, then the credit of what is left. Inside the posting's transaction, the loan locked.
 */
export async function recoveryEntries(
  tx: Tx,
  loanId: number,
  amount: number,
  paymentId: number,
): Promise<{ entries: NewEntry[]; credit: number }> {
  // Written off and not recovered yet, by part: the write-off entries (negative), less the recoveries
  // (positive), less the reversals of recoveries (negative: a reversed recovery is recoverable again).
  const rows = await tx
    .select({ part: loanLedgerEntry.part, total: sql<string>`coalesce(sum(${loanLedgerEntry.amount}), 0)` })
    .from(loanLedgerEntry)
    .where(
      and(
        eq(loanLedgerEntry.loanId, loanId),
        sql`(${loanLedgerEntry.kind} in ('write_off', 'recovery') or (${loanLedgerEntry.kind} = 'reversal' and ${loanLedgerEntry.memo} = 'recovery'))`,
      ),
    )
    .groupBy(loanLedgerEntry.part)
  const recoverable = new Map<string, number>(rows.map((r) => [r.part, Math.max(0, -Number(r.total))]))
  let left = amount
  const entries: NewEntry[] = []
  for (const part of allocationOrder) {
    const take = Math.min(left, recoverable.get(part) ?? 0)
    if (take <= 0) continue
    entries.push({ kind: 'recovery', part: part as LedgerPart, amount: take, paymentId, memo: 'recovered' })
    entries.push({ kind: 'allocation', part: part as LedgerPart, amount: -take, paymentId })
    left -= take
  }
  if (left > 0) entries.push({ kind: 'overpayment', part: 'credit', amount: left, paymentId })
  return { entries, credit: left }
}
