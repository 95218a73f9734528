/**
 * The additional-loan rule (spec section 4, Additional loan; issue 18 item 5): every condition, each alone, and
 * properties over all facts: available exactly when no reason is given, and each reason is its own condition.
 * The calculator's `isAdditionalLoanAvailable` is the same rule (it delegates), checked here too.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isAdditionalLoanAvailable } from '../../domain/calculator-rules'
import {
  type AdditionalLoanFacts,
  type AdditionalLoanReasonCode,
  additionalLoanAvailability,
  additionalLoanReasonCodes,
  MAX_OPEN_LOANS,
} from '../../domain/loan/additional-loan'

const ok: AdditionalLoanFacts = {
  maxAmount: 5_000_00,
  openLoans: 1,
  loan: { dueDays: 10, overdue: false, onHold: false, hasPaymentSchedule: false },
  hasActiveRefinancing: false,
  defaulted: false,
}

const withLoan = (over: Partial<NonNullable<AdditionalLoanFacts['loan']>>): AdditionalLoanFacts => ({
  ...ok,
  loan: { ...ok.loan!, ...over },
})

describe('additionalLoanAvailability', () => {
  it('is available when every condition holds', () => {
    expect(additionalLoanAvailability(ok)).toEqual({ available: true, reasons: [] })
  })

  it.each<[string, AdditionalLoanFacts, AdditionalLoanReasonCode]>([
    ['no open loan', { ...ok, openLoans: 0, loan: null }, 'noOpenLoan'],
    ['the max amount is 0', { ...ok, maxAmount: 0 }, 'noAmountAvailable'],
    ['the loan is overdue', withLoan({ overdue: true }), 'overdue'],
    ['dueDays is 1', withLoan({ dueDays: 1 }), 'dueTooSoon'],
    ['dueDays is 0 (due today)', withLoan({ dueDays: 0 }), 'dueTooSoon'],
    ['dueDays is negative', withLoan({ dueDays: -3 }), 'dueTooSoon'],
    ['an active refinancing', { ...ok, hasActiveRefinancing: true }, 'activeRefinancing'],
    ['a payment schedule', withLoan({ hasPaymentSchedule: true }), 'paymentSchedule'],
    ['the loan is on hold', withLoan({ onHold: true }), 'onHold'],
    ['a sold or written-off debt', { ...ok, defaulted: true }, 'defaulted'],
    ['an additional loan already open', { ...ok, openLoans: MAX_OPEN_LOANS }, 'tooManyOpenLoans'],
  ])('is refused when %s', (_name, facts, code) => {
    const verdict = additionalLoanAvailability(facts)
    expect(verdict.available).toBe(false)
    expect(verdict.reasons.map((r) => r.code)).toEqual([code])
    expect(verdict.reasons[0]!.message.length).toBeGreaterThan(10)
  })

  it('dueDays 2 is the first day allowed (spec: above 1)', () => {
    expect(additionalLoanAvailability(withLoan({ dueDays: 2 })).available).toBe(true)
  })

  const facts = fc.record({
    maxAmount: fc.integer({ min: -1, max: 30_000_00 }),
    openLoans: fc.integer({ min: 0, max: 3 }),
    loan: fc.option(
      fc.record({
        dueDays: fc.integer({ min: -60, max: 60 }),
        overdue: fc.boolean(),
        onHold: fc.boolean(),
        hasPaymentSchedule: fc.boolean(),
      }),
      { nil: null },
    ),
    hasActiveRefinancing: fc.boolean(),
    defaulted: fc.boolean(),
  })

  it('property: available exactly when no reason is given, every reason a known code, each once', () => {
    fc.assert(
      fc.property(facts, (f) => {
        const verdict = additionalLoanAvailability(f)
        expect(verdict.available).toBe(verdict.reasons.length === 0)
        const codes = verdict.reasons.map((r) => r.code)
        expect(new Set(codes).size).toBe(codes.length)
        for (const code of codes) expect(additionalLoanReasonCodes).toContain(code)
      }),
      { numRuns: 2000 },
    )
  })

  it('property: the verdict is the conjunction of the spec conditions and the issue 18 ones', () => {
    fc.assert(
      fc.property(facts, (f) => {
        const expected =
          f.openLoans >= 1 &&
          f.openLoans < MAX_OPEN_LOANS &&
          f.loan !== null &&
          f.maxAmount > 0 &&
          !f.loan.overdue &&
          f.loan.dueDays > 1 &&
          !f.hasActiveRefinancing &&
          !f.loan.hasPaymentSchedule &&
          !f.loan.onHold &&
          !f.defaulted
        expect(additionalLoanAvailability(f).available).toBe(expected)
      }),
      { numRuns: 2000 },
    )
  })

  it("property: the calculator's rule is the same rule", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const calculator = isAdditionalLoanAvailable({
          maxAmount: f.maxAmount,
          dueDays: f.loan?.dueDays ?? null,
          overdue: f.loan?.overdue ?? false,
          hasPaymentSchedule: f.loan?.hasPaymentSchedule ?? false,
          onHold: f.loan?.onHold ?? false,
          openLoans: f.openLoans,
          hasActiveRefinancing: f.hasActiveRefinancing,
          defaulted: f.defaulted,
        })
        expect(calculator).toBe(additionalLoanAvailability(f).available)
      }),
      { numRuns: 1000 },
    )
  })
})
