/**
 * Servicing's background work (issue 16): the receipt of every posted payment (SMS and e-mail: amount,
 * allocation, remaining balance) and the refund of a client's credit to their payout account through the payout
 * provider. Jobs live in `servicing_job`, claimed like the lending jobs (FOR UPDATE SKIP LOCKED and a lease), so
 * several processes share them; a provider is never called inside a transaction. `afterPosting` runs a payment's
 * jobs at once after its transaction committed, instead of waiting for the worker's next round.
 */

import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm'
import { formatPhpText } from '../../../domain/format'
import { outstandingOf } from '../../../domain/loan/ledger'
import { loanNumberOf } from '../../../domain/payments/reference'
import type { Db } from '../../db/client'
import { errorForLog, errorSummary } from '../../db/errors'
import { institution } from '../../db/schema'
import { collectionAgency, debtSaleLoan } from '../../db/schema-debt'
import { client } from '../../db/schema-identity'
import { disbursementEntry } from '../../db/schema-journey'
import { loan } from '../../db/schema-lending'
import { creditRefund, loanLedgerEntry, payment, servicingJob } from '../../db/schema-payments'
import type { AppDeps } from '../../deps'
import { PayoutUnavailableError } from '../../providers/payout'
import { jobActor } from '../journey/journey'
import { sendDeferredSaleNotice } from '../servicing/debt-sale'
import { sendDueReminders } from '../servicing/reminders'
import { DEBT_SALE_NOTICE_JOB, RECEIPT_JOB, REFUND_JOB, REMINDER_JOB } from './job-kinds'
import { balancesOfLoan, bookEntries, loanTransaction } from './loans'
import { allocationOf } from './posting'
import { runServicingDayOnce } from './servicing'

export const SERVICING_JOB_LEASE_MS = 60_000
const RETRY_MS = 30_000
const MAX_ATTEMPTS = 8

type JobDeps = Pick<AppDeps, 'database' | 'logger' | 'now' | 'messaging' | 'payout'>
type Job = typeof servicingJob.$inferSelect

/** Takes up to `limit` due jobs of the given kinds (a lease of SERVICING_JOB_LEASE_MS, the attempt counted). */
export async function claimServicingJobs(db: Db, kinds: string[], now: Date, limit: number): Promise<Job[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: servicingJob.id })
      .from(servicingJob)
      .where(
        and(
          inArray(servicingJob.kind, kinds),
          isNull(servicingJob.doneAt),
          lte(servicingJob.runAt, now),
          or(isNull(servicingJob.lockedUntil), lt(servicingJob.lockedUntil, now)),
        ),
      )
      .orderBy(asc(servicingJob.runAt), asc(servicingJob.id))
      .limit(limit)
      .for('update', { skipLocked: true })
    if (!due.length) return []
    return tx
      .update(servicingJob)
      .set({
        lockedUntil: new Date(now.getTime() + SERVICING_JOB_LEASE_MS),
        attempts: sql`${servicingJob.attempts} + 1`,
      })
      .where(
        inArray(
          servicingJob.id,
          due.map((j) => j.id),
        ),
      )
      .returning()
  })
}

export async function finishServicingJob(db: Db, job: Job, now: Date) {
  await db.update(servicingJob).set({ doneAt: now, lockedUntil: null }).where(eq(servicingJob.id, job.id))
}

async function retryServicingJob(db: Db, job: Job, error: unknown, now: Date) {
  const giveUp = job.attempts >= MAX_ATTEMPTS
  await db
    .update(servicingJob)
    .set({
      lockedUntil: null,
      doneAt: giveUp ? now : null,
      runAt: new Date(now.getTime() + RETRY_MS * 2 ** Math.min(job.attempts, 8)),
      lastError: errorSummary(error).slice(0, 500),
    })
    .where(eq(servicingJob.id, job.id))
}

// ---------------------------------------------------------------------------------------------------------
// Receipts

const partNames = {
  penalties: 'penalties',
  fees: 'fees',
  interest: 'interest',
  principal: 'principal',
} as const

export function receiptText(f: {
  amount: number
  loanNumber: string
  allocation: Record<string, number>
  remaining: number
  credit: number
}): string {
  const applied = (Object.keys(partNames) as (keyof typeof partNames)[])
    .filter((p) => (f.allocation[p] ?? 0) > 0)
    .map((p) => `${partNames[p]} ${formatPhpText(f.allocation[p]!)}`)
    .join(', ')
  const credit =
    f.credit > 0 ? ` ${formatPhpText(f.credit)} is credit we will refund to your payout account.` : ''
  const remaining =
    f.remaining > 0
      ? `Remaining balance: ${formatPhpText(f.remaining)}.`
      : 'Your loan is fully paid. Thank you!'
  return `Hiram: we received ${formatPhpText(f.amount)} for loan ${f.loanNumber}${applied ? ` (${applied})` : ''}.${credit} ${remaining}`
}

/** The receipt of a payment that reached Hiram after the loan was sold (Civil Code Art. 1626). */
export function soldDebtReceiptText(f: { amount: number; loanNumber: string; agency: string }): string {
  return `Hiram: we received ${formatPhpText(f.amount)} for loan ${f.loanNumber}. Your loan now belongs to ${f.agency}: we pass this payment on to them, and it counts as paid to them. Please pay them directly from now on: hiram.ph/profile/debt-sold.`
}

async function sendReceipt(deps: JobDeps, job: Job) {
  const db = deps.database.db
  const paymentId = Number(job.subjectId)
  const [row] = await db
    .select({ p: payment, phone: client.phone, email: client.email })
    .from(payment)
    .innerJoin(client, eq(client.id, payment.clientId))
    .where(eq(payment.id, paymentId))
  if (!row?.p.loanId || row.p.status !== 'posted') return
  const allocation = (await allocationOf(db, [paymentId])).get(paymentId) ?? {}
  const [owner] = await db
    .select({ state: loan.state, agency: collectionAgency.name })
    .from(loan)
    .leftJoin(debtSaleLoan, eq(debtSaleLoan.loanId, loan.id))
    .leftJoin(collectionAgency, eq(collectionAgency.id, debtSaleLoan.agencyId))
    .where(eq(loan.id, row.p.loanId))
  const loanNumber = loanNumberOf(row.p.loanId)
  // A sold loan's payment is passed on to the agency; a written-off loan's is a recovery (issue 18, ADR 0029):
  // neither has a "remaining balance" in Hiram's books to report.
  const body =
    owner?.state === 'sold_debt'
      ? soldDebtReceiptText({
          amount: row.p.amount,
          loanNumber,
          agency: owner.agency ?? 'the collection agency',
        })
      : owner?.state === 'write_off'
        ? `Hiram: we received ${formatPhpText(row.p.amount)} for loan ${loanNumber}. Thank you.${(allocation.credit ?? 0) > 0 ? ` ${formatPhpText(allocation.credit!)} is more than was owed: we will refund it to your payout account.` : ''}`
        : receiptText({
            amount: row.p.amount,
            loanNumber,
            allocation,
            remaining: outstandingOf(await balancesOfLoan(db, row.p.loanId)),
            credit: allocation.credit ?? 0,
          })
  await deps.messaging.send(db, { channel: 'sms', recipient: row.phone, body, purpose: 'payment_receipt' })
  await deps.messaging
    .send(db, {
      channel: 'email',
      recipient: row.email,
      subject: 'Hiram: payment received',
      body,
      purpose: 'payment_receipt',
    })
    .catch(() => deps.logger.warn({ paymentId }, 'payment receipt e-mail not sent'))
}

// ---------------------------------------------------------------------------------------------------------
// Refunds

/**
 * Pays a loan's credit back to the client's selected payout account, in three steps so the credit can never be
 * spent twice: (1) in the loan's transaction, the credit is reserved: the refund entry is booked (credit to 0)
 * and the refund marked `sending`, so a reversal racing the refund sees no credit left and is refused; (2) the
 * payout provider is called outside any transaction, with the refund id as its idempotency key (a retry after
 * an unavailable provider sends the same refund again, never a second one); (3) the outcome: succeeded, or
 * refused by the provider, when a compensating entry gives the credit back. Only a paid loan's credit is
 * refunded: a loan a reversal reopened keeps its credit against what it owes.
 */
async function runRefund(deps: JobDeps, job: Job) {
  const db = deps.database.db
  const now = deps.now()
  const refundId = Number(job.subjectId)
  const [refund] = await db.select().from(creditRefund).where(eq(creditRefund.id, refundId))
  if (!refund || refund.status === 'succeeded' || refund.status === 'failed') return
  const [entry] = await db
    .select({ e: disbursementEntry, institution: institution.name })
    .from(disbursementEntry)
    .leftJoin(institution, eq(institution.id, disbursementEntry.institutionId))
    .where(and(eq(disbursementEntry.clientId, refund.clientId), eq(disbursementEntry.selected, true)))
  if (!entry) throw new Error('no payout account to refund to')
  const by = jobActor('refund', refundId)
  const amount = await loanTransaction(deps, refund.loanId, by, now, async (tx, locked, today) => {
    const [current] = await tx.select().from(creditRefund).where(eq(creditRefund.id, refundId)).for('update')
    if (current?.status === 'sending') return { result: current.amount, event: null }
    if (current?.status !== 'queued') return { result: 0, event: null }
    const { credit } = await balancesOfLoan(tx, locked.id)
    if (credit <= 0 || locked.state !== 'paid') {
      await tx
        .update(creditRefund)
        .set({
          status: 'failed',
          failureReason: credit <= 0 ? 'no credit' : 'loan not paid',
          completedAt: now,
        })
        .where(eq(creditRefund.id, refundId))
      return { result: 0, event: null }
    }
    await bookEntries(tx, locked, [{ kind: 'refund', part: 'credit', amount: -credit, refundId }], today, now)
    await tx
      .update(creditRefund)
      .set({ status: 'sending', amount: credit, entryId: entry.e.id })
      .where(eq(creditRefund.id, refundId))
    return { result: credit, event: null }
  })
  if (amount <= 0) return
  const answer = await deps.payout.send({
    disbursementId: refundId,
    purpose: 'refund',
    type: entry.e.type,
    accountNumber: entry.e.accountNumber,
    institution: entry.institution,
    provider: entry.e.provider,
    amount,
  })
  await loanTransaction(deps, refund.loanId, by, now, async (tx, locked, today) => {
    const [current] = await tx.select().from(creditRefund).where(eq(creditRefund.id, refundId)).for('update')
    if (current?.status !== 'sending') return { result: null, event: null }
    if (answer.status === 'failed') {
      const [reserved] = await tx
        .select()
        .from(loanLedgerEntry)
        .where(and(eq(loanLedgerEntry.refundId, refundId), eq(loanLedgerEntry.kind, 'refund')))
      if (reserved)
        await bookEntries(
          tx,
          locked,
          [
            {
              kind: 'reversal',
              part: 'credit',
              amount: -reserved.amount,
              refundId,
              reversesId: reserved.id,
              memo: 'refund',
            },
          ],
          today,
          now,
        )
      await tx
        .update(creditRefund)
        .set({
          status: 'failed',
          providerRef: answer.reference,
          failureReason: answer.reason,
          completedAt: now,
        })
        .where(eq(creditRefund.id, refundId))
      deps.logger.warn({ refundId, loanId: refund.loanId }, 'credit refund refused by the payout provider')
      return { result: null, event: null }
    }
    await tx
      .update(creditRefund)
      .set({ status: 'succeeded', providerRef: answer.reference, completedAt: now })
      .where(eq(creditRefund.id, refundId))
    return { result: null, event: locked.state === 'paid' ? { type: 'CREDIT_REFUNDED' as const } : null }
  })
}

// ---------------------------------------------------------------------------------------------------------

const runners: Record<string, (deps: JobDeps, job: Job) => Promise<void>> = {
  [RECEIPT_JOB]: sendReceipt,
  [REFUND_JOB]: runRefund,
  [REMINDER_JOB]: async (deps) => {
    await sendDueReminders(deps)
  },
  [DEBT_SALE_NOTICE_JOB]: (deps, job) => sendDeferredSaleNotice(deps, Number(job.subjectId)),
}

async function runJob(deps: JobDeps, job: Job) {
  const db = deps.database.db
  try {
    await runners[job.kind]!(deps, job)
    await finishServicingJob(db, job, deps.now())
  } catch (error) {
    deps.logger.warn(
      {
        jobId: job.id,
        kind: job.kind,
        attempt: job.attempts,
        unavailable: error instanceof PayoutUnavailableError,
      },
      'servicing job failed',
    )
    await retryServicingJob(db, job, error, deps.now())
  }
}

/** One round of the servicing worker: the due receipts and refunds. */
export async function runServicingJobs(deps: JobDeps, limit = 20) {
  const jobs = await claimServicingJobs(deps.database.db, Object.keys(runners), deps.now(), limit)
  for (const job of jobs) await runJob(deps, job)
  return jobs.length
}

/** Right after a payment's transaction: its receipt (and a refund it queued) now, not at the next round. */
export async function afterPosting(deps: JobDeps, paymentId: number) {
  const db = deps.database.db
  const now = deps.now()
  const taken = await db
    .update(servicingJob)
    .set({
      lockedUntil: new Date(now.getTime() + SERVICING_JOB_LEASE_MS),
      attempts: sql`${servicingJob.attempts} + 1`,
    })
    .where(
      and(
        isNull(servicingJob.doneAt),
        or(isNull(servicingJob.lockedUntil), lt(servicingJob.lockedUntil, now)),
        or(
          and(eq(servicingJob.kind, RECEIPT_JOB), eq(servicingJob.subjectId, String(paymentId))),
          and(
            eq(servicingJob.kind, REFUND_JOB),
            sql`${servicingJob.subjectId} in (select ${creditRefund.id}::text from ${creditRefund} where ${creditRefund.status} = 'queued' and ${creditRefund.loanId} = (select ${payment.loanId} from ${payment} where ${payment.id} = ${paymentId}))`,
          ),
        ),
      ),
    )
    .returning()
  for (const job of taken) await runJob(deps, job)
}

/**
 * The servicing worker of a server process: every `intervalMs`, the due receipts and refunds (retries of those
 * `afterPosting` could not finish), and the instance's servicing day once it begins (claimed by its date, so
 * several processes run it once). The returned function stops it and waits for the current round.
 */
export function startServicingWorker(deps: JobDeps, intervalMs = 5000): () => Promise<void> {
  let current: Promise<unknown> = Promise.resolve()
  let stopped = false
  const round = async () => {
    await runServicingDayOnce(deps)
    while ((await runServicingJobs(deps)) > 0 && !stopped) {}
  }
  const timer = setInterval(() => {
    if (stopped) return
    current = current.then(() =>
      stopped
        ? undefined
        : round().catch((error) => deps.logger.error({ err: errorForLog(error) }, 'servicing worker')),
    )
  }, intervalMs)
  timer.unref()
  return async () => {
    stopped = true
    clearInterval(timer)
    await current
  }
}
