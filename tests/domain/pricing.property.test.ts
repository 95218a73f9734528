/**
 * Properties of the pricing engine and of the config validator. The lawfulness oracle here is written apart
 * from domain/pricing/caps.ts, with the caps as plain fractions (0.2% a day = 1/500, 12% per 30 days = 1/250
 * a day), so the engine is never checked against itself.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type CalculatorConfig, defaultCalculatorConfig } from '../../domain/calculator-config'
import type { ClientKind, Offer } from '../../domain/offer'
import { defaultPricingConfig, type PricingConfig, validatePricingConfig } from '../../domain/pricing/config'
import { computeOffer, UnlawfulOfferError, validateOfferRequest } from '../../domain/pricing/offer'
import type { ResolvedPromo } from '../../domain/pricing/promo'
import { gridPoints, type OfferRange, offerRange } from '../../domain/pricing/ranges'

// PRICING_RUNS_SCALE=10 for a deeper soak; the defaults keep the file under a few seconds.
const scale = Number(process.env.PRICING_RUNS_SCALE ?? 1)
const RUNS = { default: 5_000 * scale, configs: 400 * scale, boundaries: 300 * scale }
const HEAVY_TIMEOUT_MS = 60_000 * Math.max(1, scale)

const moneyFields = [
  'principal',
  'interest',
  'interest_without_discount',
  'processingFee',
  'processing_fee_without_discount',
  'serviceFee',
  'serviceFee_without_discount',
  'withdrawalFee',
  'invoicingFee',
  'borrowers_advantage_package_fee',
  'total',
  'total_without_discount',
] as const

type Cap = 'nominal' | 'effective' | 'total'

/** Which caps an offer breaks, from its undiscounted figures (the ones the law bounds). */
function breaches(offer: Offer, maxExtensions: number): Set<Cap> {
  const found = new Set<Cap>()
  const p = BigInt(offer.principal.amount)
  const t = BigInt(offer.term)
  const cost = BigInt(offer.total_without_discount.amount) - p
  if (BigInt(offer.interest_without_discount.amount) * 500n > p * t) found.add('nominal')
  if (cost * 250n > p * t) found.add('effective')
  let dearest = 0n
  for (const extension of offer.extensions) {
    const fee = BigInt(extension.fee.amount)
    if (fee > dearest) dearest = fee
    if (fee * 500n > p * BigInt(extension.term)) found.add('nominal')
  }
  if (cost + BigInt(maxExtensions) * dearest > p) found.add('total')
  return found
}

/** Everything an offer must satisfy besides the caps. */
function checkOffer(offer: Offer, request: { amount: number; term: number; today: string }) {
  for (const field of moneyFields) {
    const { amount } = offer[field]
    expect(Number.isSafeInteger(amount) && amount >= 0, `${field} = ${amount}`).toBe(true)
  }
  for (const discount of [offer.discount.interest.amount, offer.discount.serviceFee.amount])
    expect(Number.isSafeInteger(discount) && discount >= 0).toBe(true)
  expect(offer.principal.amount).toBe(request.amount)
  expect(offer.term).toBe(request.term)
  const fees =
    offer.processingFee.amount +
    offer.withdrawalFee.amount +
    offer.invoicingFee.amount +
    offer.borrowers_advantage_package_fee.amount
  expect(offer.total.amount).toBe(
    offer.principal.amount + offer.interest.amount + offer.serviceFee.amount + fees,
  )
  expect(offer.total_without_discount.amount).toBe(
    offer.principal.amount +
      offer.interest_without_discount.amount +
      offer.serviceFee_without_discount.amount +
      fees,
  )
  expect(offer.discount.interest.amount).toBe(offer.interest_without_discount.amount - offer.interest.amount)
  expect(offer.discount.serviceFee.amount).toBe(
    offer.serviceFee_without_discount.amount - offer.serviceFee.amount,
  )
  expect(offer.total.amount).toBe(
    offer.total_without_discount.amount - offer.discount.interest.amount - offer.discount.serviceFee.amount,
  )
  expect(offer.processingFee.amount).toBe(offer.processing_fee_without_discount.amount)
  for (const [apr, total] of [
    [offer.apr, offer.total.amount],
    [offer.apr_without_discount, offer.total_without_discount.amount],
  ] as const) {
    const exact = ((total - offer.principal.amount) / offer.principal.amount) * (365 / offer.term) * 100
    expect(Math.abs(apr - exact)).toBeLessThanOrEqual(0.005 + 1e-9)
    expect(Math.round(apr * 100)).toBeCloseTo(apr * 100, 6)
  }
  expect(offer.apr).toBeLessThanOrEqual(offer.apr_without_discount)
  const [y, m, d] = request.today.split('-').map(Number) as [number, number, number]
  expect(offer.endDate).toBe(new Date(Date.UTC(y, m - 1, d + request.term)).toISOString().slice(0, 10))
}

/** round half up of n / d in plain doubles: exact while n stays below 2^53, which it does for these ranges. */
const roundHalfUp = (n: number, d: number) => Math.floor((2 * n + d) / (2 * d))

function checkDefaultFigures(offer: Offer, kind: ClientKind, withPackageFee: boolean) {
  const p = offer.principal.amount
  const rate = kind === 'repeat' ? 1_700 : 1_900
  expect(offer.interest_without_discount.amount).toBe(roundHalfUp(p * rate * offer.term, 1_000_000))
  expect(offer.processingFee.amount).toBe(roundHalfUp(p * 80, 10_000))
  expect(offer.serviceFee_without_discount.amount).toBe(roundHalfUp(p * 20, 10_000))
  expect(offer.borrowers_advantage_package_fee.amount).toBe(withPackageFee ? roundHalfUp(p * 30, 10_000) : 0)
}

const today = '2026-11-22'
const kindsAndLoans: [ClientKind, boolean][] = [
  ['guest', false],
  ['new', false],
  ['new', true],
  ['repeat', false],
  ['repeat', true],
]

const promoArb: fc.Arbitrary<ResolvedPromo | undefined> = fc.option(
  fc.record({
    code: fc.constantFrom('ABC', 'SUMMER25', 'ZERO0'),
    interestDiscountBps: fc.oneof(fc.constantFrom(0, 10_000), fc.integer({ min: 0, max: 10_000 })),
    serviceFeeDiscountBps: fc.oneof(fc.constantFrom(0, 10_000), fc.integer({ min: 0, max: 10_000 })),
  }),
  { nil: undefined },
)

describe('the default pricing over the whole default calculator range', () => {
  it('prices every grid point lawfully, exactly and consistently (exhaustive sweep)', {
    timeout: HEAVY_TIMEOUT_MS,
  }, () => {
    const calculator = defaultCalculatorConfig
    const pricing = defaultPricingConfig
    const promos: (ResolvedPromo | undefined)[] = [
      undefined,
      { code: 'ALL', interestDiscountBps: 10_000, serviceFeeDiscountBps: 10_000 },
    ]
    let offers = 0
    for (const [kind, additionalLoan] of kindsAndLoans) {
      const range = offerRange(calculator, kind, additionalLoan)!
      for (const amount of gridPoints(range.amount))
        for (const term of gridPoints(range.term))
          for (const withPackageFee of [true, false])
            for (const promo of promos) {
              const offer = computeOffer({
                pricing,
                calculator,
                kind,
                amount,
                term,
                promo,
                withPackageFee,
                today,
                additionalLoan,
              })
              offers++
              // Cheap checks on every offer; the full checkOffer runs in the sampled property below.
              if (breaches(offer, pricing.extensions.maxCount).size)
                throw new Error(
                  `unlawful: ${kind} ${amount} ${term} ${JSON.stringify([...breaches(offer, pricing.extensions.maxCount)])}`,
                )
              if (offer.total.amount > offer.total_without_discount.amount)
                throw new Error('discount raised price')
            }
    }
    // guest 91×24 + new 91×24 + new additional 96×24 + repeat 241×54 + repeat additional 246×54, × 2 × 2
    expect(offers).toBe((91 * 24 * 2 + 96 * 24 + 241 * 54 + 246 * 54) * 4)
  })

  it('holds every property at sampled grid points, kinds, package choices and promos', {
    timeout: HEAVY_TIMEOUT_MS,
  }, () => {
    const calculator = defaultCalculatorConfig
    const pricing = defaultPricingConfig
    const requestArb = fc
      .tuple(
        fc.constantFrom(...kindsAndLoans),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        promoArb,
        fc.date({ min: new Date('2026-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }),
      )
      .map(([[kind, additionalLoan], i, j, withPackageFee, promo, instant]) => {
        const range = offerRange(calculator, kind, additionalLoan)!
        const amounts = gridPoints(range.amount)
        const terms = gridPoints(range.term)
        return {
          kind,
          additionalLoan,
          amount: amounts[i % amounts.length]!,
          term: terms[j % terms.length]!,
          withPackageFee,
          promo,
          instant,
        }
      })
    fc.assert(
      fc.property(requestArb, (request) => {
        const manilaToday = new Date(request.instant.getTime() + 8 * 3_600_000).toISOString().slice(0, 10)
        const offer = computeOffer({ ...request, pricing, calculator, today: request.instant })
        checkOffer(offer, { ...request, today: manilaToday })
        checkDefaultFigures(offer, request.kind, request.withPackageFee)
        expect([...breaches(offer, pricing.extensions.maxCount)]).toEqual([])
        // A promo only ever lowers the price, and never touches the undiscounted figures.
        const without = computeOffer({
          ...request,
          promo: undefined,
          pricing,
          calculator,
          today: request.instant,
        })
        expect(offer.total.amount).toBeLessThanOrEqual(without.total.amount)
        expect(offer.total_without_discount).toEqual(without.total_without_discount)
        expect(offer.extensions).toEqual(without.extensions)
      }),
      { numRuns: RUNS.default },
    )
  })

  it('rejects, without clamping, every request off the grid or out of range', {
    timeout: HEAVY_TIMEOUT_MS,
  }, () => {
    const calculator = defaultCalculatorConfig
    fc.assert(
      fc.property(
        fc.constantFrom(...kindsAndLoans.filter(([kind, additional]) => !(kind === 'guest' && additional))),
        fc.integer({ min: -1_000_00, max: 30_000_00 }),
        fc.integer({ min: -5, max: 70 }),
        ([kind, additionalLoan], amount, term) => {
          const range = offerRange(calculator, kind, additionalLoan)!
          const amountOk =
            amount >= range.amount.min &&
            amount <= range.amount.max &&
            (amount - range.amount.min) % 100_00 === 0
          const termOk = term >= range.term.min && term <= range.term.max
          const violations = validateOfferRequest(calculator, kind, amount, term, { additionalLoan })
          expect(violations.some((x) => x.propertyPath === 'amount')).toBe(!amountOk)
          expect(violations.some((x) => x.propertyPath === 'term')).toBe(!termOk)
        },
      ),
      { numRuns: RUNS.default },
    )
  })
})

describe('validatePricingConfig at the exact boundaries of the default calculator', () => {
  // The default grid gives whole centavos everywhere, so the validator must be exact there, not just safe.
  const calculator = defaultCalculatorConfig
  const accepts = (pricing: PricingConfig) => validatePricingConfig(pricing, calculator).length === 0
  const capsOf = (pricing: PricingConfig) =>
    new Set(validatePricingConfig(pricing, calculator).map((x) => x.cap))

  it('accepts the default', () => {
    expect(validatePricingConfig(defaultPricingConfig, calculator)).toEqual([])
  })

  it('accepts daily interest up to 0.2% and refuses anything above', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000 }), fc.boolean(), (rate, forNew) => {
        const pricing = {
          ...defaultPricingConfig,
          interestPpmPerDay: { ...defaultPricingConfig.interestPpmPerDay, [forNew ? 'new' : 'repeat']: rate },
        }
        expect(accepts(pricing)).toBe(rate <= 2_000)
        if (rate > 2_000) expect(capsOf(pricing).has('nominal')).toBe(true)
      }),
      {
        numRuns: RUNS.boundaries,
        examples: [
          [2_000, true],
          [2_001, true],
          [2_000, false],
          [2_001, false],
        ],
      },
    )
  })

  it('accepts a processing fee up to 0.97% (7-day new loan: 1.33 + 0.97 + 0.50 = 2.80%) and no more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), (bps) => {
        const pricing = { ...defaultPricingConfig, processingFee: { bps, fixed: 0, min: 0 } }
        expect(accepts(pricing)).toBe(bps <= 97)
        if (bps > 97) expect(capsOf(pricing).has('effective')).toBe(true)
      }),
      { numRuns: RUNS.boundaries, examples: [[97], [98]] },
    )
  })

  it('accepts a processing-fee minimum up to ₱4.85 (₱500 for 7 days: 6.65 + 4.85 + 1.00 + 1.50 = 14.00) and no more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3_000 }), (min) => {
        expect(accepts({ ...defaultPricingConfig, processingFee: { bps: 80, fixed: 0, min } })).toBe(
          min <= 485,
        )
      }),
      { numRuns: RUNS.boundaries, examples: [[485], [486]] },
    )
  })

  it('accepts up to 15 extensions (repeat 60 days: 11.5% + 15 × 5.7% = 97%) and no more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), (maxCount) => {
        const pricing = {
          ...defaultPricingConfig,
          extensions: { ...defaultPricingConfig.extensions, maxCount },
        }
        expect(accepts(pricing)).toBe(maxCount <= 15)
        if (maxCount > 15) expect([...capsOf(pricing)]).toEqual(['total'])
      }),
      { numRuns: RUNS.boundaries, examples: [[15], [16]] },
    )
  })

  it('accepts an extension up to 0.2% a day of its own term while 5 of them fit under 100%', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 0, max: 3_000 }),
        fc.constantFrom('cheap', 'expensive'),
        (term, feeBps, type) => {
          const pricing = {
            ...defaultPricingConfig,
            extensions: { ...defaultPricingConfig.extensions, [type]: { term, feeBps } },
          }
          // repeat 60 days costs 11.5%, so 5 × the dearest extension may be at most 88.5%: 17.70% each.
          expect(accepts(pricing)).toBe(feeBps <= 20 * term && feeBps <= 1_770)
        },
      ),
      { numRuns: RUNS.boundaries },
    )
  })
})

/**
 * Small calculators, so that every grid point of every range can be priced for each fuzzed config: a few amounts
 * on awkward intervals (1, 3, 7 centavos give charges in fractions of a centavo) and short terms near a week.
 */
const calculatorArb: fc.Arbitrary<CalculatorConfig> = fc
  .record({
    mainMin: fc.constantFrom(50_000, 100_000, 100_001, 123_457, 1_000_000),
    interval: fc.constantFrom(1, 3, 7, 100, 5_000, 10_000),
    additionalSteps: fc.integer({ min: 0, max: 4 }),
    newSteps: fc.integer({ min: 0, max: 6 }),
    repeatSteps: fc.integer({ min: 0, max: 6 }),
    overshoot: fc.nat(9_999),
    newTermMin: fc.oneof(
      { arbitrary: fc.constant(7), weight: 2 },
      { arbitrary: fc.integer({ min: 1, max: 14 }), weight: 3 },
    ),
    repeatTermMin: fc.oneof(
      { arbitrary: fc.constant(7), weight: 2 },
      { arbitrary: fc.integer({ min: 1, max: 14 }), weight: 3 },
    ),
    termInterval: fc.integer({ min: 1, max: 3 }),
    newTermSteps: fc.integer({ min: 0, max: 5 }),
    repeatTermSteps: fc.integer({ min: 0, max: 5 }),
  })
  .map((c) => {
    const newMax = c.mainMin + c.newSteps * c.interval + (c.overshoot % c.interval)
    const repeatMax = c.mainMin + c.repeatSteps * c.interval + (c.overshoot % c.interval)
    const newTermMax = c.newTermMin + c.newTermSteps * c.termInterval
    const repeatTermMax = c.repeatTermMin + c.repeatTermSteps * c.termInterval
    return {
      termLimits: {
        minTermForNew: c.newTermMin,
        maxTermForNew: newTermMax,
        minTermForRepeated: c.repeatTermMin,
        maxTermForRepeated: repeatTermMax,
        interval: c.termInterval,
      },
      amountLimits: {
        minMainLoan: c.mainMin,
        amountTo: Math.max(newMax, repeatMax),
        minAdditionLoan: Math.max(1, c.mainMin - c.additionalSteps * c.interval - (c.overshoot % 13)),
        interval: c.interval,
      },
      initialStates: {
        new: { initialAmount: c.mainMin, minAmount: c.mainMin, maxAmount: newMax, maxTerm: newTermMax },
        repeated: { initialAmount: c.mainMin, minAmount: c.mainMin, maxAmount: repeatMax },
      },
    }
  })

/**
 * Pricing around the caps: rates either side of 0.2% a day, percentage fees around what a short term's cap
 * leaves, and now and then a flat part or a floor, which is what breaks the cap on the smallest loans.
 */
const mostlyZero = (max: number) =>
  fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 0, max }), weight: 1 })
const feeArb = (maxBps: number) =>
  fc.record({ bps: fc.integer({ min: 0, max: maxBps }), fixed: mostlyZero(300), min: mostlyZero(900) })
const noFee = { bps: 0, fixed: 0, min: 0 }
const extensionArb = fc
  .tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: -30, max: 3 }))
  .map(([term, slack]) => ({ term, feeBps: Math.max(0, 20 * term + slack) }))
const pricingArb: fc.Arbitrary<PricingConfig> = fc.record({
  product: fc.constant('stl' as const),
  interestPpmPerDay: fc.record({
    new: fc.integer({ min: 1_500, max: 2_050 }),
    repeat: fc.integer({ min: 1_200, max: 2_050 }),
  }),
  processingFee: feeArb(100),
  serviceFee: fc.oneof(fc.constant(noFee), feeArb(30)),
  withdrawalFee: fc.oneof({ arbitrary: fc.constant(noFee), weight: 3 }, { arbitrary: feeArb(20), weight: 1 }),
  invoicingFee: fc.oneof({ arbitrary: fc.constant(noFee), weight: 3 }, { arbitrary: feeArb(20), weight: 1 }),
  packageFee: fc.oneof(fc.constant(noFee), feeArb(40)),
  firstLoanDiscount: fc.record({
    interestBps: fc.integer({ min: 0, max: 10_000 }),
    serviceFeeBps: fc.integer({ min: 0, max: 10_000 }),
  }),
  extensions: fc.record({
    cheap: extensionArb,
    expensive: extensionArb,
    maxCount: fc.integer({ min: 0, max: 15 }),
  }),
})

function everyRequest(calculator: CalculatorConfig) {
  const requests: { kind: ClientKind; additionalLoan: boolean; amount: number; term: number }[] = []
  for (const [kind, additionalLoan] of kindsAndLoans) {
    const range: OfferRange | undefined = offerRange(calculator, kind, additionalLoan)
    if (!range) continue
    for (const amount of gridPoints(range.amount))
      for (const term of gridPoints(range.term)) requests.push({ kind, additionalLoan, amount, term })
  }
  return requests
}

describe('validatePricingConfig against brute force over fuzzed configs', () => {
  it('refuses every config that can price an unlawful offer, naming the broken cap; accepted configs only price lawful offers, with any promo', {
    timeout: HEAVY_TIMEOUT_MS,
  }, () => {
    let accepted = 0
    let refused = 0
    let refusedAndBroken = 0
    fc.assert(
      fc.property(pricingArb, calculatorArb, promoArb, (pricing, calculator, promo) => {
        const refusedCaps = new Set(validatePricingConfig(pricing, calculator).map((x) => x.cap))
        if (refusedCaps.size) refused++
        else accepted++
        let broken = false
        for (const request of everyRequest(calculator)) {
          const input = { ...request, pricing, calculator, withPackageFee: true, today }
          let offer: Offer
          try {
            offer = computeOffer(input)
          } catch (error) {
            // The engine's last line of defence may only fire for a config the validator refused, and only on
            // an offer this oracle also finds unlawful.
            if (!(error instanceof UnlawfulOfferError)) throw error
            const found = breaches(error.offer, pricing.extensions.maxCount)
            expect(found.size).toBeGreaterThan(0)
            for (const cap of found) expect(refusedCaps).toContain(cap)
            broken = true
            continue
          }
          for (const cap of breaches(offer, pricing.extensions.maxCount)) {
            expect(refusedCaps).toContain(cap)
            broken = true
          }
          if (refusedCaps.size === 0) {
            checkOffer(offer, { ...request, today })
            const discounted = computeOffer({ ...input, promo })
            checkOffer(discounted, { ...request, today })
            expect(discounted.total.amount).toBeLessThanOrEqual(offer.total.amount)
            expect(breaches(discounted, pricing.extensions.maxCount).size).toBe(0)
          }
        }
        if (broken) refusedAndBroken++
      }),
      { numRuns: RUNS.configs },
    )
    // The generator sits around the caps: both outcomes must be well represented for the property to mean much.
    console.info(
      `fuzzed pricing configs: ${accepted} accepted, ${refused} refused (${refusedAndBroken} with an unlawful offer on the grid)`,
    )
    expect(accepted).toBeGreaterThan(RUNS.configs / 10)
    expect(refusedAndBroken).toBeGreaterThan(RUNS.configs / 10)
  })

  it('refuses configs pushed past a cap by at least a centavo at the worst point', () => {
    // Take the default and break one cap by a visible margin; the matching cap must be named.
    const breakArb = fc.oneof(
      fc.record({ cap: fc.constant('nominal' as const), excess: fc.integer({ min: 1, max: 3_000 }) }),
      fc.record({ cap: fc.constant('effective' as const), excess: fc.integer({ min: 1, max: 300 }) }),
      fc.record({ cap: fc.constant('total' as const), excess: fc.integer({ min: 1, max: 80 }) }),
    )
    fc.assert(
      fc.property(breakArb, ({ cap, excess }) => {
        const d = defaultPricingConfig
        const pricing: PricingConfig =
          cap === 'nominal'
            ? { ...d, interestPpmPerDay: { ...d.interestPpmPerDay, repeat: 2_000 + excess } }
            : cap === 'effective'
              ? { ...d, packageFee: { bps: d.packageFee.bps + 17 + excess, fixed: 0, min: 0 } }
              : { ...d, extensions: { ...d.extensions, maxCount: 15 + excess } }
        expect(validatePricingConfig(pricing, defaultCalculatorConfig).map((x) => x.cap)).toContain(cap)
      }),
      { numRuns: RUNS.boundaries },
    )
  })
})
