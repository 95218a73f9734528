import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { type CalculatorConfig, defaultCalculatorConfig } from '../../domain/calculator-config'
import { offerSchema } from '../../domain/offer'
import {
  calculatorConfigSchemaFor,
  defaultPricingConfig,
  type PricingConfig,
  pricingConfigSchema,
  pricingConfigSchemaFor,
  validateLendingConfig,
  validatePricingConfig,
} from '../../domain/pricing/config'
import { addDays, manilaDate } from '../../domain/pricing/manila-date'
import {
  computeOffer,
  type OfferInput,
  OfferRequestError,
  UnlawfulOfferError,
  validateOfferRequest,
} from '../../domain/pricing/offer'

const calculator = defaultCalculatorConfig
const pricing = defaultPricingConfig
const base: OfferInput = {
  pricing,
  calculator,
  kind: 'new',
  amount: 5_000_00,
  term: 30,
  withPackageFee: true,
  today: '2026-11-22',
}

describe('worked examples with the default pricing', () => {
  it('prices PHP 5,000 for 30 days for a new client with the first-loan discount and the package', () => {
    // P = 500 000 centavos, 0.19%/day (1 900 ppm), 30 days.
    // interest_without_discount = 500 000 × 1 900 × 30 / 10⁶ = 28 500 (₱285.00)
    // first-loan discount 20% of interest = 28 500 × 2 000 / 10⁴ = 5 700 → interest 22 800
    // processing 0.80% = 4 000; service 0.20% = 1 000, first-loan discount 50% = 500 → 500
    // withdrawal 0, invoicing 0, package 0.30% = 1 500
    // total = 500 000 + 22 800 + 4 000 + 500 + 1 500 = 528 800
    // total_without_discount = 500 000 + 28 500 + 4 000 + 1 000 + 1 500 = 535 000
    // apr = 28 800 / 500 000 × 365 / 30 × 100 = 70.08; without discount 35 000 → 85.1666… → 85.17
    // extensions: cheap 7 days 1.33% = 6 650; expensive 30 days 5.70% = 28 500
    const offer = computeOffer(base)
    expect(offer).toEqual({
      principal: { amount: 500_000 },
      interest: { amount: 22_800 },
      interest_without_discount: { amount: 28_500 },
      processingFee: { amount: 4_000 },
      processing_fee_without_discount: { amount: 4_000 },
      serviceFee: { amount: 500 },
      serviceFee_without_discount: { amount: 1_000 },
      withdrawalFee: { amount: 0 },
      invoicingFee: { amount: 0 },
      borrowers_advantage_package_fee: { amount: 1_500 },
      total: { amount: 528_800 },
      total_without_discount: { amount: 535_000 },
      discount: { interest: { amount: 5_700 }, serviceFee: { amount: 500 } },
      apr: 70.08,
      apr_without_discount: 85.17,
      endDate: '2026-12-22',
      term: 30,
      extensions: [
        { type: 'cheap', term: 7, fee: { amount: 6_650 } },
        { type: 'expensive', term: 30, fee: { amount: 28_500 } },
      ],
    })
    expect(v.is(offerSchema, offer)).toBe(true)
  })

  it('gives a guest the new-client price, first-loan discount included', () => {
    expect(computeOffer({ ...base, kind: 'guest' })).toEqual(computeOffer(base))
  })

  it('prices a repeat client at the repeat rate with no first-loan discount', () => {
    // interest = 500 000 × 1 700 × 30 / 10⁶ = 25 500; fees 4 000 + 1 000 + 1 500
    // total = 532 000; apr = 32 000 / 500 000 × 365/30 × 100 = 77.866… → 77.87
    const offer = computeOffer({ ...base, kind: 'repeat' })
    expect(offer.interest).toEqual({ amount: 25_500 })
    expect(offer.discount).toEqual({ interest: { amount: 0 }, serviceFee: { amount: 0 } })
    expect(offer.total).toEqual({ amount: 532_000 })
    expect(offer.total_without_discount).toEqual({ amount: 532_000 })
    expect(offer.apr).toBe(77.87)
    expect(offer.apr_without_discount).toBe(77.87)
  })

  it('leaves the package fee out when the borrower declines it', () => {
    const offer = computeOffer({ ...base, withPackageFee: false })
    expect(offer.borrowers_advantage_package_fee).toEqual({ amount: 0 })
    expect(offer.total).toEqual({ amount: 527_300 })
    expect(offer.total_without_discount).toEqual({ amount: 533_500 })
  })

  it('applies the larger of the promo and the first-loan discount to each charge, never both', () => {
    // promo 50% of interest beats the first-loan 20%: 28 500 × 5 000 / 10⁴ = 14 250
    // promo 0% of service fee loses to the first-loan 50%: 500
    const offer = computeOffer({
      ...base,
      promo: { code: 'HALF', interestDiscountBps: 5_000, serviceFeeDiscountBps: 0 },
    })
    expect(offer.discount).toEqual({ interest: { amount: 14_250 }, serviceFee: { amount: 500 } })
    expect(offer.interest).toEqual({ amount: 14_250 })
    expect(offer.total).toEqual({ amount: 520_250 })
    expect(offer.total_without_discount).toEqual({ amount: 535_000 })
  })

  it('gives a repeat client the promo discount alone', () => {
    // 25 500 × 1 000 / 10⁴ = 2 550
    const offer = computeOffer({
      ...base,
      kind: 'repeat',
      promo: { code: 'TEN', interestDiscountBps: 1_000, serviceFeeDiscountBps: 10_000 },
    })
    expect(offer.discount).toEqual({ interest: { amount: 2_550 }, serviceFee: { amount: 1_000 } })
    expect(offer.serviceFee).toEqual({ amount: 0 })
    expect(offer.total).toEqual({ amount: 532_000 - 2_550 - 1_000 })
  })

  it('takes a referral reward off the service fee first, then the interest, never below zero (ADR 0041)', () => {
    // Service fee after the first-loan discount 500, interest after it 22 800 (the first example).
    const some = computeOffer({ ...base, referralCredit: 600 })
    expect(some.referralReward).toEqual({ amount: 600 })
    expect(some.serviceFee).toEqual({ amount: 0 })
    expect(some.interest).toEqual({ amount: 22_700 })
    expect(some.discount).toEqual({ interest: { amount: 5_800 }, serviceFee: { amount: 1_000 } })
    expect(some.total).toEqual({ amount: 528_800 - 600 })
    expect(some.total_without_discount).toEqual({ amount: 535_000 })
    // More than both: they reach zero, the rest of the reward stays for the next loan.
    const all = computeOffer({ ...base, referralCredit: 10_000_000 })
    expect(all.referralReward).toEqual({ amount: 500 + 22_800 })
    expect([all.serviceFee.amount, all.interest.amount]).toEqual([0, 0])
    expect(all.total).toEqual({ amount: 500_000 + 4_000 + 1_500 })
    expect(v.is(offerSchema, all)).toBe(true)
    // None, zero or nonsense: the offer of the first example, without the field.
    for (const referralCredit of [undefined, 0, -5, 1.5, Number.NaN])
      expect(computeOffer({ ...base, referralCredit })).toEqual(computeOffer(base))
    expect('referralReward' in computeOffer(base)).toBe(false)
  })

  it('prices the smallest additional loan (PHP 500) for a client with an active loan', () => {
    // 50 000 × 1 700 × 7 / 10⁶ = 595; fees 400 + 100 + 150 → cost 1 245 = 2.49% ≤ 2.80%
    const offer = computeOffer({ ...base, kind: 'repeat', amount: 500_00, term: 7, additionalLoan: true })
    expect(offer.total.amount - offer.principal.amount).toBe(1_245)
  })
})

describe('rounding', () => {
  // Whole-centavo steps so the amounts can land on halves.
  const fineCalculator: CalculatorConfig = {
    ...calculator,
    amountLimits: { ...calculator.amountLimits, interval: 1 },
  }
  const finePricing: PricingConfig = {
    ...pricing,
    interestPpmPerDay: { new: 1_500, repeat: 1_500 },
    processingFee: { bps: 50, fixed: 0, min: 0 },
    serviceFee: { bps: 25, fixed: 0, min: 0 },
    packageFee: { bps: 30, fixed: 0, min: 0 },
    firstLoanDiscount: { interestBps: 2_500, serviceFeeBps: 5_000 },
  }

  it('rounds each charge half up to the centavo once, then sums', () => {
    // P = 100 100 (₱1,001.00), 10 days:
    // interest 100 100 × 1 500 × 10 / 10⁶ = 1 501.5 → 1 502 (half up)
    // interest discount 1 502 × 25% = 375.5 → 376 → interest 1 126
    // processing 100 100 × 0.50% = 500.5 → 501 (half up; half-even would give 500)
    // service 100 100 × 0.25% = 250.25 → 250; discount 50% = 125 → 125
    // package 100 100 × 0.30% = 300.3 → 300
    // total = 100 100 + 1 126 + 501 + 125 + 300 = 102 152; without discount 102 653
    // apr = 2 052 × 365 × 10⁴ / (100 100 × 10) = 7 482.3… → 74.82; without: 2 553 → 9 309.1… → 93.09
    const offer = computeOffer({
      ...base,
      pricing: finePricing,
      calculator: fineCalculator,
      amount: 100_100,
      term: 10,
    })
    expect(offer.interest_without_discount.amount).toBe(1_502)
    expect(offer.discount.interest.amount).toBe(376)
    expect(offer.interest.amount).toBe(1_126)
    expect(offer.processingFee.amount).toBe(501)
    expect(offer.serviceFee_without_discount.amount).toBe(250)
    expect(offer.serviceFee.amount).toBe(125)
    expect(offer.borrowers_advantage_package_fee.amount).toBe(300)
    expect(offer.total.amount).toBe(102_152)
    expect(offer.total_without_discount.amount).toBe(102_653)
    expect(offer.apr).toBe(74.82)
    expect(offer.apr_without_discount).toBe(93.09)
  })

  it('applies a fee minimum and a flat part', () => {
    const offer = computeOffer({
      ...base,
      pricing: {
        ...finePricing,
        processingFee: { bps: 50, fixed: 0, min: 700 },
        withdrawalFee: { bps: 0, fixed: 1_500, min: 0 },
      },
      calculator: fineCalculator,
      amount: 100_100,
      term: 30,
    })
    expect(offer.processingFee.amount).toBe(700)
    expect(offer.withdrawalFee.amount).toBe(1_500)
  })
})

describe('endDate on the Manila calendar', () => {
  it('is already the next day in Manila at 18:00 UTC', () => {
    expect(manilaDate(new Date('2026-11-22T18:00:00Z'))).toBe('2026-11-23')
    expect(computeOffer({ ...base, today: new Date('2026-11-22T18:00:00Z') }).endDate).toBe('2026-12-23')
  })

  it('turns over at 16:00 UTC, Manila midnight', () => {
    expect(computeOffer({ ...base, today: new Date('2026-11-22T15:59:59.999Z') }).endDate).toBe('2026-12-22')
    expect(computeOffer({ ...base, today: new Date('2026-11-22T16:00:00.000Z') }).endDate).toBe('2026-12-23')
  })

  it('counts calendar days across month, leap day and year ends', () => {
    expect(addDays('2026-02-01', 28)).toBe('2026-03-01')
    expect(addDays('2028-02-01', 28)).toBe('2028-02-29')
    expect(addDays('2026-12-20', 15)).toBe('2027-01-04')
    expect(computeOffer({ ...base, today: '2026-12-31', term: 7 }).endDate).toBe('2027-01-07')
  })

  it('refuses dates that do not exist', () => {
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError)
    expect(() => computeOffer({ ...base, today: '22/11/2026' })).toThrow(RangeError)
  })
})

describe('validateOfferRequest', () => {
  it('accepts every corner of each kind', () => {
    expect(validateOfferRequest(calculator, 'guest', 1_000_00, 7)).toEqual([])
    expect(validateOfferRequest(calculator, 'new', 10_000_00, 30)).toEqual([])
    expect(validateOfferRequest(calculator, 'repeat', 25_000_00, 60)).toEqual([])
    expect(validateOfferRequest(calculator, 'repeat', 500_00, 7, { additionalLoan: true })).toEqual([])
  })

  it('reports amounts outside the range without clamping', () => {
    expect(validateOfferRequest(calculator, 'new', 999_99, 30)).toEqual([
      { propertyPath: 'amount', message: 'The amount must be between ₱1 000.00 and ₱10 000.00.' },
    ])
    expect(validateOfferRequest(calculator, 'new', 10_100_00, 30)).toEqual([
      { propertyPath: 'amount', message: 'The amount must be between ₱1 000.00 and ₱10 000.00.' },
    ])
    expect(validateOfferRequest(calculator, 'repeat', 25_100_00, 30)).toEqual([
      { propertyPath: 'amount', message: 'The amount must be between ₱1 000.00 and ₱25 000.00.' },
    ])
    expect(validateOfferRequest(calculator, 'repeat', 500_00, 30)[0]?.propertyPath).toBe('amount')
  })

  it('reports amounts off the interval grid', () => {
    expect(validateOfferRequest(calculator, 'new', 1_050_00, 30)).toEqual([
      { propertyPath: 'amount', message: 'The amount must be in steps of ₱100.00 from ₱1 000.00.' },
    ])
    expect(validateOfferRequest(calculator, 'new', 1_000_01, 30)).toHaveLength(1)
  })

  it('reports terms outside the kind’s limits and non-numbers', () => {
    expect(validateOfferRequest(calculator, 'new', 5_000_00, 6)).toEqual([
      { propertyPath: 'term', message: 'The term must be between 7 days and 30 days.' },
    ])
    expect(validateOfferRequest(calculator, 'guest', 5_000_00, 60)).toEqual([
      { propertyPath: 'term', message: 'The term must be between 7 days and 30 days.' },
    ])
    expect(validateOfferRequest(calculator, 'repeat', 5_000_00, 61)).toEqual([
      { propertyPath: 'term', message: 'The term must be between 7 days and 60 days.' },
    ])
    expect(validateOfferRequest(calculator, 'new', Number.NaN, 7.5)).toEqual([
      { propertyPath: 'amount', message: 'The amount must be a whole number of centavos.' },
      { propertyPath: 'term', message: 'The term must be a whole number of days.' },
    ])
  })

  it('reports terms off the interval grid', () => {
    const weekly = { ...calculator, termLimits: { ...calculator.termLimits, interval: 7 } }
    expect(validateOfferRequest(weekly, 'new', 5_000_00, 28)).toEqual([])
    expect(validateOfferRequest(weekly, 'new', 5_000_00, 20)).toEqual([
      { propertyPath: 'term', message: 'The term must be in steps of 7 days from 7 days.' },
    ])
    // The last term on the grid is 28, so 30 is out of range rather than off the grid.
    expect(validateOfferRequest(weekly, 'new', 5_000_00, 30)).toEqual([
      { propertyPath: 'term', message: 'The term must be between 7 days and 28 days.' },
    ])
  })

  it('refuses an additional loan for a guest', () => {
    expect(validateOfferRequest(calculator, 'guest', 5_000_00, 7, { additionalLoan: true })).toEqual([
      {
        propertyPath: 'additionalLoan',
        message: 'Only a client with an active loan can take an additional loan.',
      },
    ])
  })

  it('makes computeOffer throw with the same violations instead of pricing', () => {
    try {
      computeOffer({ ...base, amount: 999_99 })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(OfferRequestError)
      expect((error as OfferRequestError).violations).toEqual(
        validateOfferRequest(calculator, 'new', 999_99, 30),
      )
    }
  })
})

describe('pricing configuration caps', () => {
  it('accepts the default pricing over the default calculator', () => {
    expect(validatePricingConfig(pricing, calculator)).toEqual([])
    expect(v.safeParse(pricingConfigSchema, pricing).success).toBe(true)
  })

  it('refuses nominal interest above 0.2% a day, per client kind', () => {
    const violations = validatePricingConfig(
      { ...pricing, interestPpmPerDay: { new: 2_001, repeat: 1_700 } },
      calculator,
    )
    expect(violations.find((x) => x.cap === 'nominal')).toEqual({
      propertyPath: 'interestPpmPerDay.new',
      cap: 'nominal',
      message:
        'Nominal interest for new clients and guests is 0.2001% a day, above the legal cap of 0.2% a day (6% a month, SEC MC 3 s.2022 as amended by SEC MC 14 s.2025).',
    })
  })

  it('accepts exactly 0.2% a day when every interest is a whole number of centavos', () => {
    // On the ₱100 grid 0.2% a day is ₱0.20 per ₱100 per day: whole centavos, nothing to round.
    const atCap = { ...pricing, interestPpmPerDay: { new: 2_000, repeat: 2_000 } }
    expect(validatePricingConfig(atCap, calculator).filter((x) => x.cap === 'nominal')).toEqual([])
  })

  it('refuses 0.2% a day when rounding half up could push interest over it', () => {
    const atCap = { ...pricing, interestPpmPerDay: { new: 2_000, repeat: 1_700 } }
    const centavoGrid = { ...calculator, amountLimits: { ...calculator.amountLimits, interval: 1 } }
    const [violation] = validatePricingConfig(atCap, centavoGrid).filter((x) => x.cap === 'nominal')
    expect(violation?.propertyPath).toBe('interestPpmPerDay.new')
    expect(violation?.message).toContain('rounded half up')
  })

  it('refuses a flat processing fee that breaks 12% a month pro-rated on the shortest, smallest loan', () => {
    // ₱15 minimum on a ₱500 additional loan over 7 days: 1.19% + 3% + 0.2% + 0.3% = 4.69% > 2.80%
    const violations = validatePricingConfig(
      { ...pricing, processingFee: { bps: 80, fixed: 0, min: 1_500 } },
      calculator,
    )
    const effective = violations.filter((x) => x.cap === 'effective')
    expect(effective.map((x) => x.message)).toEqual([
      expect.stringContaining(
        'Interest plus fees for new clients and guests can reach 4.83% of principal (₱500.00 over 7 days)',
      ),
      expect.stringContaining(
        'Interest plus fees for repeat clients can reach 4.69% of principal (₱500.00 over 7 days)',
      ),
    ])
    expect(effective[0]?.message).toContain('above the legal cap of 2.80% for that term')
  })

  it('refuses fees that break the pro-rated cap only at the 7-day end', () => {
    // 1.33% interest + 1.48% fees = 2.81% > 2.80% at 7 days; at 30 days 7.18% is far below 12%.
    const violations = validatePricingConfig(
      { ...pricing, processingFee: { bps: 98, fixed: 0, min: 0 } },
      calculator,
    )
    expect(violations.map((x) => x.cap)).toEqual(['effective'])
    expect(violations[0]?.message).toMatch(
      /^Interest plus fees for new clients and guests can reach 2\.81% of principal \(₱[^)]+ over 7 days\)/,
    )
  })

  it('refuses an extension dearer than 0.2% a day', () => {
    const violations = validatePricingConfig(
      { ...pricing, extensions: { ...pricing.extensions, cheap: { term: 7, feeBps: 141 } } },
      calculator,
    )
    expect(violations).toEqual([
      {
        propertyPath: 'extensions.cheap.feeBps',
        cap: 'nominal',
        message:
          'The cheap extension costs 1.41% for 7 days, above the legal cap of 1.40% (0.2% a day, SEC MC 3 s.2022 as amended by SEC MC 14 s.2025; an extension counts as a renewal).',
      },
    ])
  })

  it('refuses more extensions than the 100% total-cost cap allows', () => {
    // repeat, 60 days: 11.50% + n × 5.70% ≤ 100% → n ≤ 15; 16 breaks it (102.70%).
    expect(
      validatePricingConfig({ ...pricing, extensions: { ...pricing.extensions, maxCount: 15 } }, calculator),
    ).toEqual([])
    const violations = validatePricingConfig(
      { ...pricing, extensions: { ...pricing.extensions, maxCount: 16 } },
      calculator,
    )
    expect(violations.map((x) => x.cap)).toEqual(['total'])
    expect(violations[0]?.message).toMatch(
      /^Total cost for repeat clients can reach 102\.70% of principal \(₱[^)]+ over 60 days/,
    )
  })

  it('refuses the default pricing for a calculator allowing 1-day loans, from either document', () => {
    const oneDay = { ...calculator, termLimits: { ...calculator.termLimits, minTermForNew: 1 } }
    expect(v.safeParse(pricingConfigSchemaFor(oneDay), pricing).success).toBe(false)
    const calculatorResult = v.safeParse(calculatorConfigSchemaFor(pricing), oneDay)
    expect(calculatorResult.success).toBe(false)
    expect(calculatorResult.issues?.[0]?.message).toMatch(
      /^With the pricing in force: Interest plus fees for new clients/,
    )
    expect(v.safeParse(calculatorConfigSchemaFor(pricing), calculator).success).toBe(true)
  })

  it('maps violations to the field paths the server reports', () => {
    const result = v.safeParse(pricingConfigSchema, {
      ...pricing,
      interestPpmPerDay: { new: 2_500, repeat: 1_700 },
    })
    expect(result.success).toBe(false)
    expect(result.issues?.map((issue) => v.getDotPath(issue))).toContain('interestPpmPerDay.new')
  })

  it('refuses malformed documents with field paths, prefixed in the combined check', () => {
    const violations = validateLendingConfig({
      pricing: { ...pricing, processingFee: { bps: 12.5 } },
      calculator: { ...calculator, termLimits: { ...calculator.termLimits, interval: 0 } },
    })
    expect(violations).toEqual([
      {
        propertyPath: 'pricing.processingFee.bps',
        message: 'Percent of principal (basis points) must be a whole number.',
      },
      { propertyPath: 'calculator.termLimits.interval', message: expect.any(String) },
    ])
    expect(validateLendingConfig({ pricing, calculator })).toEqual([])
    expect(
      validateLendingConfig({
        pricing: { ...pricing, interestPpmPerDay: { new: 3_000, repeat: 1_700 } },
        calculator,
      })[0]?.propertyPath,
    ).toBe('pricing.interestPpmPerDay.new')
  })

  it('still refuses to price an unlawful offer if an unchecked config reaches the engine', () => {
    const unchecked = { ...pricing, interestPpmPerDay: { new: 5_000, repeat: 1_700 } }
    expect(() => computeOffer({ ...base, pricing: unchecked })).toThrow(UnlawfulOfferError)
  })
})
