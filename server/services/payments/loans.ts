/**
 * A loan's lifecycle and ledger, inside a transaction (issue 16; docs/decisions/0024). Every change of a loan
 * runs the same way: lock the client's journey row (the one lock all of a client's changes take, in this order),
 * lock the loan row, book the ledger entries, move the loan's statechart (domain/loan/loan-lifecycle.machine.ts)
 * and write its history row, all or nothing. A loan event the statechart refuses rolls everything back (409).
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { DomainError, notFound } from '../../../domain/errors'
import type { JourneyEvent, JourneyStep } from '../../../domain/journey/client-journey.machine'
import {
  accrualDaysBy,
  accrue,
  type Balances,
  type LedgerKind,
  type LedgerPart,
  zeroBalances,
} from '../../../domain/loan/ledger'
import {
  advanceLoan,
  isDefaultedLoanState,
  isOpenLoanState,
  LOAN_MODEL_VERSION,
  type LoanEvent,
  type LoanLeaf,
  type LoanPlan,
  type LoanStanding,
  type LoanState,
  leafOf,
  loanEventDefinitions,
  loanLifecycleMachine,
  loanStatusOf,
  migratePersistedLoan,
  planOf,
  standingOf,
  topStateOf,
} from '../../../domain/loan/loan-lifecycle.machine'
import type { DbOrTx, Tx } from '../../db/client'
import { loan } from '../../db/schema-lending'
import { loanLedgerEntry } from '../../db/schema-payments'
import { paymentSchedule, scheduleInstalment } from '../../db/schema-servicing'
import type { AppDeps } from '../../deps'
import {
  type Actor,
  followInJourney,
  lockJourney,
  logJourneyEvent,
  recordTransition,
} from '../journey/journey'
import { businessToday } from './clock'

export type LoanRow = typeof loan.$inferSelect
export type LedgerRow = typeof loanLedgerEntry.$inferSelect

/** The loan's leaf in the statechart, from `loan.state` and `loan.plan`. */
export function leafOfRow(row: Pick<LoanRow, 'state' | 'plan' | 'standing'>): LoanLeaf {
  const value = leafOf(row.state as LoanState, row.plan as LoanPlan, row.standing as LoanStanding)
  const persisted = migratePersistedLoan({ version: LOAN_MODEL_VERSION, value })
  if (!persisted) throw new Error(`loan.state/plan is not a state of the loan lifecycle`)
  return persisted.value
}

/** The loan's top-level state (what its status code derives from). */
export function stateOf(row: Pick<LoanRow, 'state' | 'plan' | 'standing'>): LoanState {
  return topStateOf(leafOfRow(row))
}

/** 409: the change does not fit the loan's state. */
export class LoanStateMismatch extends DomainError {
  constructor(leaf: LoanLeaf, event: LoanEvent['type']) {
    super(
      'conflict',
      'loanStateMismatch',
      `${loanEventDefinitions[event].label} is not possible while the loan is ${leaf.replace('.', ', ').replace('_', ' ')}.`,
    )
  }
}

export async function lockLoan(tx: Tx, loanId: number): Promise<LoanRow> {
  const [row] = await tx.select().from(loan).where(eq(loan.id, loanId)).for('update')
  if (!row) throw notFound('Loan')
  return row
}

/** Moves a locked loan by an event: the state, its status code and the history row, or a 409. */
export async function moveLoan(
  tx: Tx,
  row: LoanRow,
  event: LoanEvent,
  by: Actor,
  now: Date,
  set: Partial<LoanRow> = {},
) {
  const from = leafOfRow(row)
  const next = advanceLoan({ version: LOAN_MODEL_VERSION, value: from }, event)
  if (!next) throw new LoanStateMismatch(from, event.type)
  const to = next.value
  const [updated] = await tx
    .update(loan)
    .set({
      ...set,
      state: topStateOf(to),
      // A paid loan keeps the plan it was repaid on (REOPENED_ON_SCHEDULE reads it).
      plan: planOf(to) ?? row.plan,
      standing: standingOf(to) ?? 'current',
      // The first day of an overdue spell; cleared when the loan is current again (or leaves `active`).
      overdueSince: standingOf(to) === 'overdue' ? (row.overdueSince ?? set.overdueSince ?? null) : null,
      status: loanStatusOf(to),
      version: row.version + 1,
    })
    .where(eq(loan.id, row.id))
    .returning()
  await recordTransition(
    tx,
    {
      machine: loanLifecycleMachine.id,
      subjectId: row.id,
      clientId: row.clientId,
      modelVersion: LOAN_MODEL_VERSION,
      from,
      to,
      event: event.type,
    },
    by,
    now,
  )
  return updated!
}

export interface NewEntry {
  kind: LedgerKind
  part: LedgerPart
  amount: number
  paymentId?: number | null
  refundId?: number | null
  reversesId?: number | null
  memo?: string | null
}

export async function bookEntries(
  tx: Tx,
  row: LoanRow,
  entries: NewEntry[],
  businessDate: string,
  now: Date,
) {
  const lines = entries.filter((e) => e.amount !== 0)
  if (!lines.length) return []
  return tx
    .insert(loanLedgerEntry)
    .values(
      lines.map((e) => ({
        loanId: row.id,
        clientId: row.clientId,
        kind: e.kind,
        part: e.part,
        amount: e.amount,
        paymentId: e.paymentId ?? null,
        refundId: e.refundId ?? null,
        reversesId: e.reversesId ?? null,
        memo: e.memo ?? null,
        businessDate,
        at: now,
      })),
    )
    .returning()
}

/** The balances of a loan from its ledger: one aggregate over its entries. */
export async function balancesOfLoan(db: DbOrTx, loanId: number): Promise<Balances> {
  const rows = await db
    .select({ part: loanLedgerEntry.part, total: sql<string>`coalesce(sum(${loanLedgerEntry.amount}), 0)` })
    .from(loanLedgerEntry)
    .where(eq(loanLedgerEntry.loanId, loanId))
    .groupBy(loanLedgerEntry.part)
  const balances = zeroBalances()
  for (const r of rows) balances[r.part as LedgerPart] = Number(r.total)
  return balances
}

export async function ledgerOfLoan(db: DbOrTx, loanId: number): Promise<LedgerRow[]> {
  return db
    .select()
    .from(loanLedgerEntry)
    .where(eq(loanLedgerEntry.loanId, loanId))
    .orderBy(asc(loanLedgerEntry.id))
}

/**
 * The interest accrual a loan is due by `today` (not booked): days the money was out (not on hold), on the
 * principal outstanding now. Only an open loan accrues.
 */
export function dueAccrual(row: LoanRow, balances: Balances, today: string) {
  const state = stateOf(row)
  if (state !== 'active' || !row.startDate) return null
  const target = accrualDaysBy(row.startDate, today, row.term, row.heldDays)
  const { amount, next } = accrue(
    { principal: row.principal, interest: row.interest, term: row.term },
    { accruedDays: row.accruedDays, basis: row.accrualBasis },
    balances.principal,
    target,
  )
  return next.accruedDays === row.accruedDays ? null : { amount, next }
}

/**
 * The interest the contract still has to accrue from the booked days to the end of its term, on the principal
 * owed now (what a schedule agreed today takes over: domain/loan/schedule.ts).
 */
export function accrualToTermEnd(row: LoanRow, balances: Balances) {
  const { amount, next } = accrue(
    { principal: row.principal, interest: row.interest, term: row.term },
    { accruedDays: row.accruedDays, basis: row.accrualBasis },
    balances.principal,
    row.term,
  )
  return next.accruedDays === row.accruedDays ? null : { amount, next }
}

/**
 * A schedule's interest due by `today` and not booked yet: the interest of every instalment whose period has
 * started (domain/loan/schedule.ts), minus what is booked. Only a loan on a schedule has any.
 */
export async function dueScheduleInterest(db: DbOrTx, row: LoanRow, today: string): Promise<number> {
  if (row.plan !== 'scheduled' || !isOpenLoanState(stateOf(row))) return 0
  const totals = await scheduleInterestTotals(db, row.id, today)
  return Math.max(0, totals.started - totals.booked)
}

/** A schedule in force's interest: planned in all, of the periods started by `today`, and booked. */
export async function scheduleInterestTotals(db: DbOrTx, loanId: number, today: string) {
  const [planned] = await db
    .select({
      all: sql<string>`coalesce(sum(${scheduleInstalment.interest}), 0)`,
      started: sql<string>`coalesce(sum(${scheduleInstalment.interest}) filter (where ${scheduleInstalment.periodStart} <= ${today}), 0)`,
    })
    .from(scheduleInstalment)
    .innerJoin(
      paymentSchedule,
      and(eq(paymentSchedule.id, scheduleInstalment.scheduleId), eq(paymentSchedule.status, 'active')),
    )
    .where(eq(scheduleInstalment.loanId, loanId))
  const [booked] = await db
    .select({ total: sql<string>`coalesce(sum(${loanLedgerEntry.amount}), 0)` })
    .from(loanLedgerEntry)
    .where(and(eq(loanLedgerEntry.loanId, loanId), eq(loanLedgerEntry.kind, 'schedule_interest')))
  return {
    all: Number(planned?.all ?? 0),
    started: Number(planned?.started ?? 0),
    booked: Number(booked?.total ?? 0),
  }
}

/** Books the interest accrued (and a schedule's interest due) up to `today` on a locked loan; answers the balances after it. */
export async function accrueLocked(tx: Tx, row: LoanRow, today: string, now: Date) {
  let balances = await balancesOfLoan(tx, row.id)
  const scheduled = await dueScheduleInterest(tx, row, today)
  if (scheduled > 0) {
    await bookEntries(
      tx,
      row,
      [{ kind: 'schedule_interest', part: 'interest', amount: scheduled, memo: 'schedule period' }],
      today,
      now,
    )
    balances = { ...balances, interest: balances.interest + scheduled }
  }
  const due = dueAccrual(row, balances, today)
  if (!due) return { row, balances }
  return bookAccrual(tx, row, balances, due, today, now)
}

/** Books an accrual computed by `dueAccrual` or `accrualToTermEnd` and moves the loan's running basis. */
export async function bookAccrual(
  tx: Tx,
  row: LoanRow,
  balances: Balances,
  due: { amount: number; next: { accruedDays: number; basis: bigint } },
  today: string,
  now: Date,
) {
  if (due.amount > 0)
    await bookEntries(
      tx,
      row,
      [
        {
          kind: 'interest_accrual',
          part: 'interest',
          amount: due.amount,
          memo: `days ${row.accruedDays + 1}-${due.next.accruedDays}`,
        },
      ],
      today,
      now,
    )
  const [updated] = await tx
    .update(loan)
    .set({ accruedDays: due.next.accruedDays, accrualBasis: due.next.basis, version: row.version + 1 })
    .where(eq(loan.id, row.id))
    .returning()
  return { row: updated!, balances: { ...balances, interest: balances.interest + due.amount } }
}

/** The loan a client's payments go to: the open one (oldest first), else the newest paid one (its credit). */
export async function loanForPayments(db: DbOrTx, clientId: number): Promise<LoanRow | null> {
  const rows = await db
    .select()
    .from(loan)
    .where(
      and(
        eq(loan.clientId, clientId),
        inArray(loan.state, ['active', 'on_hold', 'paid', 'sold_debt', 'write_off']),
      ),
    )
    .orderBy(asc(loan.createdAt))
  // A sold or written-off loan still takes payments (forwarded to the agency, or a recovery) before a paid one.
  return (
    rows.find((r) => isOpenLoanState(stateOf(r))) ??
    rows.find((r) => isDefaultedLoanState(stateOf(r))) ??
    rows.at(-1) ??
    null
  )
}

/**
 * Runs `write` on a locked loan inside one transaction that first takes the client's journey lock; `write`
 * answers the loan event to record (or null: nothing moves) and, optionally, the journey event that follows it.
 */
export async function loanTransaction<T>(
  deps: Pick<AppDeps, 'database' | 'logger'>,
  loanId: number,
  by: Actor,
  now: Date,
  write: (
    tx: Tx,
    row: LoanRow,
    today: string,
  ) => Promise<{ result: T; event: LoanEvent | null; follow?: JourneyEvent; set?: Partial<LoanRow> }>,
): Promise<T> {
  const [owner] = await deps.database.db
    .select({ clientId: loan.clientId })
    .from(loan)
    .where(eq(loan.id, loanId))
  if (!owner) throw notFound('Loan')
  const outcome = await deps.database.db.transaction(async (tx) => {
    const journey = await lockJourney(tx, owner.clientId, now)
    const locked = await lockLoan(tx, loanId)
    const today = await businessToday(tx, owner.clientId, now)
    const { result, event, follow, set } = await write(tx, locked, today)
    if (event) {
      const current = await lockLoan(tx, loanId)
      await moveLoan(tx, current, event, by, now, set)
    }
    let moved: { event: JourneyEvent; from: JourneyStep; to: JourneyStep } | null = null
    if (follow) {
      const to = await followInJourney(tx, owner.clientId, journey, follow, by, now)
      if (to) moved = { event: follow, from: journey.persisted.value, to }
    }
    return { result, moved, event }
  })
  if (outcome.event)
    deps.logger.info(
      { loanId, clientId: owner.clientId, event: 'loan.event', loanEvent: outcome.event.type, by: by.kind },
      'loan event',
    )
  if (outcome.moved)
    logJourneyEvent(deps, owner.clientId, outcome.moved.event, outcome.moved.from, outcome.moved.to, by)
  return outcome.result
}
