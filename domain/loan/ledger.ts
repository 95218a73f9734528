/**
 * The loan ledger's arithmetic, pure (docs/decisions/0024-ledger-payments-and-allocation.md). The server keeps
 * every money movement of a loan as an append-only entry; everything here derives from those entries or
 * decides the next ones, in integer centavos (BigInt where a product could pass 2^53).
 *
 * An entry says by how much it changes one part of the loan's balance:
 * - principal, interest, fees, penalties: what the client owes (a disbursement or an accrual adds, an
 *   allocation of a payment subtracts);
 * - credit: what Hiram owes the client (an overpayment adds, a refund subtracts).
 * A reversal is the same entries again with the opposite sign, so history is never edited.
 */

import { daysBetween } from '../pricing/manila-date'

export const ledgerParts = ['principal', 'interest', 'fees', 'penalties', 'credit'] as const
export type LedgerPart = (typeof ledgerParts)[number]

/** What a loan owes by part, and what it holds for the client. */
export type Balances = Record<LedgerPart, number>

export const ledgerKinds = [
  /** The money paid out: principal. */
  'disbursement',
  /** A fee of the contract, booked when the money is paid out. */
  'fee',
  /** Interest for the days the money was out, booked up to today before a payment and by the daily run. */
  'interest_accrual',
  /** An extension's fee, booked by the payment that pays it (issue 17): the whole price of the added days. */
  'extension_fee',
  /** A payment schedule's interest for one instalment's period, booked when the period starts (issue 17). */
  'schedule_interest',
  /**
   * A late-payment penalty (issue 18), booked by the daily servicing run for the days past due after the grace
   * days: at most 5% a month of the overdue amount, never past the lifetime cap (domain/loan/penalty.ts).
   */
  'penalty',
  /**
   * The outstanding of a loan whose debt was sold (issue 18): each part leaves Hiram's books (to 0) when the
   * receivable is assigned to the collection agency. The price the agency paid is not the client's business.
   */
  'debt_sale',
  /** The outstanding of a loan written off as a loss (issue 18): each part to 0, with the reason in the memo. */
  'write_off',
  /** A payment on a written-off loan (issue 18): money recovered after the loss (docs/decisions/0029). */
  'recovery',
  /** A part of a payment, applied to one part of what is owed. */
  'allocation',
  /** The part of a payment above what was owed: the client's credit. */
  'overpayment',
  /** A residue of at most RESIDUE_WAIVER_CENTAVOS left by a payment, waived so the loan closes. */
  'residue_waiver',
  /** Credit paid back to the client's payout account. */
  'refund',
  /** The compensating entry of an earlier one (a reversed payment, a returned refund). */
  'reversal',
] as const
export type LedgerKind = (typeof ledgerKinds)[number]

export interface LedgerLine {
  part: LedgerPart
  /** Signed centavos: the change of that part's balance. */
  amount: number
}

export const zeroBalances = (): Balances => ({ principal: 0, interest: 0, fees: 0, penalties: 0, credit: 0 })

/** The balances a list of entries leaves. */
export function balancesOf(lines: readonly LedgerLine[]): Balances {
  const balances = zeroBalances()
  for (const line of lines) balances[line.part] += line.amount
  return balances
}

/**
 * The kinds that charge the client: what the lifetime cap of 100% of principal counts (SEC MC 3 s.2022),
 * penalties included (issue 18).
 */
export const chargeKinds = [
  'interest_accrual',
  'fee',
  'extension_fee',
  'schedule_interest',
  'penalty',
] as const
export type ChargeKind = (typeof chargeKinds)[number]

/** What the client still owes: every receivable part. */
export const outstandingOf = (b: Balances) => b.principal + b.interest + b.fees + b.penalties

/**
 * The order a payment is applied in: penalties, then fees, then interest, then principal (Apache Fineract's
 * default, and Civil Code Art. 1253: principal is not paid before the interest). With one invoice per loan
 * there is one due date, so "oldest due first" within a part holds trivially; schedules (issue 17) allocate
 * instalment by instalment in this order.
 */
export const allocationOrder = ['penalties', 'fees', 'interest', 'principal'] as const
export type AllocatedPart = (typeof allocationOrder)[number]

export interface Allocation {
  parts: Record<AllocatedPart, number>
  /** What was left after every part was paid: the client's credit. */
  credit: number
}

/** Splits a payment over what is owed, in allocation order; the rest is credit. */
export function allocate(balances: Balances, amount: number): Allocation {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new RangeError(`payment must be positive: ${amount}`)
  let left = amount
  const parts = { penalties: 0, fees: 0, interest: 0, principal: 0 }
  for (const part of allocationOrder) {
    const take = Math.min(left, Math.max(0, balances[part]))
    parts[part] = take
    left -= take
  }
  return { parts, credit: left }
}

/** The entries an allocation books (zero lines left out). */
export function allocationLines(allocation: Allocation): { kind: LedgerKind; line: LedgerLine }[] {
  const lines: { kind: LedgerKind; line: LedgerLine }[] = []
  for (const part of allocationOrder)
    if (allocation.parts[part] > 0)
      lines.push({ kind: 'allocation', line: { part, amount: -allocation.parts[part] } })
  if (allocation.credit > 0)
    lines.push({ kind: 'overpayment', line: { part: 'credit', amount: allocation.credit } })
  return lines
}

/**
 * A residue this small, left by a payment that meant to settle the loan, is waived so the loan closes instead of
 * chasing a borrower for centavos (a payment center rounds to the peso; an e-wallet fee may shave a few
 * centavos). It is waived, never charged: a waiver entry per part, in the lender's books as a cost.
 */
export const RESIDUE_WAIVER_CENTAVOS = 100

/** The waiver lines for a residue (nothing when it is 0 or larger than the threshold). */
export function residueWaiver(balances: Balances): LedgerLine[] {
  const outstanding = outstandingOf(balances)
  if (outstanding <= 0 || outstanding > RESIDUE_WAIVER_CENTAVOS) return []
  return allocationOrder
    .filter((part) => balances[part] > 0)
    .map((part) => ({ part, amount: -balances[part] }))
}

// ---------------------------------------------------------------------------------------------------------
// Interest accrual

/** A loan's interest terms: the contract's principal, interest and term (days). */
export interface InterestTerms {
  principal: number
  interest: number
  term: number
}

/**
 * How many of the term's days have accrued by `today`: every Manila day the money was out, the payout day
 * counted, minus the days on hold, never more than the term (interest stops at the contract's interest;
 * after the due date penalties, not interest, apply: issue 18).
 */
export function accrualDaysBy(startDate: string, today: string, term: number, heldDays: number): number {
  const elapsed = daysBetween(startDate, today)
  return Math.max(0, Math.min(term, elapsed + 1 - heldDays))
}

/** The interest a loan has accrued in all, from its basis: the sum of the principal outstanding over the accrued days. */
export function interestForBasis(terms: InterestTerms, basis: bigint): number {
  if (terms.principal <= 0 || terms.term <= 0) return 0
  const total = (basis * BigInt(terms.interest)) / (BigInt(terms.principal) * BigInt(terms.term))
  return Math.min(terms.interest, Number(total))
}

export interface AccrualState {
  /** Days of the term accrued so far. */
  accruedDays: number
  /** Σ principal outstanding (centavos) over those days. */
  basis: bigint
}

/**
 * Interest from the accrued days to `targetDays`, on the principal outstanding now. Simple interest, computed
 * from the running basis rather than day by day, so splitting the days differently (a daily run, or one
 * catch-up after downtime) books the same total, and an untouched loan accrues exactly the contract's interest
 * by its due date. The floor leaves any fraction of a centavo with the borrower.
 */
export function accrue(
  terms: InterestTerms,
  state: AccrualState,
  principalOutstanding: number,
  targetDays: number,
): { amount: number; next: AccrualState } {
  if (targetDays <= state.accruedDays) return { amount: 0, next: state }
  const days = targetDays - state.accruedDays
  const basis = state.basis + BigInt(Math.max(0, principalOutstanding)) * BigInt(days)
  const amount = interestForBasis(terms, basis) - interestForBasis(terms, state.basis)
  return { amount, next: { accruedDays: targetDays, basis } }
}
