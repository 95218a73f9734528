/**
 * Payment schedules (issue 17 item 3): the special offers a loan is made (one per type, written at the payout),
 * who may accept one today (domain/loan/schedule.ts `scheduleEligibility`, the configuration's rules, recorded
 * with the agreement), the documents signed with an SMS code, and the schedule in force: payments spread over
 * the instalments oldest first, each period's interest booked when it starts, completed when the loan is repaid.
 * docs/decisions/0025-extensions-and-payment-schedules.md.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type {
  AmendmentDocument,
  PaymentSchedule,
  ScheduleOffer,
} from '../../../domain/contract/servicing-answers'
import { DomainError, notFound } from '../../../domain/errors'
import { outstandingOf } from '../../../domain/loan/ledger'
import {
  allocateToInstalments,
  amountToPayNow,
  instalmentDueDays,
  isInstalmentOverdue,
  isInstalmentPaid,
  planSchedule,
  type SchedulePlan,
  scheduleEligibility,
} from '../../../domain/loan/schedule'
import type { ScheduleType } from '../../../domain/loan/servicing-config'
import { loanNumberOf } from '../../../domain/payments/reference'
import type { DbOrTx, Tx } from '../../db/client'
import { amendmentDocument, paymentSchedule, scheduleInstalment } from '../../db/schema-servicing'
import type { AppDeps } from '../../deps'
import type { Actor } from '../journey/journey'
import { businessToday } from '../payments/clock'
import {
  accrualToTermEnd,
  accrueLocked,
  bookAccrual,
  bookEntries,
  dueAccrual,
  type LoanRow,
  loanTransaction,
} from '../payments/loans'
import { openLoan } from '../payments/views'
import { renderScheduleAgreement, renderScheduleDisclosure } from './amendment-documents'
import {
  borrowerName,
  documentsOf,
  documentsShow,
  documentView,
  expireExtensionInvoices,
  hasPendingExtension,
  storeDocuments,
} from './extensions'
import { loanSnapshot, type ServicingTerms, servicingTerms } from './facts'

type ServicingDeps = Pick<AppDeps, 'database' | 'logger' | 'now'>
type ScheduleRow = typeof paymentSchedule.$inferSelect

/** The special offers a loan is made: one per type, written at the payout. */
export async function offerSchedules(tx: Tx, row: LoanRow, now: Date) {
  await tx
    .insert(paymentSchedule)
    .values(
      (['monthly', 'semi_monthly'] as const).map((type) => ({
        loanId: row.id,
        clientId: row.clientId,
        type,
        status: 'offered',
        offeredAt: now,
      })),
    )
    .onConflictDoNothing()
}

async function schedulesOf(db: DbOrTx, loanId: number, statuses: string[]) {
  return db
    .select()
    .from(paymentSchedule)
    .where(and(eq(paymentSchedule.loanId, loanId), inArray(paymentSchedule.status, statuses)))
    .orderBy(asc(paymentSchedule.id))
}

/** The decision and the plan of an offer as it would be agreed today, computed (nothing is booked). */
async function quoteOffer(
  db: DbOrTx,
  row: LoanRow,
  offer: ScheduleRow,
  today: string,
  terms: ServicingTerms,
) {
  const { facts, balances } = await loanSnapshot(db, row, today)
  // The contract's interest up to the end of its term, which the schedule takes over (booked at the agreement).
  const due = dueAccrual(row, balances, today)
  const accrued = accrualToTermEnd(
    due ? { ...row, accruedDays: due.next.accruedDays, accrualBasis: due.next.basis } : row,
    balances,
  )
  const toEnd = accrued?.amount ?? 0
  const hadSchedule = (await schedulesOf(db, row.id, ['active', 'completed'])).length > 0
  const decision = scheduleEligibility(
    { ...facts, extensionPending: await hasPendingExtension(db, row.id, today), hadSchedule },
    terms.servicing.schedules,
  )
  const plan = planSchedule(
    { ...facts, charged: facts.charged + toEnd, interestToCome: 0 },
    outstandingOf(balances) + toEnd,
    offer.type as ScheduleType,
    terms.servicing.schedules,
  )
  return { decision, plan }
}

function offerView(
  row: LoanRow,
  offer: ScheduleRow,
  quote: Awaited<ReturnType<typeof quoteOffer>>,
  documents: AmendmentDocument[],
): ScheduleOffer {
  const { decision, plan } = quote
  return {
    id: offer.id,
    loanId: row.id,
    type: offer.type as ScheduleType,
    status: offer.status === 'offered' ? 'offered' : offer.status === 'active' ? 'accepted' : 'withdrawn',
    available: offer.status === 'offered' && decision.eligible,
    reason: offer.status === 'offered' ? decision.reason : 'This offer is no longer open.',
    rules: decision.rules,
    owed: { amount: plan.owed },
    interest: { amount: plan.interest },
    interestAtRate: { amount: plan.interestAtRate },
    total: { amount: plan.total },
    days: plan.days,
    payments: plan.instalments.map((i) => ({
      seq: i.seq,
      dueDate: i.dueDate,
      amount: { amount: i.amount },
      interest: { amount: i.interest },
    })),
    legalRoom: { amount: plan.legalRoom },
    documents,
  }
}

/** The offers on the active loan today, for My loan (`specialOffers`); only while the loan is on its terms. */
export async function scheduleOffersOf(db: DbOrTx, row: LoanRow, today: string, terms?: ServicingTerms) {
  if (row.state !== 'active' || row.plan !== 'on_terms') return []
  const offers = await schedulesOf(db, row.id, ['offered'])
  if (!offers.length) return []
  const t = terms ?? (await servicingTerms(db))
  const out = []
  for (const offer of offers) {
    const quote = await quoteOffer(db, row, offer, today, t)
    out.push({
      id: offer.id,
      type: offer.type as ScheduleType,
      available: quote.decision.eligible,
      reason: quote.decision.reason,
      instalments: quote.plan.instalments.length,
      firstAmount: { amount: quote.plan.instalments[0]?.amount ?? 0 },
      firstDueDate: quote.plan.instalments[0]?.dueDate ?? today,
      total: { amount: quote.plan.total },
    })
  }
  return out
}

async function ownOffer(db: DbOrTx, clientId: number, offerId: number) {
  const row = await openLoan(db, clientId)
  if (!row) throw notFound('Loan')
  const [offer] = await db
    .select()
    .from(paymentSchedule)
    .where(and(eq(paymentSchedule.id, offerId), eq(paymentSchedule.loanId, row.id)))
  if (!offer) throw notFound('Special offer')
  return { row, offer }
}

/** GET .../special-offer/submit/{id}: the offer as it would be agreed today, with its decision and documents. */
export async function scheduleOfferFor(deps: ServicingDeps, clientId: number, offerId: number) {
  const db = deps.database.db
  const { row, offer } = await ownOffer(db, clientId, offerId)
  const today = await businessToday(db, clientId, deps.now())
  const quote = await quoteOffer(db, row, offer, today, await servicingTerms(db))
  const documents = (await documentsOf(db, 'schedule', offer.id)).map(documentView)
  return offerView(row, offer, quote, documents)
}

const notAvailable = (reason: string | null) =>
  new DomainError('conflict', 'scheduleNotAvailable', reason ?? 'This offer is not available.')

/** The figures the documents show and the signature checks. */
const figuresOf = (plan: SchedulePlan) => ({
  type: plan.type,
  owed: plan.owed,
  interest: plan.interest,
  total: plan.total,
  days: plan.days,
  instalments: plan.instalments,
})

/** POST without a code: renders the amendment and its disclosure for today's plan and stores them. */
export async function prepareScheduleSignature(deps: ServicingDeps, clientId: number, offerId: number) {
  const db = deps.database.db
  const now = deps.now()
  const { row, offer } = await ownOffer(db, clientId, offerId)
  if (offer.status !== 'offered') throw notAvailable('This offer is no longer open.')
  const today = await businessToday(db, clientId, now)
  const terms = await servicingTerms(db)
  const { decision, plan } = await quoteOffer(db, row, offer, today, terms)
  if (!decision.eligible) throw notAvailable(decision.reason)
  const input = {
    loanNumber: loanNumberOf(row.id),
    borrower: await borrowerName(db, clientId),
    renderedAt: now,
    type: plan.type,
    owed: plan.owed,
    principalBasis: plan.principalBasis,
    interest: plan.interest,
    interestPpmPerDay: terms.servicing.schedules.interestPpmPerDay,
    total: plan.total,
    days: plan.days,
    instalments: plan.instalments,
    legalRoom: plan.legalRoom,
  }
  const files = {
    schedule_agreement: await renderScheduleAgreement(input),
    disclosure_statement: await renderScheduleDisclosure(input),
  }
  await db.transaction((tx) =>
    storeDocuments(
      tx,
      { loanId: row.id, clientId, subject: 'schedule', subjectId: offer.id },
      files,
      { ...figuresOf(plan), today },
      now,
    ),
  )
  return (await documentsOf(db, 'schedule', offer.id)).map(documentView)
}

/**
 * With the code (checked by the route): the schedule is agreed in one transaction under the loan's locks: the
 * contract's interest to the end of its term is booked, the instalments written, the first period's interest
 * booked, the other offer withdrawn, the documents signed, and the loan moves to active.scheduled.
 */
export async function agreeSchedule(deps: ServicingDeps, clientId: number, offerId: number, by: Actor) {
  const db = deps.database.db
  const now = deps.now()
  const { row } = await ownOffer(db, clientId, offerId)
  const terms = await servicingTerms(db)
  await loanTransaction(deps, row.id, by, now, async (tx, locked, today) => {
    await expireExtensionInvoices(tx, locked, today, now)
    const [offer] = await tx
      .select()
      .from(paymentSchedule)
      .where(eq(paymentSchedule.id, offerId))
      .for('update')
    if (offer?.status !== 'offered') throw notAvailable('This offer is no longer open.')
    const { decision, plan } = await quoteOffer(tx, locked, offer, today, terms)
    if (!decision.eligible) throw notAvailable(decision.reason)
    const docs = await documentsOf(tx, 'schedule', offer.id)
    if (!documentsShow(docs, { ...figuresOf(plan), today }))
      throw new DomainError(
        'conflict',
        'documentsChanged',
        'The figures changed since the documents were prepared; ask for the code again to see the new ones.',
      )
    const accrued = await accrueLocked(tx, locked, today, now)
    const toEnd = accrualToTermEnd(accrued.row, accrued.balances)
    if (toEnd) await bookAccrual(tx, accrued.row, accrued.balances, toEnd, today, now)
    await tx.insert(scheduleInstalment).values(
      plan.instalments.map((i) => ({
        scheduleId: offer.id,
        loanId: locked.id,
        seq: i.seq,
        dueDate: i.dueDate,
        periodStart: i.periodStart,
        amount: i.amount,
        interest: i.interest,
      })),
    )
    await tx
      .update(paymentSchedule)
      .set({
        status: 'active',
        decision,
        owed: plan.owed,
        interest: plan.interest,
        interestAtRate: plan.interestAtRate,
        total: plan.total,
        principalBasis: plan.principalBasis,
        days: plan.days,
        agreedAt: now,
        agreedOn: today,
      })
      .where(eq(paymentSchedule.id, offer.id))
    await tx
      .update(paymentSchedule)
      .set({ status: 'withdrawn' })
      .where(and(eq(paymentSchedule.loanId, locked.id), eq(paymentSchedule.status, 'offered')))
    await tx
      .update(amendmentDocument)
      .set({ signedAt: now })
      .where(and(eq(amendmentDocument.subject, 'schedule'), eq(amendmentDocument.subjectId, offer.id)))
    const first = plan.instalments[0]
    if (first && first.interest > 0)
      await bookEntries(
        tx,
        locked,
        [{ kind: 'schedule_interest', part: 'interest', amount: first.interest, memo: 'schedule period 1' }],
        today,
        now,
      )
    return {
      result: offer.id,
      event: { type: 'SCHEDULE_AGREED' as const },
      set: { dueDate: plan.instalments.at(-1)!.dueDate },
    }
  })
  deps.logger.info(
    { loanId: row.id, clientId, scheduleId: offerId, event: 'schedule.agreed' },
    'schedule agreed',
  )
  const schedule = await activeScheduleView(db, clientId, now)
  if (!schedule) throw notFound('Payment schedule')
  return schedule
}

/** GET /loan/active/payment-schedule: the schedule in force with each payment's status and dueDays, or null. */
export async function activeScheduleView(
  db: DbOrTx,
  clientId: number,
  now: Date,
): Promise<PaymentSchedule | null> {
  const row = await openLoan(db, clientId)
  if (!row) return null
  const [schedule] = await schedulesOf(db, row.id, ['active'])
  if (!schedule) return null
  const today = await businessToday(db, clientId, now)
  const items = await instalmentsOf(db, schedule.id)
  return {
    id: schedule.id,
    loanId: row.id,
    type: schedule.type as ScheduleType,
    status: 'active',
    agreedAt: schedule.agreedAt!.toISOString(),
    owed: { amount: schedule.owed ?? 0 },
    interest: { amount: schedule.interest ?? 0 },
    total: { amount: schedule.total ?? 0 },
    payments: items.map((i) => ({
      id: i.id,
      seq: i.seq,
      status: isInstalmentPaid(i) ? ('paid' as const) : ('unpaid' as const),
      dueDate: i.dueDate,
      dueDays: instalmentDueDays(i, today),
      overdue: isInstalmentOverdue(i, today),
      amount: { amount: i.amount },
      paid: { amount: i.paidAmount },
      interest: { amount: i.interest },
    })),
    toPayNow: { amount: amountToPayNow(items, today) },
  }
}

async function instalmentsOf(db: DbOrTx, scheduleId: number) {
  return db
    .select()
    .from(scheduleInstalment)
    .where(eq(scheduleInstalment.scheduleId, scheduleId))
    .orderBy(asc(scheduleInstalment.seq))
}

/** What an instalment payment intention asks for: every unpaid instalment due by today, or the next one. */
export async function scheduleToPayNow(db: DbOrTx, loanId: number, today: string) {
  const [schedule] = await schedulesOf(db, loanId, ['active'])
  if (!schedule) return null
  return amountToPayNow(await instalmentsOf(db, schedule.id), today)
}

// ---------------------------------------------------------------------------------------------------------
// Posting (inside the loan's transaction)

/** A payment's applied amount spread over the schedule in force, oldest unpaid instalment first. */
export async function spreadOverInstalments(tx: Tx, loanId: number, amount: number, now: Date) {
  if (amount <= 0) return
  const [schedule] = await schedulesOf(tx, loanId, ['active'])
  if (!schedule) return
  const items = await instalmentsOf(tx, schedule.id)
  const next = allocateToInstalments(items, amount)
  for (const item of next) {
    const before = items.find((i) => i.id === item.id)!
    if (item.paidAmount === before.paidAmount) continue
    await tx
      .update(scheduleInstalment)
      .set({ paidAmount: item.paidAmount, paidAt: isInstalmentPaid(item) ? now : null })
      .where(eq(scheduleInstalment.id, item.id))
  }
}

/** A reversed payment takes its amount back from the newest paid instalments (of the schedule in force or completed). */
export async function unspreadInstalments(tx: Tx, loanId: number, amount: number) {
  if (amount <= 0) return
  const [schedule] = (await schedulesOf(tx, loanId, ['active', 'completed'])).slice(-1)
  if (!schedule) return
  const items = await instalmentsOf(tx, schedule.id)
  let left = amount
  for (const item of [...items].reverse()) {
    if (left <= 0) break
    const take = Math.min(left, item.paidAmount)
    if (!take) continue
    left -= take
    await tx
      .update(scheduleInstalment)
      .set({ paidAmount: item.paidAmount - take, paidAt: null })
      .where(eq(scheduleInstalment.id, item.id))
  }
}

/** The loan was repaid: its schedule is completed (instalments not reached are simply never owed). */
export async function completeSchedule(tx: Tx, loanId: number, now: Date) {
  await tx
    .update(paymentSchedule)
    .set({ status: 'completed', completedAt: now })
    .where(and(eq(paymentSchedule.loanId, loanId), eq(paymentSchedule.status, 'active')))
  await tx
    .update(paymentSchedule)
    .set({ status: 'withdrawn' })
    .where(and(eq(paymentSchedule.loanId, loanId), eq(paymentSchedule.status, 'offered')))
}

/** A reversal reopened a loan repaid on a schedule: the schedule is in force again. */
export async function reopenSchedule(tx: Tx, loanId: number) {
  const [latest] = (await schedulesOf(tx, loanId, ['completed'])).slice(-1)
  if (latest)
    await tx
      .update(paymentSchedule)
      .set({ status: 'active', completedAt: null })
      .where(eq(paymentSchedule.id, latest.id))
}

/** Whether the client has a schedule in force (spec: hasActiveRefinancing, no additional loan). */
export async function hasActiveSchedule(db: DbOrTx, clientId: number) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(paymentSchedule)
    .where(and(eq(paymentSchedule.clientId, clientId), eq(paymentSchedule.status, 'active')))
  return (row?.n ?? 0) > 0
}

/**
 * The spec's `hasActiveRefinancing` (Client, section 3): true from the moment a client chooses an extension
 * until its invoice is paid or expires, and while a schedule is in force.
 */
export async function hasActiveRefinancing(db: DbOrTx, clientId: number, now: Date) {
  if (await hasActiveSchedule(db, clientId)) return true
  const row = await openLoan(db, clientId)
  if (!row) return false
  return hasPendingExtension(db, row.id, await businessToday(db, clientId, now))
}
