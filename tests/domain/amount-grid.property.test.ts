/**
 * Issue 15, item 1: the calculator's amount rule is one function for the browser and the server
 * (domain/pricing/grid.ts). Over random configurations the calculator schema accepts, every amount and term the
 * browser's clamp (domain/calculator-rules.ts, with the calculator's own limits) can produce is accepted by the
 * server's offer validation (domain/pricing/offer.ts), and every value the server accepts is a fixed point of
 * the clamp. Configurations are drawn with minimums on and off the grid: the ones the schema refuses are the
 * ones on which the two could disagree (checked below by the refusal tests).
 */
import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  type CalculatorConfig,
  calculatorConfigSchema,
  defaultCalculatorConfig,
} from '../../domain/calculator-config'
import { amountLimitsFor, clampAmount, clampTerm, termLimitsFor } from '../../domain/calculator-rules'
import type { ClientKind } from '../../domain/offer'
import { validateOfferRequest } from '../../domain/pricing/offer'
import { offerRange } from '../../domain/pricing/ranges'

const php = (pesos: number) => pesos * 100

/** A minimum: usually on the interval's grid, sometimes off it by a few centavos or days. */
const minArb = (interval: number, maxSteps: number) =>
  fc
    .tuple(fc.integer({ min: 1, max: maxSteps }), fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 99 })))
    .map(([steps, off]) => steps * interval + (off % interval))

const configArb: fc.Arbitrary<unknown> = fc
  .record({
    amountInterval: fc.constantFrom(php(1), php(50), php(100), php(500), 1),
    termInterval: fc.constantFrom(1, 1, 7),
    spanA: fc.integer({ min: 0, max: php(30_000) }),
    spanB: fc.integer({ min: 0, max: php(30_000) }),
    newMaxTerm: fc.option(fc.integer({ min: 1, max: 90 }), { nil: undefined }),
    repeatMaxTerm: fc.option(fc.integer({ min: 1, max: 90 }), { nil: undefined }),
    newSpan: fc.integer({ min: 0, max: 60 }),
    repeatSpan: fc.integer({ min: 0, max: 60 }),
    seed: fc.integer(),
  })
  .chain((r) =>
    fc
      .record({
        minMainLoan: minArb(r.amountInterval, 20),
        minAdditionLoan: minArb(r.amountInterval, 20),
        newMin: minArb(r.amountInterval, 30),
        repeatMin: minArb(r.amountInterval, 30),
        minTermForNew: minArb(r.termInterval, 4),
        minTermForRepeated: minArb(r.termInterval, 4),
      })
      .map((m) => {
        const first = m.minMainLoan + r.spanA
        const top = first + r.spanB
        return {
          termLimits: {
            minTermForNew: m.minTermForNew,
            maxTermForNew: m.minTermForNew + r.newSpan,
            minTermForRepeated: m.minTermForRepeated,
            maxTermForRepeated: m.minTermForRepeated + r.repeatSpan,
            interval: r.termInterval,
          },
          amountLimits: {
            minMainLoan: m.minMainLoan,
            amountTo: top,
            minAdditionLoan: m.minAdditionLoan,
            interval: r.amountInterval,
          },
          initialStates: {
            new: { initialAmount: first, maxAmount: first, minAmount: m.newMin, maxTerm: r.newMaxTerm },
            repeated: {
              initialAmount: top,
              maxAmount: top,
              minAmount: m.repeatMin,
              maxTerm: r.repeatMaxTerm,
            },
          },
        }
      }),
  )

const valueArb = fc.integer({ min: -10, max: php(70_000) })

type Case = { kind: ClientKind; additionalLoan: boolean }
const cases: Case[] = [
  { kind: 'new', additionalLoan: false },
  { kind: 'repeat', additionalLoan: false },
  { kind: 'new', additionalLoan: true },
  { kind: 'repeat', additionalLoan: true },
]

/** The calculator's limits for the client the server prices as `kind`, with one tab offered (that kind's). */
function browserLimits(config: CalculatorConfig, { kind, additionalLoan }: Case) {
  const tab = kind === 'repeat' ? 'repeat' : 'new'
  const amount = amountLimitsFor({
    config,
    tab,
    tabs: [tab],
    loggedIn: additionalLoan,
    availableAmount: null,
    hasActiveLoan: additionalLoan,
    increaseOffer: null,
  })
  return { amount, term: termLimitsFor(config, tab) }
}

const accepts = (config: CalculatorConfig, c: Case, amount: number, term: number) =>
  validateOfferRequest(config, c.kind, amount, term, { additionalLoan: c.additionalLoan })

describe('one grid rule: the browser clamp and the server validation agree on every lawful configuration', () => {
  it('every amount and term the clamp produces is accepted; every accepted one is a fixed point', () => {
    let lawful = 0
    fc.assert(
      fc.property(configArb, valueArb, fc.integer({ min: -5, max: 150 }), (input, rawAmount, rawTerm) => {
        const parsed = v.safeParse(calculatorConfigSchema, input)
        if (!parsed.success) return
        const config = parsed.output
        for (const c of cases) {
          const range = offerRange(config, c.kind, c.additionalLoan)
          const limits = browserLimits(config, c)
          if (!range) continue
          lawful++
          expect(limits.amount.disabled).toBe(false)
          // Browser → server: whatever the clamp gives, the server accepts.
          const amount = clampAmount(rawAmount, limits.amount)
          const term = clampTerm(rawTerm, limits.term)
          expect(accepts(config, c, amount, term)).toEqual([])
          // Server → browser: whatever the server accepts, the clamp leaves where it is.
          const amountOk = accepts(config, c, rawAmount, range.term.min).length === 0
          if (amountOk) expect(clampAmount(rawAmount, limits.amount)).toBe(rawAmount)
          else expect(clampAmount(rawAmount, limits.amount)).not.toBe(rawAmount)
          const termOk = accepts(config, c, range.amount.min, rawTerm).length === 0
          if (termOk) expect(clampTerm(rawTerm, limits.term)).toBe(rawTerm)
          else expect(clampTerm(rawTerm, limits.term)).not.toBe(rawTerm)
          // The range ends agree too.
          expect(clampAmount(Number.MAX_SAFE_INTEGER, limits.amount)).toBe(range.amount.max)
          expect(clampAmount(0, limits.amount)).toBe(range.amount.min)
          expect(clampTerm(Number.MAX_SAFE_INTEGER, limits.term)).toBe(range.term.max)
          expect(clampTerm(0, limits.term)).toBe(range.term.min)
        }
      }),
      { numRuns: 400, seed: 15 },
    )
    expect(lawful).toBeGreaterThan(50)
  })
})

describe('a configuration on which the two could disagree is refused', () => {
  const refusal = (patch: (c: CalculatorConfig) => void) => {
    const config = structuredClone(defaultCalculatorConfig)
    patch(config)
    const result = v.safeParse(calculatorConfigSchema, config)
    expect(result.success).toBe(false)
    return (result.issues ?? []).map((issue) => ({
      path: v.getDotPath(issue),
      message: issue.message,
    }))
  }

  it('accepts the shipped configuration', () => {
    expect(v.is(calculatorConfigSchema, defaultCalculatorConfig)).toBe(true)
  })

  it.each([
    [
      'amountLimits.minMainLoan',
      (c: CalculatorConfig) => {
        c.amountLimits.minMainLoan = php(1_050)
      },
    ],
    [
      'amountLimits.minAdditionLoan',
      (c: CalculatorConfig) => {
        c.amountLimits.minAdditionLoan = 500_01
      },
    ],
    [
      'initialStates.new.minAmount',
      (c: CalculatorConfig) => {
        c.initialStates.new.minAmount = php(1_250)
      },
    ],
    [
      'initialStates.repeated.minAmount',
      (c: CalculatorConfig) => {
        c.initialStates.repeated.minAmount = 99
      },
    ],
  ])('refuses %s off the amount grid, saying why', (path, patch) => {
    const issues = refusal(patch)
    expect(issues).toHaveLength(1)
    expect(issues[0]?.path).toBe(path)
    expect(issues[0]?.message).toMatch(/must be a multiple of the amount interval \(₱100\.00\)/)
  })

  it('refuses a minimum term off the term grid', () => {
    const issues = refusal((c) => {
      c.termLimits.interval = 7
      c.termLimits.minTermForNew = 7
      c.termLimits.minTermForRepeated = 10
    })
    expect(issues).toEqual([
      {
        path: 'termLimits.minTermForRepeated',
        message: expect.stringMatching(/\(10 days\) must be a multiple of the term interval \(7 days\)/),
      },
    ])
  })
})
