/**
 * Posting payments (issue 16, item 6; docs/decisions/0024). A payment is recorded once (unique on the gateway and
 * its payment id: a webhook delivered twice, or reported again by reconciliation, posts nothing the second
 * time), matched to a client by the payment reference, and posted to the client's open loan in one transaction
 * with everything it causes: the interest accrued up to today, the allocation entries (penalties, fees, interest,
 * principal), the credit of an overpayment, a waived residue of at most a peso, the loan's event (paid when
 * nothing is owed any more) and the journey's (the client may borrow again), the receipt and refund jobs.
 * A reference that matches no client is kept as unmatched (never lost) for the back office to assign.
 */
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import { DomainError, notFound } from '../../../domain/errors'
import {
  allocate,
  allocationLines,
  balancesOf,
  type LedgerLine,
  outstandingOf,
  residueWaiver,
} from '../../../domain/loan/ledger'
import { isDefaultedLoanState, isOpenLoanState } from '../../../domain/loan/loan-lifecycle.machine'
import type { PaymentChannelCode } from '../../../domain/payments/channels'
import { clientIdOfReference, normaliseReference } from '../../../domain/payments/reference'
import type { Tx } from '../../db/client'
import { loan } from '../../db/schema-lending'
import {
  creditRefund,
  loanLedgerEntry,
  payment,
  paymentIntention,
  servicingJob,
} from '../../db/schema-payments'
import type { AppDeps } from '../../deps'
import { type Actor, jobActor } from '../journey/journey'
import { assertReversibleAfterDefault, recordForward } from '../servicing/debt-sale'
import { payExtensionLocked } from '../servicing/extensions'
import {
  completeSchedule,
  reopenSchedule,
  spreadOverInstalments,
  unspreadInstalments,
} from '../servicing/schedules'
import { recoveryEntries } from '../servicing/write-off'
import { RECEIPT_JOB, REFUND_JOB } from './job-kinds'
import {
  accrueLocked,
  bookEntries,
  type LoanRow,
  loanForPayments,
  loanTransaction,
  type NewEntry,
  stateOf,
} from './loans'

export interface IncomingPayment {
  provider: string
  providerPaymentId: string
  reference: string
  /** Centavos. */
  amount: number
  channel: PaymentChannelCode
  paidAt: Date
  source: 'webhook' | 'reconciliation' | 'manual'
  postedBy?: number | null
  note?: string | null
}

export type ReceiveOutcome = 'posted' | 'unmatched' | 'duplicate'
export type PaymentRow = typeof payment.$inferSelect
type PostingDeps = Pick<AppDeps, 'database' | 'logger' | 'now'>

/** The gateway's webhook calls it after `receivePayment` committed (server/services/payments/jobs.ts). */
export { afterPosting } from './jobs'

/** Who posted: the back-office user of a manual posting, or the gateway's webhook or reconciliation (as a job). */
const actorFor = (incoming: IncomingPayment): Actor =>
  incoming.source === 'manual' && incoming.postedBy
    ? { kind: 'back-office', id: incoming.postedBy, call: 'POST /web/private/back-office/payments' }
    : jobActor(`${incoming.source}:${incoming.provider}`, incoming.providerPaymentId)

/**
 * Records and posts one payment, in one transaction when its reference names a client with a loan: the client's
 * journey lock and the loan's row lock are taken first, then the payment row is inserted (unique on the gateway
 * and its payment id) and posted. So payments to one loan take turns (the balances are those of one after the
 * other), the same payment reported 50 times at once is inserted once and the others find it ('duplicate'), and
 * a crash leaves either nothing or a posted payment, never a recorded one waiting to be posted.
 */
export async function receivePayment(
  deps: PostingDeps,
  incoming: IncomingPayment,
): Promise<{ paymentId: number; outcome: ReceiveOutcome }> {
  const now = deps.now()
  const db = deps.database.db
  const reference = normaliseReference(incoming.reference)
  const clientId = clientIdOfReference(reference)
  const target = clientId === null ? null : await loanForPayments(db, clientId)
  const values = {
    provider: incoming.provider,
    providerPaymentId: incoming.providerPaymentId,
    reference,
    channel: incoming.channel,
    amount: incoming.amount,
    status: 'unmatched',
    clientId: target?.clientId ?? null,
    loanId: target?.id ?? null,
    source: incoming.source,
    paidAt: incoming.paidAt,
    receivedAt: now,
    postedBy: incoming.postedBy ?? null,
    note: incoming.note ?? null,
  }
  const existing = async () => {
    const [row] = await db
      .select({ id: payment.id })
      .from(payment)
      .where(
        and(
          eq(payment.provider, incoming.provider),
          eq(payment.providerPaymentId, incoming.providerPaymentId),
        ),
      )
    return { paymentId: row!.id, outcome: 'duplicate' as const }
  }
  if (!target) {
    const [inserted] = await db
      .insert(payment)
      .values(values)
      .onConflictDoNothing()
      .returning({ id: payment.id })
    if (!inserted) return existing()
    deps.logger.info({ paymentId: inserted.id, event: 'payment.unmatched' }, 'payment unmatched')
    return { paymentId: inserted.id, outcome: 'unmatched' }
  }
  const posted = await loanTransaction(
    deps,
    target.id,
    actorFor(incoming),
    now,
    async (tx, locked, today) => {
      const [inserted] = await tx.insert(payment).values(values).onConflictDoNothing().returning()
      if (!inserted) return { result: null, event: null }
      return postInTransaction(tx, locked, today, inserted, now)
    },
  )
  if (posted === null) return existing()
  return { paymentId: posted, outcome: 'posted' }
}

/** The back office's assignment of an unmatched payment to a loan: posted there, once. */
export async function postToLoan(deps: PostingDeps, paymentId: number, loanId: number, by: Actor, now: Date) {
  return loanTransaction(deps, loanId, by, now, async (tx, locked, today) => {
    const [row] = await tx.select().from(payment).where(eq(payment.id, paymentId)).for('update')
    if (!row) throw notFound('Payment')
    if (row.postedAt || row.status !== 'unmatched')
      throw new DomainError('conflict', 'paymentPosted', 'Only an unmatched payment can be assigned.')
    return postInTransaction(tx, locked, today, row, now)
  })
}

/**
 * Posts a recorded payment to a locked loan: interest accrued up to today, the allocation, the credit, a waived
 * residue, the receipt and refund jobs; answers the loan event (paid when nothing is owed any more).
 */
async function postInTransaction(tx: Tx, locked: LoanRow, today: string, row: PaymentRow, now: Date) {
  const paymentId = row.id
  const state = stateOf(locked)
  if (state === 'draft' || state === 'cancelled')
    throw new DomainError(
      'conflict',
      'loanNotPayable',
      'Nothing can be paid on a loan whose money never left.',
    )
  if (isDefaultedLoanState(state)) return postToDefaulted(tx, locked, today, row, now)
  const { row: loanRow, balances } = await accrueLocked(tx, locked, today, now)
  // A signed extension's fee is paid first and by itself (issue 17); what is left is allocated as usual.
  const extension = await payExtensionLocked(tx, loanRow, row, outstandingOf(balances), today, now)
  const rest = extension ? extension.rest : row.amount
  const entries: NewEntry[] = [...(extension?.entries ?? [])]
  let credit = 0
  if (rest > 0) {
    const allocation = allocate(balances, rest)
    credit = allocation.credit
    for (const { kind, line } of allocationLines(allocation)) entries.push({ kind, ...line, paymentId })
  }
  const after = balancesOf([...partsOf(balances), ...entries])
  const waiver = residueWaiver(after)
  for (const line of waiver) entries.push({ kind: 'residue_waiver', ...line, paymentId })
  await bookEntries(tx, loanRow, entries, today, now)
  const final = balancesOf([...partsOf(after), ...waiver])
  await markPosted(tx, loanRow, row, today, now)
  await queueJob(tx, RECEIPT_JOB, String(paymentId), now)
  const settles = isOpenLoanState(state) && outstandingOf(final) === 0
  if (isOpenLoanState(state) && loanRow.plan === 'scheduled')
    await spreadOverInstalments(tx, loanRow.id, rest - credit, now)
  if (final.credit > 0 && (settles || state === 'paid')) await queueRefund(tx, loanRow, now)
  if (settles) {
    if (loanRow.plan === 'scheduled') await completeSchedule(tx, loanRow.id, now)
    // With an additional loan still running (ADR 0030) the client stays on My loan: the journey follows only
    // when this was the client's last open loan.
    const others = await tx
      .select({ id: loan.id })
      .from(loan)
      .where(
        and(
          eq(loan.clientId, loanRow.clientId),
          ne(loan.id, loanRow.id),
          inArray(loan.state, ['active', 'on_hold']),
        ),
      )
      .limit(1)
    return {
      result: paymentId,
      event: { type: 'REPAID' as const },
      ...(others.length ? {} : { follow: { type: 'LOAN_REPAID' as const } }),
      set: { closedAt: now },
    }
  }
  if (extension)
    return { result: paymentId, event: { type: 'EXTENDED' as const }, set: { dueDate: extension.dueDate } }
  return { result: paymentId, event: { type: 'PAYMENT_POSTED' as const } }
}

async function markPosted(tx: Tx, loanRow: LoanRow, row: PaymentRow, today: string, now: Date) {
  await tx
    .update(payment)
    .set({
      status: 'posted',
      loanId: loanRow.id,
      clientId: loanRow.clientId,
      postedAt: now,
      businessDate: today,
    })
    .where(eq(payment.id, row.id))
  await tx
    .update(paymentIntention)
    .set({ status: 'paid' })
    .where(and(eq(paymentIntention.checkoutId, row.providerPaymentId), eq(paymentIntention.status, 'open')))
}

/**
 * A payment on a loan that left Hiram's hands (issue 18; docs/decisions/0029). Sold: the receivable is the
 * agency's, so the payment touches none of the loan's parts (Hiram's books hold 0) and is recorded as owed to the
 * agency (Civil Code Art. 1626: the debtor who pays the old creditor is released; the money is passed on).
 * Written off: a recovery (server/services/servicing/write-off.ts). The payment stays posted to the loan either
 * way, never lost. No receipt job: its text ("remaining balance", "fully paid") does not fit these loans.
 */
async function postToDefaulted(tx: Tx, locked: LoanRow, today: string, row: PaymentRow, now: Date) {
  if (stateOf(locked) === 'sold_debt') await recordForward(tx, locked, row, now)
  else {
    const { entries, credit } = await recoveryEntries(tx, locked.id, row.amount, row.id)
    await bookEntries(tx, locked, entries, today, now)
    if (credit > 0) await queueRefund(tx, locked, now)
  }
  await markPosted(tx, locked, row, today, now)
  await queueJob(tx, RECEIPT_JOB, String(row.id), now)
  return { result: row.id, event: { type: 'PAYMENT_POSTED' as const } }
}

/** Balances as ledger lines, to add entries to them with `balancesOf`. */
const partsOf = (b: ReturnType<typeof balancesOf>): LedgerLine[] =>
  (Object.keys(b) as (keyof typeof b)[]).map((part) => ({ part, amount: b[part] }))

export async function queueJob(tx: Tx, kind: string, subjectId: string, now: Date) {
  await tx.insert(servicingJob).values({ kind, subjectId, runAt: now, createdAt: now }).onConflictDoNothing()
}

/** A refund of the loan's credit to the client's payout account: one queued at a time per loan. */
async function queueRefund(tx: Tx, row: LoanRow, now: Date) {
  const [queued] = await tx
    .insert(creditRefund)
    .values({ loanId: row.id, clientId: row.clientId, amount: 0, status: 'queued', createdAt: now })
    .onConflictDoNothing()
    .returning({ id: creditRefund.id })
  if (queued) await queueJob(tx, REFUND_JOB, String(queued.id), now)
}

/**
 * Reverses a posted payment (a chargeback, a bounced deposit): every entry it booked gets its compensating entry,
 * so the loan owes again exactly what the payment had paid; a paid loan reopens, and the journey follows when
 * the client has not moved on. Refused when the payment's credit was already refunded (reverse the refund first).
 */
export async function reversePayment(deps: PostingDeps, paymentId: number, userId: number, reason: string) {
  const now = deps.now()
  const [row] = await deps.database.db.select().from(payment).where(eq(payment.id, paymentId))
  if (!row) throw notFound('Payment')
  if (row.status !== 'posted' || !row.loanId)
    throw new DomainError('conflict', 'paymentNotPosted', 'Only a posted payment can be reversed.')
  const by: Actor = {
    kind: 'back-office',
    id: userId,
    call: 'POST /web/private/back-office/payments/{id}/reversal',
  }
  return loanTransaction(deps, row.loanId, by, now, async (tx, locked, today) => {
    const [current] = await tx.select().from(payment).where(eq(payment.id, paymentId)).for('update')
    if (current?.status !== 'posted')
      throw new DomainError('conflict', 'paymentNotPosted', 'Only a posted payment can be reversed.')
    // An extension fee stays charged: the extension was signed and took effect; reversing its payment makes
    // the fee owed again, like any other charge a bounced payment had paid.
    const originals = (
      await tx
        .select()
        .from(loanLedgerEntry)
        .where(and(eq(loanLedgerEntry.paymentId, paymentId), isNull(loanLedgerEntry.reversesId)))
    ).filter((e) => e.kind !== 'extension_fee')
    const state = stateOf(locked)
    // Sold or written off: only a payment posted after it, not yet paid over to the agency (409 otherwise).
    if (isDefaultedLoanState(state)) await assertReversibleAfterDefault(tx, locked, current)
    const { balances } = await accrueLocked(tx, locked, today, now)
    const creditTaken = originals.filter((e) => e.part === 'credit').reduce((a, e) => a + e.amount, 0)
    if (creditTaken > balances.credit)
      throw new DomainError('conflict', 'creditRefunded', 'The credit of this payment was already refunded.')
    await bookEntries(
      tx,
      locked,
      originals.map((e) => ({
        kind: 'reversal' as const,
        part: e.part as NewEntry['part'],
        amount: -e.amount,
        paymentId,
        reversesId: e.id,
        memo: e.kind,
      })),
      today,
      now,
    )
    await tx
      .update(payment)
      .set({ status: 'reversed', reversedAt: now, reversedBy: userId, reversalReason: reason })
      .where(eq(payment.id, paymentId))
    const after = balancesOf([
      ...partsOf(balances),
      ...originals.map((e) => ({ part: e.part as NewEntry['part'], amount: -e.amount })),
    ])
    const applied = -originals.filter((e) => e.kind === 'allocation').reduce((a, e) => a + e.amount, 0)
    // A sold or written-off loan's schedule ended with it: a recovery's reversal has no instalment to reopen.
    if (locked.plan === 'scheduled' && !isDefaultedLoanState(state))
      await unspreadInstalments(tx, locked.id, applied)
    if (state === 'paid' && outstandingOf(after) > 0) {
      const onSchedule = locked.plan === 'scheduled'
      if (onSchedule) await reopenSchedule(tx, locked.id)
      return {
        result: paymentId,
        event: { type: onSchedule ? ('REOPENED_ON_SCHEDULE' as const) : ('REOPENED' as const) },
        follow: { type: 'LOAN_REOPENED' as const },
        set: { closedAt: null },
      }
    }
    return { result: paymentId, event: { type: 'PAYMENT_REVERSED' as const } }
  })
}

/** How a posted payment was applied, from its entries (reversals excluded). */
export async function allocationOf(tx: Pick<Tx, 'select'>, paymentIds: number[]) {
  if (!paymentIds.length) return new Map<number, Record<string, number>>()
  const rows = await tx
    .select({
      paymentId: loanLedgerEntry.paymentId,
      part: loanLedgerEntry.part,
      total: sql<string>`sum(${loanLedgerEntry.amount})`,
    })
    .from(loanLedgerEntry)
    .where(
      and(
        sql`${loanLedgerEntry.paymentId} in (${sql.join(
          paymentIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
        sql`${loanLedgerEntry.kind} in ('allocation', 'overpayment')`,
      ),
    )
    .groupBy(loanLedgerEntry.paymentId, loanLedgerEntry.part)
  const map = new Map<number, Record<string, number>>()
  for (const r of rows) {
    const entry = map.get(r.paymentId!) ?? { penalties: 0, fees: 0, interest: 0, principal: 0, credit: 0 }
    entry[r.part] = Math.abs(Number(r.total))
    map.set(r.paymentId!, entry)
  }
  return map
}
