/**
 * How much a client may borrow (issue 18 item 6), from their repayment history: one pure function the client
 * view, the application service, the offer call and the decision engine all read, with the explanation the
 * decision stores in its reasons. docs/decisions/0030-additional-and-repeat-loans.md.
 *
 * - A client who never repaid a loan has the first-loan limit (the new client's max amount).
 * - Each loan repaid on time (never a day overdue) raises the limit by `onTimeStep` (the steps: configuration
 *   'limits', `limitGrowthSchema`); one repaid late by at most
 *   `lateToleranceDays` raises it by `lateStep` only; one repaid later than that raises it by nothing. The limit
 *   never passes the repeat maximum (the repeat client's max amount, and the global `amountTo`).
 * - A loan sold to a collection agency or written off freezes the limit at 0: no new loan, ever (a person in the
 *   back office may still decide otherwise, outside this rule).
 * - What the client may borrow now is the limit less the principal still owed on open loans, at least 0.
 *
 * All money is integer centavos.
 */
import * as v from 'valibot'
import type { CalculatorConfig } from '../calculator-config'
import { formatPhp } from '../format'

const centavos = v.pipe(v.number(), v.integer(), v.minValue(0))

/**
 * The growth steps: configuration document 'limits' (seeded with `defaultLimitGrowth`, migration 0015). Kept out
 * of the calculator configuration the browser loads: only the server computes a limit.
 */
/** The configuration document that holds the steps. */
export const LIMITS_CONFIG_KEY = 'limits'

export const limitGrowthSchema = v.object({
  /** Added to the limit for each loan repaid without a day overdue. */
  onTimeStep: centavos,
  /** Added for a loan repaid late by at most `lateToleranceDays` (0: a late repayment never raises it). */
  lateStep: centavos,
  /** Days late beyond which a repaid loan raises the limit by nothing. */
  lateToleranceDays: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(365)),
})
export type LimitGrowth = v.InferOutput<typeof limitGrowthSchema>

/** PHP 2,000 per loan repaid on time, PHP 500 for one up to 7 days late, nothing beyond. */
export const defaultLimitGrowth: LimitGrowth = {
  onTimeStep: 2_000_00,
  lateStep: 500_00,
  lateToleranceDays: 7,
}

/** One closed loan of the client's, in the order they were closed. */
export interface ClosedLoanHistory {
  outcome: 'paid' | 'sold_debt' | 'write_off'
  /** Days the loan was repaid after its (last) due date; 0 when never overdue. */
  daysLate: number
}

export interface ClientLimit {
  /** The most the client may owe in principal across open loans, centavos. */
  limit: number
  /** Whether a defaulted loan froze the limit at 0. */
  frozen: boolean
  /** How the limit was reached, one sentence per step, for the decision's reasons and the back office. */
  explanation: string[]
}

/** The first-loan limit and the repeat maximum, both within the global `amountTo`. */
export function limitBounds(calculator: CalculatorConfig) {
  const { amountTo } = calculator.amountLimits
  const first = Math.min(calculator.initialStates.new.maxAmount, amountTo)
  const repeatMax = Math.max(first, Math.min(calculator.initialStates.repeated.maxAmount, amountTo))
  return { first, repeatMax }
}

/** The step a repaid loan adds: on time, a little late, or too late. */
export function stepFor(daysLate: number, growth: LimitGrowth): number {
  if (daysLate <= 0) return growth.onTimeStep
  return daysLate <= growth.lateToleranceDays ? growth.lateStep : 0
}

/** The client's limit from their closed loans (see the file comment). */
export function clientLimit(
  history: readonly ClosedLoanHistory[],
  calculator: CalculatorConfig,
  growth: LimitGrowth = defaultLimitGrowth,
): ClientLimit {
  const { first, repeatMax } = limitBounds(calculator)
  const defaulted = history.filter((h) => h.outcome !== 'paid')
  if (defaulted.length) {
    const what = defaulted.some((h) => h.outcome === 'sold_debt')
      ? 'sold to a collection agency'
      : 'written off'
    return {
      limit: 0,
      frozen: true,
      explanation: [`A loan was ${what}: the limit is frozen at ${formatPhp(0)}.`],
    }
  }
  let limit = first
  const explanation = [`First-loan limit: ${formatPhp(first)}.`]
  history.forEach((h, i) => {
    const step = stepFor(h.daysLate, growth)
    const before = limit
    limit = Math.min(repeatMax, limit + step)
    const how =
      h.daysLate <= 0
        ? 'repaid on time'
        : `repaid ${h.daysLate} day${h.daysLate === 1 ? '' : 's'} late${step === 0 ? ` (more than ${growth.lateToleranceDays})` : ''}`
    const change = limit > before ? `+${formatPhp(limit - before)}` : 'no increase'
    const capped =
      before + step > repeatMax && step > 0 ? `, capped at the repeat maximum ${formatPhp(repeatMax)}` : ''
    explanation.push(`Loan ${i + 1} ${how}: ${change}${capped} -> ${formatPhp(limit)}.`)
  })
  return { limit, frozen: false, explanation }
}

/**
 * What the client may borrow now: the limit less the principal owed on open loans, at least 0. With the most
 * loans already open (`MAX_OPEN_LOANS`, domain/loan/additional-loan.ts), nothing.
 */
export function availableAmount(
  limit: ClientLimit,
  openPrincipal: number,
  openLoans: number,
  maxOpenLoans: number,
): number {
  if (limit.frozen || openLoans >= maxOpenLoans) return 0
  return Math.max(0, limit.limit - Math.max(0, openPrincipal))
}
