/**
 * The calculator configuration of spec section 3. All money is integer centavos; terms are days.
 */
import * as v from 'valibot'
import { formatPhp } from './peso'

const centavos = v.pipe(v.number(), v.integer(), v.minValue(0))
const days = v.pipe(v.number(), v.integer(), v.minValue(1))

export const initialStateSchema = v.object({
  initialAmount: centavos,
  maxAmount: centavos,
  minAmount: centavos,
  maxTerm: v.optional(days),
})

const calculatorConfigShape = v.object({
  termLimits: v.object({
    minTermForNew: days,
    maxTermForNew: days,
    minTermForRepeated: days,
    maxTermForRepeated: days,
    interval: days,
  }),
  amountLimits: v.object({
    minMainLoan: centavos,
    amountTo: centavos,
    minAdditionLoan: centavos,
    interval: v.pipe(centavos, v.minValue(1)),
  }),
  initialStates: v.object({ new: initialStateSchema, repeated: initialStateSchema }),
})
type Shape = v.InferOutput<typeof calculatorConfigShape>

export const calculatorConfigSchema = v.pipe(
  calculatorConfigShape,
  v.check(
    (c) =>
      c.termLimits.minTermForNew <= c.termLimits.maxTermForNew &&
      c.termLimits.minTermForRepeated <= c.termLimits.maxTermForRepeated,
    'The minimum term must not exceed the maximum term.',
  ),
  v.check(
    (c) => c.amountLimits.minMainLoan <= c.amountLimits.amountTo,
    'The minimum amount must not exceed the maximum amount.',
  ),
  ...onGridChecks(),
)

/**
 * The calculator's slider and the server's offer validation share one grid rule (domain/pricing/grid.ts):
 * anchored at 0, with the range minimum always allowed. They agree on every amount and term only when each
 * minimum a range can start from is itself a grid point, so a configuration with a minimum off its interval's
 * grid is refused (ADR 0005, "One grid rule").
 */
function onGridChecks() {
  // A refused configuration may hold any number: the message shows it as money only when it is whole centavos.
  const peso = (centavos: number) =>
    Number.isSafeInteger(centavos) ? formatPhp(centavos) : `${centavos} centavos`
  const amount = (path: readonly string[], label: string, pick: (c: Shape) => number) =>
    v.forward<Shape, v.CheckIssue<Shape>, never>(
      v.check<Shape, v.ErrorMessage<v.CheckIssue<Shape>>>(
        (c) => !(c.amountLimits.interval >= 1) || pick(c) % c.amountLimits.interval === 0,
        (issue) => {
          const c = issue.input
          return `${label} (${peso(pick(c))}) must be a multiple of the amount interval (${peso(c.amountLimits.interval)}), or the calculator and the server would allow different amounts.`
        },
      ),
      path as never,
    )
  const term = (path: readonly string[], label: string, pick: (c: Shape) => number) =>
    v.forward<Shape, v.CheckIssue<Shape>, never>(
      v.check<Shape, v.ErrorMessage<v.CheckIssue<Shape>>>(
        (c) => !(c.termLimits.interval >= 1) || pick(c) % c.termLimits.interval === 0,
        (issue) =>
          `${label} (${pick(issue.input)} days) must be a multiple of the term interval (${issue.input.termLimits.interval} days), or the calculator and the server would allow different terms.`,
      ),
      path as never,
    )
  return [
    amount(['amountLimits', 'minMainLoan'], 'The minimum loan amount', (c) => c.amountLimits.minMainLoan),
    amount(
      ['amountLimits', 'minAdditionLoan'],
      'The minimum additional loan amount',
      (c) => c.amountLimits.minAdditionLoan,
    ),
    amount(
      ['initialStates', 'new', 'minAmount'],
      "The new client's minimum amount",
      (c) => c.initialStates.new.minAmount,
    ),
    amount(
      ['initialStates', 'repeated', 'minAmount'],
      "The repeat client's minimum amount",
      (c) => c.initialStates.repeated.minAmount,
    ),
    term(['termLimits', 'minTermForNew'], "The new client's minimum term", (c) => c.termLimits.minTermForNew),
    term(
      ['termLimits', 'minTermForRepeated'],
      "The repeat client's minimum term",
      (c) => c.termLimits.minTermForRepeated,
    ),
  ] as const
}

export type CalculatorConfig = v.InferOutput<typeof calculatorConfigSchema>

/** The shipped defaults: PHP 1,000 to 25,000 in steps of PHP 100; 7 to 30 days for a first loan, 60 for repeat. */
export const defaultCalculatorConfig: CalculatorConfig = {
  termLimits: {
    minTermForNew: 7,
    maxTermForNew: 30,
    minTermForRepeated: 7,
    maxTermForRepeated: 60,
    interval: 1,
  },
  amountLimits: { minMainLoan: 1_000_00, amountTo: 25_000_00, minAdditionLoan: 500_00, interval: 100_00 },
  initialStates: {
    new: { initialAmount: 5_000_00, maxAmount: 10_000_00, minAmount: 1_000_00, maxTerm: 30 },
    repeated: { initialAmount: 10_000_00, maxAmount: 25_000_00, minAmount: 1_000_00, maxTerm: 60 },
  },
}
