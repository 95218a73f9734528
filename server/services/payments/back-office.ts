/**
 * The back office's payments (issue 16, item 8): a paged, filtered list; manual posting (a deposit slip, a
 * counter's report) with an idempotency key; assigning an unmatched payment to a loan; reversing a posted one with
 * a reason; holding, releasing and cancelling loans. Each action is recorded with who did it, when and why
 * (`servicing_action`, in the same transaction as the action where the action writes; issue 19 makes this the
 * audit trail).
 */
import { and, desc, eq, gte, isNull, lt, type SQL, sql } from 'drizzle-orm'
import type { BackOfficePayment } from '../../../domain/contract/payments'
import { DomainError, notFound } from '../../../domain/errors'
import type { PaymentChannelCode } from '../../../domain/payments/channels'
import { clientIdOfReference, loanNumberOf, normaliseReference } from '../../../domain/payments/reference'
import { addDays, daysBetween, manilaDayStart } from '../../../domain/pricing/manila-date'
import type { DbOrTx } from '../../db/client'
import { application, disbursement, lendingJob, loan } from '../../db/schema-lending'
import { payment, servicingAction } from '../../db/schema-payments'
import type { AppDeps } from '../../deps'
import { leaveBankAccountSelect } from '../identity/client-status'
import type { Actor } from '../journey/journey'
import { AppStatus, returnToLoan } from '../lending/applications'
import { accrueLocked, loanTransaction } from './loans'
import { postToLoan, receivePayment, reversePayment } from './posting'

type Deps = Pick<AppDeps, 'database' | 'logger' | 'now'>
type PaymentRow = typeof payment.$inferSelect

export function paymentView(row: PaymentRow): BackOfficePayment {
  return {
    id: row.id,
    provider: row.provider,
    providerPaymentId: row.providerPaymentId,
    reference: row.reference,
    channel: row.channel,
    amount: row.amount,
    status: row.status as BackOfficePayment['status'],
    source: row.source,
    loanId: row.loanId,
    loanNumber: row.loanId ? loanNumberOf(row.loanId) : null,
    clientId: row.clientId,
    paidAt: row.paidAt.toISOString(),
    receivedAt: row.receivedAt.toISOString(),
    postedAt: row.postedAt?.toISOString() ?? null,
    postedBy: row.postedBy,
    reversedAt: row.reversedAt?.toISOString() ?? null,
    reversedBy: row.reversedBy,
    reversalReason: row.reversalReason,
    note: row.note,
  }
}

export interface PaymentFilters {
  from?: string
  to?: string
  channel?: PaymentChannelCode
  status?: 'posted' | 'unmatched' | 'reversed'
  reference?: string
  page: number
  perPage: number
}

const maxDate = (a: string | null, b: string) => (a && a > b ? a : b)

export async function paymentsPage(db: DbOrTx, f: PaymentFilters) {
  const where: SQL[] = []
  if (f.from) where.push(gte(payment.receivedAt, manilaDayStart(f.from)))
  if (f.to) where.push(lt(payment.receivedAt, manilaDayStart(addDays(f.to, 1))))
  if (f.channel) where.push(eq(payment.channel, f.channel))
  if (f.status) where.push(eq(payment.status, f.status))
  if (f.reference) where.push(eq(payment.reference, normaliseReference(f.reference)))
  const condition = where.length ? and(...where) : undefined
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(payment)
    .where(condition)) as [{ total: number }]
  const rows = await db
    .select()
    .from(payment)
    .where(condition)
    .orderBy(desc(payment.id))
    .limit(f.perPage)
    .offset((f.page - 1) * f.perPage)
  return { items: rows.map(paymentView), total }
}

export async function paymentById(db: DbOrTx, id: number) {
  const [row] = await db.select().from(payment).where(eq(payment.id, id))
  if (!row) throw notFound('Payment')
  return paymentView(row)
}

async function record(
  db: DbOrTx,
  action: string,
  userId: number,
  at: Date,
  ids: { paymentId?: number; loanId?: number },
  reason: string | null,
) {
  await db
    .insert(servicingAction)
    .values({ action, userId, at, reason, paymentId: ids.paymentId ?? null, loanId: ids.loanId ?? null })
}

export async function postManually(
  deps: Deps,
  userId: number,
  body: {
    reference: string
    amount: number
    channel: PaymentChannelCode
    idempotencyKey: string
    note?: string
  },
) {
  if (clientIdOfReference(body.reference) === null)
    throw new DomainError('invalid', 'validationError', 'Not a payment reference.', [
      { propertyPath: 'reference', message: 'Not a payment reference (10 digits with a valid check digit).' },
    ])
  const { paymentId, outcome } = await receivePayment(deps, {
    provider: 'manual',
    providerPaymentId: `${userId}:${body.idempotencyKey}`,
    reference: body.reference,
    amount: body.amount,
    channel: body.channel,
    paidAt: deps.now(),
    source: 'manual',
    postedBy: userId,
    note: body.note ?? null,
  })
  if (outcome !== 'duplicate')
    await record(deps.database.db, 'manual_post', userId, deps.now(), { paymentId }, body.note ?? null)
  return { paymentId, outcome }
}

export async function assignToLoan(
  deps: Deps,
  userId: number,
  paymentId: number,
  loanId: number,
  reason: string,
) {
  const now = deps.now()
  const by: Actor = {
    kind: 'back-office',
    id: userId,
    call: 'POST /web/private/back-office/payments/{id}/assign',
  }
  await postToLoan(deps, paymentId, loanId, by, now)
  await record(deps.database.db, 'assign', userId, now, { paymentId, loanId }, reason)
}

export async function reverse(deps: Deps, userId: number, paymentId: number, reason: string) {
  await reversePayment(deps, paymentId, userId, reason)
  await record(deps.database.db, 'reverse', userId, deps.now(), { paymentId }, reason)
}

const loanCalls = {
  hold: 'POST /web/private/back-office/loan/{id}/hold',
  release: 'POST /web/private/back-office/loan/{id}/release',
  cancel: 'POST /web/private/back-office/loan/{id}/cancel',
} as const

/**
 * Hold (accrual stops: the interest up to today is booked first and the hold's first day noted), release (the
 * days on hold are never charged) and cancel (a draft whose money never left).
 */
export async function loanAction(
  deps: Deps,
  userId: number,
  loanId: number,
  action: keyof typeof loanCalls,
  reason: string,
) {
  const now = deps.now()
  const by: Actor = { kind: 'back-office', id: userId, call: loanCalls[action] }
  const result = await loanTransaction(deps, loanId, by, now, async (tx, locked, today) => {
    await record(tx, action, userId, now, { loanId }, reason)
    if (action === 'hold') {
      await accrueLocked(tx, locked, today, now)
      return { result: null, event: { type: 'HOLD' as const }, set: { heldSince: today } }
    }
    if (action === 'release') {
      const since = locked.heldSince ?? today
      const held = Math.max(0, daysBetween(since, today))
      return {
        result: null,
        event: { type: 'RELEASE' as const },
        // No penalty for the days on hold (a hold stops accrual, issue 18): penalties resume from today.
        set: {
          heldSince: null,
          heldDays: locked.heldDays + held,
          penaltyThrough: maxDate(locked.penaltyThrough, addDays(today, -1)),
        },
      }
    }
    // Only after a failed payout: while one is queued or running, money may be leaving (cancel it at the provider
    // first). The payout is closed and the journey goes back to applying. The application is terminated (23): the
    // lender ends a contract the client signed; cancelled (5) is the client's own withdrawal before signing
    // (issue 22 item 5, docs/decisions/0041-referrals.md).
    const [payout] = await tx
      .select({ status: disbursement.status })
      .from(disbursement)
      .where(eq(disbursement.applicationId, locked.applicationId))
      .for('update')
    if (payout && payout.status !== 'failed')
      throw new DomainError(
        'conflict',
        'payoutInProgress',
        'Only a loan whose payout failed can be cancelled.',
      )
    await tx
      .update(application)
      .set({ status: AppStatus.terminated, updatedAt: now })
      .where(and(eq(application.id, locked.applicationId), eq(application.status, AppStatus.accepted)))
    await tx
      .update(disbursement)
      .set({ failureReason: 'cancelled by the back office', completedAt: now })
      .where(eq(disbursement.applicationId, locked.applicationId))
    // No payout waits for an account any more: the client leaves bank account select (status 5).
    await leaveBankAccountSelect(tx, locked.clientId, now)
    await tx
      .update(lendingJob)
      .set({ doneAt: now, lockedUntil: null })
      .where(
        and(
          eq(lendingJob.applicationId, locked.applicationId),
          eq(lendingJob.kind, 'payout'),
          isNull(lendingJob.doneAt),
        ),
      )
    return {
      result: { clientId: locked.clientId, applicationId: locked.applicationId },
      event: { type: 'CANCELLED' as const },
      follow: { type: 'LOAN_CANCELLED' as const },
    }
  })
  // A cancelled additional loan (ADR 0030) leaves the client's other loan running: back to My loan.
  if (result) await returnToLoan(deps, result.clientId, result.applicationId, now)
  return null
}

export async function loanStateView(db: DbOrTx, loanId: number) {
  const [row] = await db
    .select({ state: loan.state, status: loan.status })
    .from(loan)
    .where(eq(loan.id, loanId))
  if (!row) throw notFound('Loan')
  return { loanId, state: row.state, status: row.status }
}
