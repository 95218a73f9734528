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
  isOpenLoanState,
  LOAN_MODEL_VERSION,
  type LoanEvent,
  type LoanState,
  loanEventDefinitions,
  loanLifecycleMachine,
  loanStatusOf,
  migratePersistedLoan,
} from '../../../domain/loan/loan-lifecycle.machine'
import type { DbOrTx, Tx } from '../../db/client'
import { loan } from '../../db/schema-lending'
import { loanLedgerEntry } from '../../db/schema-payments'
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

export function stateOf(row: Pick<LoanRow, 'state'>): LoanState {
  const persisted = migratePersistedLoan({ version: LOAN_MODEL_VERSION, value: row.state })
  if (!persisted) throw new Error(`loan.state is not a state of the loan lifecycle`)
  return persisted.value
}

/** 409: the change does not fit the loan's state. */
export class LoanStateMismatch extends DomainError {
  constructor(state: LoanState, event: LoanEvent['type']) {
    super(
      'conflict',
      'loanStateMismatch',
      `${loanEventDefinitions[event].label} is not possible while the loan is ${state}.`,
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
  const from = stateOf(row)
  const next = advanceLoan({ version: LOAN_MODEL_VERSION, value: from }, event)
  if (!next) throw new LoanStateMismatch(from, event.type)
  const [updated] = await tx
    .update(loan)
    .set({ ...set, state: next.value, status: loanStatusOf(next.value), version: row.version + 1 })
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
      to: next.value,
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

/** Books the interest accrued up to `today` on a locked loan; answers the balances after it. */
export async function accrueLocked(tx: Tx, row: LoanRow, today: string, now: Date) {
  const balances = await balancesOfLoan(tx, row.id)
  const due = dueAccrual(row, balances, today)
  if (!due) return { row, balances }
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
    .where(and(eq(loan.clientId, clientId), inArray(loan.state, ['active', 'on_hold', 'paid'])))
    .orderBy(asc(loan.createdAt))
  return rows.find((r) => isOpenLoanState(stateOf(r))) ?? rows.at(-1) ?? null
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
