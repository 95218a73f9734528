/**
 * The decision engine's own rules (pure), the sandbox providers' documented test data, and the documents'
 * arithmetic, without a database.
 */
import { PDFDocument } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { defaultCalculatorConfig } from '../../domain/calculator-config'
import { formatPhpText } from '../../domain/format'
import { defaultPricingConfig } from '../../domain/pricing/config'
import { computeOffer } from '../../domain/pricing/offer'
import { sandboxPayout } from '../../server/providers/payout'
import { halfOnGrid, sandboxScoring } from '../../server/providers/scoring'
import { evaluateRules } from '../../server/services/lending/decision'
import {
  disclosureFigures,
  monthlyEirHundredths,
  renderAgreement,
  renderDisclosure,
} from '../../server/services/lending/documents'
import { addYear } from '../../server/services/lending/payout'
import { decisionInputs as inputs, pdfText } from './lending-helpers'

describe('decision rules', () => {
  it('passes a client who meets every rule, and leaves the decision to scoring', () => {
    const verdict = evaluateRules(inputs())
    expect(verdict.outcome).toBeNull()
    expect(verdict.rules.every((r) => r.passed)).toBe(true)
    expect(verdict.reasons).toEqual([])
  })

  it.each([
    ['blocked client', { clientStatus: 2 }, 'client_status'],
    ['blacklisted client', { clientStatus: 3 }, 'client_status'],
    ['19 years old', { age: 19 }, 'age'],
    ['71 years old', { age: 71 }, 'age'],
    ['no birth date', { age: null }, 'age'],
    ['identity declined', { identityVerification: 'declined' }, 'identity_verified'],
    [
      'an active loan the additional-loan rule refuses',
      { activeLoans: 1, additionalLoan: true, additionalLoanRefusals: ['Your loan is overdue.'] },
      'additional_loan',
    ],
    ['a frozen limit (a sold or written-off debt)', { limitFrozen: true }, 'repayment_history'],
    ['an amount above the available one', { amount: 10_100_00 }, 'repayment_history'],
    ['no income declared', { monthlyIncome: null }, 'affordability'],
  ] as const)('rejects: %s', (_name, over, rule) => {
    const verdict = evaluateRules(inputs(over))
    expect(verdict.outcome).toBe('reject')
    expect(verdict.rules.find((r) => r.rule === rule)?.passed).toBe(false)
    expect(verdict.reasons.some((r) => r.startsWith(`${rule}:`))).toBe(true)
  })

  it('ages 20 and 70 are allowed (spec section 5: inclusive)', () => {
    expect(evaluateRules(inputs({ age: 20 })).outcome).toBeNull()
    expect(evaluateRules(inputs({ age: 70 })).outcome).toBeNull()
  })

  it('a repayment above the disposable income is not a refusal: the engine looks for a lower amount', () => {
    const verdict = evaluateRules(inputs({ monthlyIncome: 15_000_00, monthlyExpenses: 12_000_00 }))
    expect(verdict.outcome).toBeNull()
    expect(verdict.rules.find((r) => r.rule === 'affordability')?.passed).toBe(false)
    expect(verdict.reasons[0]).toMatch(/^affordability:/)
  })
})

describe('sandbox scoring (README, Sandbox)', () => {
  const request = (firstName: string, amount = 8_000_00) => ({
    applicationId: 7,
    clientId: 3,
    firstName,
    amount,
    term: 14,
    availableAmount: 10_000_00,
    minAmount: 1_000_00,
    interval: 100_00,
    monthlyIncome: 28_000_00,
    closedLoans: 0,
  })

  it.each([
    ['Juan', 'approve', undefined],
    ['Reject', 'reject', undefined],
    ['manual', 'manual', undefined],
    ['Decrease', 'decrease', 4_000_00],
    ['SPECIAL', 'special_offer', 4_000_00],
    ['Increase', 'increase', 10_000_00],
  ] as const)('%s -> %s', async (name, outcome, offered) => {
    const answer = await sandboxScoring.score(request(name))
    expect(answer.outcome).toBe(outcome)
    expect(answer.offeredAmount).toBe(offered)
  })

  it('Scorefail makes the provider fail', async () => {
    await expect(sandboxScoring.score(request('Scorefail'))).rejects.toThrow(/unavailable|down/)
  })

  it('a decrease stays on the grid and above the minimum', () => {
    expect(halfOnGrid(8_000_00, 1_000_00, 100_00)).toBe(4_000_00)
    expect(halfOnGrid(7_300_00, 1_000_00, 100_00)).toBe(3_600_00)
    expect(halfOnGrid(1_500_00, 1_000_00, 100_00)).toBe(1_000_00)
  })
})

describe('sandbox payout (README, Sandbox)', () => {
  const base = { disbursementId: 42, institution: 'BDO', provider: null, amount: 5_000_00 }
  it('cash pickup is ready with a pickup number', async () => {
    expect(await sandboxPayout.send({ ...base, type: 'cash_pickup', accountNumber: null })).toEqual({
      status: 'cash_pickup_ready',
      reference: 'sandbox-payout-42',
      cashPickupNumber: 'CP0000000042',
    })
  })
  it('an account ending 0000 fails, 9999 is unavailable, anything else succeeds', async () => {
    expect(
      (await sandboxPayout.send({ ...base, type: 'bank_transfer', accountNumber: '1230000' })).status,
    ).toBe('failed')
    await expect(
      sandboxPayout.send({ ...base, type: 'bank_transfer', accountNumber: '1239999' }),
    ).rejects.toThrow()
    expect(
      (await sandboxPayout.send({ ...base, type: 'bank_transfer', accountNumber: '001234567890' })).status,
    ).toBe('succeeded')
  })
})

describe('loan documents', () => {
  const offer = {
    ...computeOffer({
      pricing: defaultPricingConfig,
      calculator: defaultCalculatorConfig,
      kind: 'new',
      amount: 10_000_00,
      term: 30,
      withPackageFee: true,
      today: '2026-11-22',
    }),
    promo: null,
  }

  it('prints pesos with commas and centavos', () => {
    expect(formatPhpText(1_026_050)).toBe('PHP 10,260.50')
    expect(formatPhpText(5)).toBe('PHP 0.05')
  })

  it('the effective rate is the finance charge per principal per 30 days, rounded half up', () => {
    expect(monthlyEirHundredths(500_00, 10_000_00, 30)).toBe(500)
    expect(monthlyEirHundredths(263_00, 10_000_00, 7)).toBe(1127)
    const f = disclosureFigures(offer)
    expect(f.financeCharge).toBe(offer.total.amount - 10_000_00)
    // Within the 12% a month cap (ADR 0005).
    expect(f.monthlyEir).toBeLessThanOrEqual(1200)
  })

  it('both PDFs load with pdf-lib, carry a title, and show the total', async () => {
    const input = {
      applicationId: 9,
      borrower: 'Juan Dela Cruz',
      offer,
      renderedAt: new Date('2026-11-22T02:00:00Z'),
      disbursementLabel: 'bank transfer BDO account ending 7890',
    }
    for (const render of [renderAgreement, renderDisclosure]) {
      const bytes = await render(input)
      const doc = await PDFDocument.load(bytes)
      expect(doc.getPageCount()).toBeGreaterThanOrEqual(1)
      expect(doc.getTitle()).toBeTruthy()
      const text = await pdfText(bytes)
      expect(text).toContain(formatPhpText(offer.total.amount))
      expect(text).toContain('Juan Dela Cruz')
      // Same inputs, same bytes: what is signed can be rendered again and compared.
      expect(Buffer.from(await render(input)).equals(Buffer.from(bytes))).toBe(true)
    }
  })

  it('the final closing date is a calendar year on, 29 February included', () => {
    expect(addYear('2026-11-22')).toBe('2027-11-22')
    expect(addYear('2028-02-29')).toBe('2029-02-28')
  })
})
