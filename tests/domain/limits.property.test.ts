/**
 * Repeat limit growth (domain/loan/limits.ts; issue 18 item 6): examples of each rule and properties over any
 * repayment history: the limit stays between the first-loan limit and the repeat maximum, an on-time repayment
 * never grows it less than a late one, it only grows with more history, a defaulted loan freezes it at 0, and
 * the available amount is the limit less what open loans owe.
 */
import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { defaultCalculatorConfig } from '../../domain/calculator-config'
import {
  availableAmount,
  type ClosedLoanHistory,
  clientLimit,
  defaultLimitGrowth,
  limitBounds,
  limitGrowthSchema,
  stepFor,
} from '../../domain/loan/limits'

const config = defaultCalculatorConfig
const onTime: ClosedLoanHistory = { outcome: 'paid', daysLate: 0 }
const late = (daysLate: number): ClosedLoanHistory => ({ outcome: 'paid', daysLate })

describe('clientLimit', () => {
  it('a client who never repaid has the first-loan limit', () => {
    expect(clientLimit([], config)).toMatchObject({ limit: 10_000_00, frozen: false })
  })

  it('each loan repaid on time adds the on-time step', () => {
    expect(clientLimit([onTime], config).limit).toBe(12_000_00)
    expect(clientLimit([onTime, onTime], config).limit).toBe(14_000_00)
  })

  it('a late repayment adds less, and nothing beyond the tolerance', () => {
    expect(clientLimit([late(3)], config).limit).toBe(10_500_00)
    expect(clientLimit([late(7)], config).limit).toBe(10_500_00)
    expect(clientLimit([late(8)], config).limit).toBe(10_000_00)
  })

  it('never passes the repeat maximum', () => {
    const many = Array.from({ length: 20 }, () => onTime)
    expect(clientLimit(many, config).limit).toBe(25_000_00)
    expect(clientLimit(many, config).explanation.at(-1)).toMatch(/no increase/)
  })

  it('a sold or written-off loan freezes it at 0', () => {
    expect(clientLimit([onTime, { outcome: 'sold_debt', daysLate: 40 }], config)).toMatchObject({
      limit: 0,
      frozen: true,
    })
    expect(clientLimit([{ outcome: 'write_off', daysLate: 90 }, onTime], config).limit).toBe(0)
  })

  it('explains each step', () => {
    expect(clientLimit([onTime, late(2), late(30)], config).explanation).toEqual([
      'First-loan limit: ₱10,000.00.',
      'Loan 1 repaid on time: +₱2,000.00 -> ₱12,000.00.',
      'Loan 2 repaid 2 days late: +₱500.00 -> ₱12,500.00.',
      'Loan 3 repaid 30 days late (more than 7): no increase -> ₱12,500.00.',
    ])
  })

  it('the steps are configurable, the defaults when none are given', () => {
    expect(clientLimit([onTime], config).limit).toBe(10_000_00 + defaultLimitGrowth.onTimeStep)
    const custom = { onTimeStep: 5_000_00, lateStep: 0, lateToleranceDays: 0 }
    expect(v.parse(limitGrowthSchema, custom)).toEqual(custom)
    expect(v.safeParse(limitGrowthSchema, { ...custom, onTimeStep: -1 }).success).toBe(false)
    expect(clientLimit([onTime, late(1)], config, custom).limit).toBe(15_000_00)
  })
})

describe('availableAmount', () => {
  it('is the limit less the principal owed on open loans, at least 0', () => {
    const limit = clientLimit([], config)
    expect(availableAmount(limit, 0, 0, 2)).toBe(10_000_00)
    expect(availableAmount(limit, 4_000_00, 1, 2)).toBe(6_000_00)
    expect(availableAmount(limit, 12_000_00, 1, 2)).toBe(0)
  })
  it('is 0 with the most loans open, or a frozen limit', () => {
    expect(availableAmount(clientLimit([], config), 1_000_00, 2, 2)).toBe(0)
    expect(availableAmount(clientLimit([{ outcome: 'write_off', daysLate: 0 }], config), 0, 0, 2)).toBe(0)
  })
})

const growth = fc.record({
  onTimeStep: fc.integer({ min: 0, max: 10_000_00 }),
  lateStep: fc.integer({ min: 0, max: 10_000_00 }),
  lateToleranceDays: fc.integer({ min: 0, max: 60 }),
})
const paidHistory = fc.array(
  fc.record({ outcome: fc.constant('paid' as const), daysLate: fc.integer({ min: 0, max: 120 }) }),
  { maxLength: 15 },
)

describe('limit growth properties', () => {
  it('the limit stays between the first-loan limit and the repeat maximum', () => {
    fc.assert(
      fc.property(paidHistory, growth, (history, g) => {
        const { first, repeatMax } = limitBounds(config)
        const { limit } = clientLimit(history, config, g)
        expect(limit).toBeGreaterThanOrEqual(first)
        expect(limit).toBeLessThanOrEqual(repeatMax)
      }),
    )
  })

  it('more history never lowers the limit; a defaulted loan anywhere freezes it at 0', () => {
    fc.assert(
      fc.property(paidHistory, paidHistory, fc.boolean(), (a, b, sold) => {
        expect(clientLimit([...a, ...b], config).limit).toBeGreaterThanOrEqual(clientLimit(a, config).limit)
        const bad: ClosedLoanHistory = { outcome: sold ? 'sold_debt' : 'write_off', daysLate: 30 }
        expect(clientLimit([...a, bad, ...b], config)).toMatchObject({ limit: 0, frozen: true })
      }),
    )
  })

  it('repaying on time is never worse than repaying late, when on-time steps are the larger ones', () => {
    fc.assert(
      fc.property(paidHistory, growth, (history, g) => {
        const steps = { ...g, lateStep: Math.min(g.lateStep, g.onTimeStep) }
        const punctual = history.map(() => onTime)
        expect(clientLimit(punctual, config, steps).limit).toBeGreaterThanOrEqual(
          clientLimit(history, config, steps).limit,
        )
        for (const h of history) expect(stepFor(0, steps)).toBeGreaterThanOrEqual(stepFor(h.daysLate, steps))
      }),
    )
  })

  it('one explanation line per loan, after the first-loan line', () => {
    fc.assert(
      fc.property(paidHistory, (history) => {
        expect(clientLimit(history, config).explanation).toHaveLength(history.length + 1)
      }),
    )
  })

  it('the available amount is within [0, limit] and falls as the principal owed grows', () => {
    fc.assert(
      fc.property(
        paidHistory,
        fc.integer({ min: 0, max: 30_000_00 }),
        fc.integer({ min: 0, max: 30_000_00 }),
        (history, owedA, owedB) => {
          const limit = clientLimit(history, config)
          const a = availableAmount(limit, owedA, 1, 2)
          expect(a).toBeGreaterThanOrEqual(0)
          expect(a).toBeLessThanOrEqual(limit.limit)
          if (owedA <= owedB) expect(availableAmount(limit, owedB, 1, 2)).toBeLessThanOrEqual(a)
        },
      ),
    )
  })
})
