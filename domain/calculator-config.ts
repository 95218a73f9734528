/**
 * The calculator configuration of spec section 3. All money is integer centavos; terms are days.
 */
import * as v from 'valibot'

const centavos = v.pipe(v.number(), v.integer(), v.minValue(0))
const days = v.pipe(v.number(), v.integer(), v.minValue(1))

export const initialStateSchema = v.object({
  initialAmount: centavos,
  maxAmount: centavos,
  minAmount: centavos,
  maxTerm: v.optional(days),
})

export const calculatorConfigSchema = v.pipe(
  v.object({
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
  }),
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
)

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
