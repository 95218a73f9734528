/**
 * Shared steps of the servicing property and concurrency tests (issue 16): the back office's calls (manual
 * posting, reversal, the sandbox clock), and a snapshot of one loan read from the database and the API, with
 * today's balances worked out here from the loan row and its ledger, apart from the server's own accrual code.
 */
import { asc, eq } from 'drizzle-orm'
import type { Statement } from '../../domain/contract/payments'
import type { Balances } from '../../domain/loan/ledger'
import { paymentReferenceOf } from '../../domain/payments/reference'
import { loan } from '../../server/db/schema-lending'
import { creditRefund, loanLedgerEntry, payment } from '../../server/db/schema-payments'
import { proposeAndApprove } from '../support/maker-checker'
import { call, type SignedUp, type TestApp } from './identity-helpers'

export type LoanRow = typeof loan.$inferSelect
export type EntryRow = typeof loanLedgerEntry.$inferSelect
export type PaymentRow = typeof payment.$inferSelect
export type RefundRow = typeof creditRefund.$inferSelect

export const owedParts = ['penalties', 'fees', 'interest', 'principal'] as const
export const allParts = [...owedParts, 'credit'] as const

export const outstanding = (b: Balances) => b.penalties + b.fees + b.interest + b.principal

export interface ActiveLoanAnswer {
  id: number
  state: string
  amountDue: { amount: number; parts: Record<(typeof owedParts)[number], { amount: number }> }
  credit: { amount: number }
}

/** The back office's calls a servicing test makes, as the admin. */
export function backOffice(t: TestApp, admin: string) {
  return {
    pay: (c: SignedUp, amount: number, key: string) =>
      call<{ id: number; status: string; amount: number }>(
        t,
        'POST',
        '/private/back-office/payments',
        { reference: paymentReferenceOf(c.clientId), amount, channel: 'bayad', idempotencyKey: key },
        { token: admin },
      ),
    // Maker-checker (issue 19 item 5): proposed by the admin, approved by a second administrator.
    reverse: (paymentId: number, reason = 'Chargeback from the bank') =>
      proposeAndApprove<{ id: number; status: string }>(
        t,
        admin,
        `/private/back-office/payments/${paymentId}/reversal`,
        { reason },
      ),
    clock: (c: SignedUp, days: number) =>
      call<{ clientToday: string; daysRun: number }>(
        t,
        'POST',
        '/private/back-office/sandbox/clock',
        { clientId: c.clientId, days },
        { token: admin },
      ),
  }
}

/** The client's loan (the one a fresh `loan_page` client has). */
export async function loanOf(t: TestApp, c: SignedUp): Promise<LoanRow> {
  const rows = await t.database.db.select().from(loan).where(eq(loan.clientId, c.clientId))
  if (rows.length !== 1) throw new Error(`expected one loan for client ${c.clientId}, found ${rows.length}`)
  return rows[0]!
}

const sumBy = (entries: readonly { part: string; amount: number }[]): Balances => {
  const b: Balances = { principal: 0, interest: 0, fees: 0, penalties: 0, credit: 0 }
  for (const e of entries) b[e.part as keyof Balances] += e.amount
  return b
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)

/** The contract's interest for a basis (Σ principal outstanding × days), floored, at most the contract's. */
export function accruedForBasis(
  row: Pick<LoanRow, 'principal' | 'interest' | 'term'>,
  basis: bigint,
): number {
  const exact = (basis * BigInt(row.interest)) / (BigInt(row.principal) * BigInt(row.term))
  return Number(exact < BigInt(row.interest) ? exact : BigInt(row.interest))
}

export interface LoanSnapshot {
  row: LoanRow
  entries: EntryRow[]
  payments: PaymentRow[]
  refunds: RefundRow[]
  /** The sums of the ledger. */
  booked: Balances
  /** The booked balances plus the interest accrued up to today not booked yet (worked out here). */
  today: Balances
  /** Σ principal outstanding × days up to today, and the interest it makes: what accrued since the payout. */
  basisToday: bigint
  totalAccrued: number
  /** Days of the term accrued by today (booked or not). */
  targetDays: number
  /** The statement of account (the API), today's business day among it. */
  statement: Statement
  /** GET /private/client/loan/active. */
  active: ActiveLoanAnswer | null
  /** The journey's step. */
  step: string
}

/** Everything about one loan, from the database and from the client's API. */
export async function snapshotOf(t: TestApp, c: SignedUp, loanId: number): Promise<LoanSnapshot> {
  const db = t.database.db
  const statement = await call<Statement>(t, 'GET', `/private/client/loan/${loanId}/statement`, undefined, {
    token: c.token,
  })
  if (statement.status !== 200) throw new Error(`statement answered ${statement.status}`)
  const active = await call<ActiveLoanAnswer | null>(t, 'GET', '/private/client/loan/active', undefined, {
    token: c.token,
  })
  const flow = await call<{ step: string }>(t, 'GET', '/private/client/flow', undefined, { token: c.token })
  const [row] = await db.select().from(loan).where(eq(loan.id, loanId))
  const entries = await db
    .select()
    .from(loanLedgerEntry)
    .where(eq(loanLedgerEntry.loanId, loanId))
    .orderBy(asc(loanLedgerEntry.id))
  const payments = await db.select().from(payment).where(eq(payment.loanId, loanId)).orderBy(asc(payment.id))
  const refunds = await db.select().from(creditRefund).where(eq(creditRefund.loanId, loanId))
  const booked = sumBy(entries)
  // Only an active loan accrues: up to today's day of the term (the payout day counted, days on hold not).
  const target =
    row!.state === 'active' && row!.startDate
      ? Math.max(
          0,
          Math.min(row!.term, daysBetween(row!.startDate, statement.body.data.asOf) + 1 - row!.heldDays),
        )
      : row!.accruedDays
  const basisToday =
    row!.accrualBasis + BigInt(Math.max(0, booked.principal)) * BigInt(Math.max(0, target - row!.accruedDays))
  const totalAccrued = accruedForBasis(row!, basisToday)
  const today = {
    ...booked,
    interest: booked.interest + totalAccrued - accruedForBasis(row!, row!.accrualBasis),
  }
  return {
    row: row!,
    entries,
    payments,
    refunds,
    booked,
    today,
    basisToday,
    totalAccrued,
    targetDays: target,
    statement: statement.body.data,
    active: active.body.data,
    step: flow.body.data.step,
  }
}

/** The signed change each part got from a payment's entries of some kinds (all kinds when none are named). */
export const effectOf = (entries: readonly EntryRow[], paymentId: number, kinds?: readonly string[]) =>
  sumBy(entries.filter((e) => e.paymentId === paymentId && (!kinds || kinds.includes(e.kind))))

/** How many entries of each kind a ledger holds. */
export const kindCounts = (entries: readonly EntryRow[]) => {
  const counts: Record<string, number> = {}
  for (const e of entries) counts[e.kind] = (counts[e.kind] ?? 0) + 1
  return counts
}
