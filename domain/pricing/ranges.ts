/**
 * The amounts and terms an offer may be asked for, derived from the calculator configuration. One function
 * serves both the request validator (what the API accepts) and the pricing-config validator (where the worst
 * cases are looked for), so the two can never disagree about the range.
 */
import type { CalculatorConfig } from '../calculator-config'
import type { ClientKind } from '../offer'
import { floorToGrid, lastOnGrid } from './grid'

export interface Grid {
  /** First allowed value. */
  min: number
  /** Last allowed value ON the grid (the configured maximum rounded down to the step). */
  max: number
  interval: number
}

export interface OfferRange {
  kind: ClientKind
  additionalLoan: boolean
  amount: Grid
  term: Grid
}

/** Whose limits a kind uses: a guest would become a new client, so a guest gets the new-client limits. */
export const limitsOf = (kind: ClientKind) => (kind === 'repeat' ? 'repeated' : 'new')

/** The range with its max moved to the last grid point (domain/pricing/grid.ts); undefined when empty. */
function grid(min: number, max: number, interval: number): Grid | undefined {
  if (!(interval >= 1) || max < min) return undefined
  return { min, max: lastOnGrid({ min, max, interval }), interval }
}

/**
 * The range for a kind. Both the global limit (amountLimits) and the kind's own (initialStates) bind, so the
 * minimum is the larger of the two and the maximum the smaller. An additional loan (a client with an active
 * loan, spec section 5) starts at minAdditionLoan instead; guests never have one.
 */
export function offerRange(
  calculator: CalculatorConfig,
  kind: ClientKind,
  additionalLoan = false,
): OfferRange | undefined {
  const { termLimits, amountLimits, initialStates } = calculator
  const state = initialStates[limitsOf(kind)]
  const amountMin = additionalLoan
    ? amountLimits.minAdditionLoan
    : Math.max(amountLimits.minMainLoan, state.minAmount)
  const amountMax = Math.min(amountLimits.amountTo, state.maxAmount)
  const [termMin, termMaxConfigured] =
    kind === 'repeat'
      ? [termLimits.minTermForRepeated, termLimits.maxTermForRepeated]
      : [termLimits.minTermForNew, termLimits.maxTermForNew]
  const termMax = Math.min(termMaxConfigured, state.maxTerm ?? Number.POSITIVE_INFINITY)
  const amount = grid(amountMin, amountMax, amountLimits.interval)
  const term = grid(termMin, termMax, termLimits.interval)
  if (!amount || !term || amount.min < 1) return undefined
  return { kind, additionalLoan, amount, term }
}

/** Every non-empty range an offer can come from. Guests share the new-client range, so it is listed once. */
export function allOfferRanges(calculator: CalculatorConfig): OfferRange[] {
  const ranges: (OfferRange | undefined)[] = [
    offerRange(calculator, 'new'),
    offerRange(calculator, 'new', true),
    offerRange(calculator, 'repeat'),
    offerRange(calculator, 'repeat', true),
  ]
  return ranges.filter((range): range is OfferRange => range !== undefined)
}

/** Every allowed value of a range, in order: the min, then each grid point above it up to the max. */
export function gridPoints(g: Grid): number[] {
  const points: number[] = [g.min]
  for (let value = floorToGrid(g.min, g.interval) + g.interval; value <= g.max; value += g.interval)
    points.push(value)
  return points
}
