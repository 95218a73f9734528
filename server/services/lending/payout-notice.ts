/**
 * The message a client gets when the money is paid out (issue 13, item 11): how much, where it went, the due
 * date and the total to repay, by SMS (the repay pages promise one) and by e-mail.
 *
 * The payout result's transaction queues a `payout_notice` job (unique per application, like every lending job)
 * and sends nothing: the messages go out after the commit, from that job. Sending is at most once: the job is
 * marked done by a conditional update *before* the provider is called, so a retried job, a second worker or a
 * second process finds it done and sends nothing. A provider that fails puts the job back (retried later); a
 * process that dies between the mark and the send loses that one notice, which is the side to err on for a
 * message about money.
 */
import { and, eq, isNull } from 'drizzle-orm'
import { formatDate, formatPhpText } from '../../../domain/format'
import { paymentReferenceOf } from '../../../domain/payments/reference'
import type { Db, Tx } from '../../db/client'
import { institution } from '../../db/schema'
import { client } from '../../db/schema-identity'
import { disbursementEntry } from '../../db/schema-journey'
import { disbursement, lendingJob, loan } from '../../db/schema-lending'
import type { AppDeps } from '../../deps'
import type { OutgoingMessage } from '../../providers/messaging'
import { describeAccount } from '../journey/payout'

export const PAYOUT_NOTICE_JOB = 'payout_notice'
export const PAYOUT_NOTICE_MAX_ATTEMPTS = 5
const RETRY_MS = 60_000

type NoticeDeps = Pick<AppDeps, 'database' | 'logger' | 'messaging' | 'now'>
type Job = typeof lendingJob.$inferSelect

/** Inside the payout result's transaction: the notice is queued, never sent, there. */
export async function queuePayoutNotice(tx: Tx, applicationId: number, now: Date) {
  await tx
    .insert(lendingJob)
    .values({ kind: PAYOUT_NOTICE_JOB, applicationId, runAt: now, createdAt: now })
    .onConflictDoNothing()
}

export interface PayoutFacts {
  amount: number
  total: number
  dueDate: string
  account: string
  cashPickupNumber: string | null
  /** The client's payment reference for life (domain/payments/reference.ts): every channel takes it. */
  paymentReference: string
}

export function payoutNoticeText(f: PayoutFacts): string {
  const where = f.cashPickupNumber
    ? `is ready for pickup: ${f.account.replace(/^cash pickup at /, '')}, pickup number ${f.cashPickupNumber}`
    : `was sent to your ${f.account}`
  return (
    `Hiram: your loan of ${formatPhpText(f.amount)} ${where}. ` +
    `Please repay ${formatPhpText(f.total)} by ${formatDate(f.dueDate)} with your payment reference ${f.paymentReference} ` +
    '(GCash, Maya, 7-Eleven, bank transfer and more: hiram.ph/repay). Questions? Call customer care.'
  )
}

async function facts(db: Db, applicationId: number) {
  const [row] = await db
    .select({
      status: disbursement.status,
      amount: disbursement.amount,
      cashPickupNumber: disbursement.cashPickupNumber,
      type: disbursementEntry.type,
      accountNumber: disbursementEntry.accountNumber,
      provider: disbursementEntry.provider,
      institution: institution.name,
      total: loan.total,
      dueDate: loan.dueDate,
      phone: client.phone,
      email: client.email,
      clientId: disbursement.clientId,
    })
    .from(disbursement)
    .innerJoin(disbursementEntry, eq(disbursementEntry.id, disbursement.entryId))
    .leftJoin(institution, eq(institution.id, disbursementEntry.institutionId))
    .innerJoin(loan, eq(loan.applicationId, disbursement.applicationId))
    .innerJoin(client, eq(client.id, disbursement.clientId))
    .where(eq(disbursement.applicationId, applicationId))
  return row ?? null
}

/** Takes the job for sending: true for exactly one caller. */
async function claim(db: Db, jobId: number, now: Date) {
  const taken = await db
    .update(lendingJob)
    .set({ doneAt: now, lockedUntil: null })
    .where(and(eq(lendingJob.id, jobId), isNull(lendingJob.doneAt)))
    .returning({ id: lendingJob.id })
  return taken.length === 1
}

/**
 * Sends the notice of one application's payout, once. Called right after the payout result commits and by the
 * worker for a job left due (a crash, a provider failure).
 */
export async function runPayoutNotice(deps: NoticeDeps, job: Job): Promise<'sent' | 'skipped'> {
  const db = deps.database.db
  const now = deps.now()
  const f = await facts(db, job.applicationId)
  const paid = f && (f.status === 'succeeded' || f.status === 'cash_pickup_ready')
  // Nothing paid (the job outlived its payout somehow): nothing to say, and nothing to retry.
  if (!paid) {
    await claim(db, job.id, now)
    return 'skipped'
  }
  if (!(await claim(db, job.id, now))) return 'skipped'
  const body = payoutNoticeText({
    amount: f.amount,
    total: f.total,
    dueDate: f.dueDate,
    account: describeAccount(f),
    cashPickupNumber: f.cashPickupNumber,
    paymentReference: paymentReferenceOf(f.clientId),
  })
  const sms: OutgoingMessage = { channel: 'sms', recipient: f.phone, body, purpose: 'payout_sent' }
  try {
    await deps.messaging.send(db, sms)
  } catch (error) {
    // `attempts` counts this one already (claimJobs, or sendPayoutNoticeNow).
    const attempts = job.attempts
    const giveUp = attempts >= PAYOUT_NOTICE_MAX_ATTEMPTS
    deps.logger.warn(
      { applicationId: job.applicationId, attempt: attempts, giveUp },
      'payout notice not sent',
    )
    await db
      .update(lendingJob)
      .set({
        doneAt: giveUp ? now : null,
        attempts,
        runAt: new Date(now.getTime() + RETRY_MS * attempts),
        lastError: error instanceof Error ? error.name : 'send failed',
      })
      .where(eq(lendingJob.id, job.id))
    return 'skipped'
  }
  // The e-mail is a copy for the client's records: its failure is logged, and the SMS is not sent again.
  await deps.messaging
    .send(db, {
      channel: 'email',
      recipient: f.email,
      subject: 'Your Hiram loan was paid out',
      body,
      purpose: 'payout_sent',
    })
    .catch(() => deps.logger.warn({ applicationId: job.applicationId }, 'payout notice e-mail not sent'))
  return 'sent'
}

/** After the payout result committed: send at once rather than wait for the worker's next round. */
export async function sendPayoutNoticeNow(deps: NoticeDeps, applicationId: number) {
  const [job] = await deps.database.db
    .select()
    .from(lendingJob)
    .where(
      and(
        eq(lendingJob.kind, PAYOUT_NOTICE_JOB),
        eq(lendingJob.applicationId, applicationId),
        isNull(lendingJob.doneAt),
      ),
    )
  if (job) await runPayoutNotice(deps, { ...job, attempts: job.attempts + 1 })
}
