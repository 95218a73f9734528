// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SubmitDecision } from '../../../machines/calculator.machine'
import { readCookie, removeCookie, writeCookie } from '../../../src/app/cookies'
import { createApplication, createApplicationBody } from '../../../src/features/calculator/submit'
import { withCall } from '../../support/fake-api'

const decision: SubmitDecision = {
  target: 'create-application-then-loading',
  amount: 700_000,
  term: 21,
  optionalFee: false,
  promoCode: 'HIRAM10',
}

afterEach(() => removeCookie('affiliate'))

// The page each decision leads to is the calculator-submit machine's (tests/machines/calculator-submit.machine.test.ts).
describe('the application a submit makes', () => {
  it('builds the application body of spec section 7 in centavos and days', () => {
    expect(createApplicationBody(decision, { utm_source: 'fb' })).toEqual({
      loanAmount: { amount: 700_000, currency: 'PHP' },
      term: { value: 21, unit: 'day' },
      paymentMethod: 'bank_transfer',
      consents: { acceptBorrowersAdvantagePackageFee: false },
      promoCode: 'HIRAM10',
      iovation: { ioBB: '' },
      affiliate: { utm_source: 'fb' },
    })
    expect(createApplicationBody({ ...decision, promoCode: null }, null)).not.toHaveProperty('promoCode')
  })

  it('creates the application with the campaign once', async () => {
    writeCookie('affiliate', JSON.stringify({ utm_campaign: 'payday' }), 1800)
    const post = vi.fn(async () => ({ id: 1 }))
    const api = withCall({ post })
    await expect(createApplication(api, decision)).resolves.toEqual({ id: 1 })
    expect(post).toHaveBeenCalledWith(
      '/private/client/application',
      expect.objectContaining({ affiliate: { utm_campaign: 'payday' } }),
      { headers: { 'Idempotency-Key': expect.stringMatching(/^apply-[0-9a-f-]{36}$/) }, quiet: true },
    )
    expect(readCookie('affiliate')).toBeNull()
  })

  it('keeps the campaign when creating the application fails', async () => {
    writeCookie('affiliate', JSON.stringify({ utm_campaign: 'payday' }), 1800)
    const api = withCall({ post: vi.fn(async () => Promise.reject(new Error('500'))) })
    await expect(createApplication(api, decision)).rejects.toThrow('500')
    expect(readCookie('affiliate')).not.toBeNull()
  })
})
