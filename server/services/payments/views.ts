/**
 * What the client reads of a loan (issue 16, item 7): the active loan with today's payoff by part, the statement
 * of account (every ledger entry with the balance after it) and the payment history. Reads only: the interest
 * accrued since the last booking is computed (`dueAccrual`), not written, so a GET never changes the ledger.
 */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { ActiveLoan } from '../../../domain/contract/lending-answers'
import type { PaymentView, Statement } from '../../../domain/contract/payments'
import { notFound } from '../../../domain/errors'
import { legalRoom } from '../../../domain/loan/extension'
import { balancesOf, type LedgerKind, type LedgerPart, outstandingOf } from '../../../domain/loan/ledger'
import type { LoanPlan } from '../../../domain/loan/loan-lifecycle.machine'
import { daysPastDue, standingOn } from '../../../domain/loan/penalty'
import { loanNumberOf, paymentReferenceOf, virtualAccountOf } from '../../../domain/payments/reference'
import { daysBetween, manilaDate } from '../../../domain/pricing/manila-date'
import type { DbOrTx } from '../../db/client'
import { loan } from '../../db/schema-lending'
import { payment } from '../../db/schema-payments'
import { paymentSchedule, scheduleInstalment } from '../../db/schema-servicing'
import { rolloversOf } from '../servicing/extensions'
import { loanSnapshot, servicingTerms } from '../servicing/facts'
import { scheduleOffersOf } from '../servicing/schedules'
import { businessToday } from './clock'
import { balancesOfLoan, dueAccrual, dueScheduleInterest, type LoanRow, ledgerOfLoan } from './loans'
import { allocationOf } from './posting'

/** Today's balances of a loan: the booked ones plus the interest accrued since, not yet booked. */
export async function todaysBalances(db: DbOrTx, row: LoanRow, today: string) {
  const booked = await balancesOfLoan(db, row.id)
  const scheduled = await dueScheduleInterest(db, row, today)
  const balances = scheduled ? { ...booked, interest: booked.interest + scheduled } : booked
  const due = dueAccrual(row, balances, today)
  return due ? { ...balances, interest: balances.interest + due.amount } : balances
}

/**
 * The open loan (active or on hold) My loan, extensions, schedules and payment intentions act on: the oldest,
 * the one a client's payments go to first (`loanForPayments`). With an additional loan (ADR 0030) the other one
 * is listed below it (`otherOpenLoans`).
 */
export async function openLoan(db: DbOrTx, clientId: number) {
  const [row] = await openLoans(db, clientId, 1)
  return row ?? null
}

async function openLoans(db: DbOrTx, clientId: number, limit = 10) {
  return db
    .select()
    .from(loan)
    .where(and(eq(loan.clientId, clientId), inArray(loan.state, ['active', 'on_hold'])))
    .orderBy(asc(loan.createdAt), asc(loan.id))
    .limit(limit)
}

/** A client's open loans after the first: what each owes today, for My loan's list below the first. */
async function otherOpenLoans(db: DbOrTx, clientId: number, firstId: number, today: string) {
  const rows = (await openLoans(db, clientId)).filter((r) => r.id !== firstId)
  return Promise.all(
    rows.map(async (r) => {
      const b = await todaysBalances(db, r, today)
      return {
        id: r.id,
        loanNumber: loanNumberOf(r.id),
        status: r.status,
        principal: { amount: r.principal },
        amountDue: { amount: outstandingOf(b) },
        dueDate: r.dueDate,
        dueDays: daysBetween(today, r.dueDate),
        ...(await standingView(db, r, today)),
      }
    }),
  )
}

/** GET /private/client/loan/active: the open loan with today's payoff in parts, or null. */
export async function activeLoanView(db: DbOrTx, clientId: number, now: Date): Promise<ActiveLoan | null> {
  const row = await openLoan(db, clientId)
  if (!row) return null
  const today = await businessToday(db, clientId, now)
  const terms = await servicingTerms(db)
  const { facts, balances: b } = await loanSnapshot(db, row, today)
  const payoff = outstandingOf(b)
  const dueDays = daysBetween(today, row.dueDate)
  const [paid] = await db
    .select({ total: sql<string>`coalesce(sum(${payment.amount}), 0)` })
    .from(payment)
    .where(and(eq(payment.loanId, row.id), eq(payment.status, 'posted')))
  const reference = paymentReferenceOf(clientId)
  return {
    id: row.id,
    applicationId: row.applicationId,
    loanNumber: loanNumberOf(row.id),
    paymentReference: reference,
    virtualAccount: virtualAccountOf(reference),
    state: row.state,
    status: row.status,
    principal: { amount: row.principal },
    amountDue: {
      amount: payoff,
      parts: {
        principal: { amount: b.principal },
        interest: { amount: b.interest },
        fees: { amount: b.fees },
        penalties: { amount: b.penalties },
        penalty: { amount: b.penalties },
      },
    },
    credit: { amount: b.credit },
    paidTotal: { amount: Number(paid?.total ?? 0) },
    contractInterest: { amount: row.interest },
    // Written by the payout: the fee lines in centavos.
    feeLines: row.feeLines as Record<string, number>,
    term: { value: row.term, unit: 'day' as const },
    createdAt: (row.disbursedAt ?? row.createdAt).toISOString(),
    createdAtDate: row.startDate ?? manilaDate(row.createdAt),
    dueDate: row.dueDate,
    finalClosingDate: row.finalClosingDate,
    repaymentInvoice: { dueDate: row.dueDate, dueDays, amount: { amount: payoff } },
    rollovers: await rolloversOf(db, row, today, terms),
    plan: row.plan as 'on_terms' | 'scheduled',
    legalRoom: { amount: legalRoom(facts) },
    extensions: { taken: facts.extensionsTaken, max: terms.extensions.maxCount },
    specialOffers: await scheduleOffersOf(db, row, today, terms),
    ...(await standingView(db, row, today)),
    penaltyTerms: terms.servicing.penalties,
    otherLoans: await otherOpenLoans(db, clientId, row.id, today),
  }
}

/**
 * The loan's standing today, live (domain/loan/penalty.ts `standingOn`): what the daily run will record, so a
 * payment that cleared the overdue instalments shows at once, before the next run says CAUGHT_UP.
 */
async function standingView(db: DbOrTx, row: LoanRow, today: string) {
  if (row.state !== 'active') return { standing: 'current' as const, overdueDays: 0 }
  let oldestUnpaidDueDate: string | null = null
  if (row.plan === 'scheduled') {
    const [oldest] = await db
      .select({ due: sql<string | null>`min(${scheduleInstalment.dueDate})::text` })
      .from(scheduleInstalment)
      .innerJoin(
        paymentSchedule,
        and(eq(paymentSchedule.id, scheduleInstalment.scheduleId), eq(paymentSchedule.status, 'active')),
      )
      .where(
        and(
          eq(scheduleInstalment.loanId, row.id),
          sql`${scheduleInstalment.amount} > ${scheduleInstalment.paidAmount}`,
          sql`${scheduleInstalment.dueDate} < ${today}::date`,
        ),
      )
    oldestUnpaidDueDate = oldest?.due ?? null
  }
  const s = standingOn({ plan: row.plan as LoanPlan, dueDate: row.dueDate, oldestUnpaidDueDate, today })
  return {
    standing: s.overdue ? ('overdue' as const) : ('current' as const),
    overdueDays: daysPastDue(s.overdueSince, today),
  }
}

/** A client's own loan, or 404 (another client's loan does not exist for them). */
export async function ownLoan(db: DbOrTx, clientId: number, loanId: number): Promise<LoanRow> {
  const [row] = await db
    .select()
    .from(loan)
    .where(and(eq(loan.id, loanId), eq(loan.clientId, clientId)))
  if (!row || row.state === 'draft' || row.state === 'cancelled') throw notFound('Loan')
  return row
}

/** The statement of account: every entry, oldest first, with what was owed and held after it. */
export async function statementOf(db: DbOrTx, row: LoanRow, now: Date): Promise<Statement> {
  const today = await businessToday(db, row.clientId, now)
  const entries = await ledgerOfLoan(db, row.id)
  const running: { part: LedgerPart; amount: number }[] = []
  const lines = entries.map((e) => {
    running.push({ part: e.part as LedgerPart, amount: e.amount })
    const after = balancesOf(running)
    return {
      id: e.id,
      date: e.businessDate,
      kind: e.kind as LedgerKind,
      part: e.part as LedgerPart,
      amount: e.amount,
      memo: e.memo,
      paymentId: e.paymentId,
      outstandingAfter: outstandingOf(after),
      creditAfter: after.credit,
    }
  })
  const booked = balancesOf(running)
  const scheduled = await dueScheduleInterest(db, row, today)
  const balances = { ...booked, interest: booked.interest + scheduled }
  const due = dueAccrual(row, balances, today)
  return {
    loanId: row.id,
    loanNumber: loanNumberOf(row.id),
    paymentReference: paymentReferenceOf(row.clientId),
    status: row.status,
    state: row.state,
    principal: row.principal,
    startDate: row.startDate,
    dueDate: row.dueDate,
    asOf: today,
    entries: lines,
    balances: booked,
    payoff: outstandingOf(balances) + (due?.amount ?? 0),
  }
}

/** A client's payments, newest first, a page at a time. */
export async function clientPayments(db: DbOrTx, clientId: number, page: number, perPage: number) {
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(payment)
    .where(eq(payment.clientId, clientId))) as [{ total: number }]
  const rows = await db
    .select()
    .from(payment)
    .where(eq(payment.clientId, clientId))
    .orderBy(desc(payment.id))
    .limit(perPage)
    .offset((page - 1) * perPage)
  const allocations = await allocationOf(
    db,
    rows.map((r) => r.id),
  )
  const items: PaymentView[] = rows.map((r) => {
    const a = allocations.get(r.id)
    return {
      id: r.id,
      amount: r.amount,
      channel: r.channel,
      status: r.status as PaymentView['status'],
      paidAt: r.paidAt.toISOString(),
      postedAt: r.postedAt?.toISOString() ?? null,
      allocation: {
        penalties: a?.penalties ?? 0,
        fees: a?.fees ?? 0,
        interest: a?.interest ?? 0,
        principal: a?.principal ?? 0,
        credit: a?.credit ?? 0,
      },
    }
  })
  return { items, total }
}
