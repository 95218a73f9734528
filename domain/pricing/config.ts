/**
 * Pricing parameters (database config key 'pricing') and the validator that refuses any configuration able to
 * produce an unlawful offer somewhere in the calculator's ranges. Refusing the config, rather than capping
 * offers in the engine, keeps the price an admin saved and the price a borrower sees the same thing: a capped
 * engine would quietly sell at a price nobody chose and every disclosure would have to explain it.
 *
 * Units: interest in parts per million of principal per day (1 900 = 0.19% a day), so a rate like 0.1875% is
 * exact; every other percentage in basis points of principal (100 = 1%); money in integer centavos; terms in
 * days. ADR 0005 has the formulas.
 */
import * as v from 'valibot'
import { type CalculatorConfig, calculatorConfigSchema, defaultCalculatorConfig } from '../calculator-config'
import type { Violation } from '../contract/wire'
import { formatPhp } from '../format'
import { ceilDiv } from '../money'
import { BPS, EFFECTIVE_CAP_PPM_PER_DAY, NOMINAL_CAP_PPM_PER_DAY, PPM, TOTAL_COST_CAP_BPS } from './caps'
import { allOfferRanges, type OfferRange } from './ranges'

const whole = (min: number, max: number, what: string) =>
  v.pipe(
    v.number(`${what} must be a number.`),
    v.integer(`${what} must be a whole number.`),
    v.minValue(min, `${what} must be at least ${min}.`),
    v.maxValue(max, `${what} must be at most ${max}.`),
  )
const bps = (what: string) => whole(0, 10_000, `${what} (basis points)`)
const centavos = (what: string) => whole(0, Number.MAX_SAFE_INTEGER, `${what} (centavos)`)

/**
 * A charge on the principal: round_half_up(principal × bps / 10 000) + fixed, and never below min. Flat
 * charges (a ₱15 transfer fee) set bps 0 and fixed; a percentage with a floor sets bps and min.
 */
export const feeSchema = v.object({
  bps: bps('Percent of principal'),
  fixed: v.optional(centavos('Flat amount'), 0),
  min: v.optional(centavos('Minimum'), 0),
})
export type FeeConfig = v.InferOutput<typeof feeSchema>

export const extensionOptionConfigSchema = v.object({
  /** Days the extension adds to the due date. */
  term: whole(1, 365, 'Extension term (days)'),
  /** The whole price of those days, in basis points of the principal: no interest accrues on top. */
  feeBps: bps('Extension fee'),
})

export const pricingConfigShapeSchema = v.object({
  product: v.literal('stl', 'The product must be stl.'),
  /** Daily nominal interest in parts per million of principal: 2 000 is the legal maximum of 0.2% a day. */
  interestPpmPerDay: v.object({
    new: whole(0, 1_000_000, 'Daily interest for new clients (ppm)'),
    repeat: whole(0, 1_000_000, 'Daily interest for repeat clients (ppm)'),
  }),
  processingFee: feeSchema,
  serviceFee: feeSchema,
  withdrawalFee: feeSchema,
  invoicingFee: feeSchema,
  /** The optional borrowers advantage package; charged only when the borrower keeps it. */
  packageFee: feeSchema,
  /** A first loan's discount (new clients and guests), as basis points OF the interest and OF the service fee. */
  firstLoanDiscount: v.object({
    interestBps: bps('First-loan interest discount'),
    serviceFeeBps: bps('First-loan service-fee discount'),
  }),
  extensions: v.object({
    cheap: extensionOptionConfigSchema,
    expensive: extensionOptionConfigSchema,
    /** Extensions one loan may take; the total-cost cap is checked as if every one were the dearest. */
    maxCount: whole(0, 100, 'Maximum number of extensions'),
  }),
})
export type PricingConfig = v.InferOutput<typeof pricingConfigShapeSchema>
export type PricingClass = keyof PricingConfig['interestPpmPerDay']
export const chargedFees = [
  'processingFee',
  'serviceFee',
  'withdrawalFee',
  'invoicingFee',
  'packageFee',
] as const

/**
 * The shipped pricing, lawful over the default calculator ranges (₱500 additional loans to ₱25 000, 7 to 60
 * days), with every charge a whole number of centavos on the ₱100 grid:
 *
 *   new / guest, 7 days:  interest 7 × 0.19% = 1.33% + fees 0.80 + 0.20 + 0.30 = 2.63%  ≤ 12% × 7/30 = 2.80%
 *   new / guest, 30 days: 5.70% + 1.30% = 7.00%                                          ≤ 12.00%
 *   repeat, 7 days:       7 × 0.17% = 1.19% + 1.30% = 2.49%                              ≤ 2.80%
 *   repeat, 60 days:      10.20% + 1.30% = 11.50%                                         ≤ 24.00%
 *   extensions: cheap 7 days 1.33% (0.19%/day), expensive 30 days 5.70% (0.19%/day)      ≤ 0.2%/day
 *   total, worst case:    repeat 60 days 11.50% + 5 × 5.70% = 40.00%                      ≤ 100%
 *
 * The 7-day term is the binding one: fees do not grow with the term while the cap grows 0.4% a day, so
 * processing + service + package may total at most 2.80% − 1.33% = 1.47% of principal (no flat minimum: a ₱10
 * minimum alone is 2% of a ₱500 loan). At 0.8% + 0.2% + 0.3% = 1.3% the margin is 0.17% (₱0.85 on ₱500).
 * Five expensive extensions take a 60-day loan to 210 days, inside the one-year final closing date.
 */
export const defaultPricingConfig: PricingConfig = {
  product: 'stl',
  interestPpmPerDay: { new: 1_900, repeat: 1_700 },
  processingFee: { bps: 80, fixed: 0, min: 0 },
  serviceFee: { bps: 20, fixed: 0, min: 0 },
  withdrawalFee: { bps: 0, fixed: 0, min: 0 },
  invoicingFee: { bps: 0, fixed: 0, min: 0 },
  packageFee: { bps: 30, fixed: 0, min: 0 },
  firstLoanDiscount: { interestBps: 2_000, serviceFeeBps: 5_000 },
  extensions: { cheap: { term: 7, feeBps: 133 }, expensive: { term: 30, feeBps: 570 }, maxCount: 5 },
}

export type Cap = 'nominal' | 'effective' | 'total'
export interface PricingViolation extends Violation {
  cap: Cap
}

/*
 * How the worst case is found without enumerating every offer.
 *
 * Work in micro-centavos (10⁻⁶ centavo) so interest P × ppm × t and fees P × bps × 100 are exact integers.
 * Each charge is rounded half up once, so it exceeds its exact value by at most half a centavo, and by nothing
 * when it is a whole number of centavos at every point of the grid (checked below). With that allowance added,
 * "upper cost − cap" is, for a fixed term, convex in the principal (linear parts plus max(…, minimum)), and
 * for a fixed principal linear in the term. A function convex in each variable separately takes its maximum
 * over a box at a corner, so checking the four corners (min/max principal × min/max term) of each range proves
 * the cap for every offer in it. Discounts only lower cost, so undiscounted prices with the package fee are
 * checked.
 */
const MICRO = PPM
const HALF_CENTAVO = MICRO / 2n

/**
 * Is P × factor × t / denominator a whole number at every grid point? With P = P0 + i·dP and t = t0 + j·dt the
 * product expands to four terms in 1, i, j and i·j; it is whole for every i, j exactly when each coefficient
 * is. A fee on the principal alone passes term 1.
 */
function wholeOnGrid(range: OfferRange, factor: number, denominator: bigint, fixedTerm?: number): boolean {
  const p0 = BigInt(range.amount.min)
  const dp = range.amount.min === range.amount.max ? 0n : BigInt(range.amount.interval)
  const t0 = BigInt(fixedTerm ?? range.term.min)
  const dt = fixedTerm !== undefined || range.term.min === range.term.max ? 0n : BigInt(range.term.interval)
  return [p0 * t0, dp * t0, p0 * dt, dp * dt].every((k) => (k * BigInt(factor)) % denominator === 0n)
}
const feeIsWhole = (feeBps: number, range: OfferRange) => wholeOnGrid(range, feeBps, BPS, 1)
const interestIsWhole = (ppm: number, range: OfferRange) => wholeOnGrid(range, ppm, PPM)

function feeUpper(fee: FeeConfig, principal: bigint, whole: boolean): bigint {
  const percent = principal * BigInt(fee.bps) * 100n + (whole ? 0n : HALF_CENTAVO) + BigInt(fee.fixed) * MICRO
  const floor = BigInt(fee.min) * MICRO
  return percent > floor ? percent : floor
}

const extensionTypes = ['cheap', 'expensive'] as const

/**
 * Upper bounds, in micro-centavos, of what one corner can charge: interest, the five fees (package included),
 * and the dearest extension. With `exact` the rounding allowance is left out.
 */
function chargesAt(
  pricing: PricingConfig,
  rate: number,
  range: OfferRange,
  principal: bigint,
  term: bigint,
  exact: boolean,
) {
  const interest =
    principal * BigInt(rate) * term + (exact || interestIsWhole(rate, range) ? 0n : HALF_CENTAVO)
  const fees = chargedFees.reduce(
    (sum, name) => sum + feeUpper(pricing[name], principal, exact || feeIsWhole(pricing[name].bps, range)),
    0n,
  )
  const [cheap, expensive] = extensionTypes.map((type) => {
    const feeBps = pricing.extensions[type].feeBps
    return feeUpper({ bps: feeBps, fixed: 0, min: 0 }, principal, exact || feeIsWhole(feeBps, range))
  }) as [bigint, bigint]
  // bigint: Math.max does not take it
  return { interest, fees, dearestExtension: cheap > expensive ? cheap : expensive }
}

interface Corner {
  principal: bigint
  term: bigint
  /** Upper bound of what the borrower can be charged, micro-centavos. */
  cost: bigint
  /** The same without the rounding allowance, to tell a real breach from a rounding one. */
  exactCost: bigint
  cap: bigint
  /**
   * What charged centavos, being whole, may exceed the exact bound by and still be lawful. When the cap itself is
   * a whole number of centavos at every grid point, whole charges summing to less than cap + 1 centavo sum to at
   * most the cap (so 0.1999% a day, whose interest rounds up to exactly 0.2%, is lawful); otherwise the
   * bound must hold as is. Either way the condition stays linear, so checking corners still suffices.
   */
  slack: bigint
}

const cornerAt =
  (principal: bigint, term: bigint) =>
  (cost: bigint, exactCost: bigint, cap: bigint, capIsWhole: boolean): Corner => ({
    principal,
    term,
    cost,
    exactCost,
    cap,
    slack: capIsWhole ? MICRO - 1n : 0n,
  })

/** Keeps the corner with the highest cost-to-cap ratio among those above their cap. */
function worse(current: Corner | undefined, candidate: Corner): Corner | undefined {
  if (candidate.cost <= candidate.cap + candidate.slack) return current
  if (!current || candidate.cost * current.cap > current.cost * candidate.cap) return candidate
  return current
}

/** part / whole as a percentage, rounded up so a message never understates a cost. */
const percent = (part: bigint, whole: bigint, decimals = 2) => {
  const scale = 10n ** BigInt(decimals)
  const scaled = ceilDiv(part * 100n * scale, whole)
  return `${scaled / scale}.${String(scaled % scale).padStart(decimals, '0')}%`
}
const peso = (micro: bigint) => formatPhp(Number(micro / MICRO))
const days = (n: bigint | number) => `${n} day${n === 1 || n === 1n ? '' : 's'}`
const LAW = 'SEC MC 3 s.2022 as amended by SEC MC 14 s.2025'
const roundingNote = (corner: Corner) =>
  corner.exactCost <= corner.cap
    ? ' once each charge is rounded half up to the centavo (choose rates and an amount interval that give whole centavos, or leave a margin)'
    : ''

const classLabel: Record<PricingClass, string> = { new: 'new clients and guests', repeat: 'repeat clients' }
const classOf = (range: OfferRange): PricingClass => (range.kind === 'repeat' ? 'repeat' : 'new')

function cornersOf(range: OfferRange) {
  const amounts = [...new Set([range.amount.min, range.amount.max])].map(BigInt)
  const terms = [...new Set([range.term.min, range.term.max])].map(BigInt)
  return amounts.flatMap((principal) => terms.map((term) => ({ principal, term })))
}

/**
 * Every way this pricing could produce an unlawful offer within the calculator's ranges; empty when every offer
 * it can produce, with any promo and with or without the package fee, is lawful. Takes a config that already
 * passed pricingConfigShapeSchema.
 */
export function validatePricingConfig(
  pricing: PricingConfig,
  calculator: CalculatorConfig,
): PricingViolation[] {
  const violations: PricingViolation[] = []
  const ranges = allOfferRanges(calculator)

  for (const pricingClass of ['new', 'repeat'] as const) {
    const classRanges = ranges.filter((range) => classOf(range) === pricingClass)
    const rate = pricing.interestPpmPerDay[pricingClass]
    const label = classLabel[pricingClass]
    const ratePath = `interestPpmPerDay.${pricingClass}`
    if (rate > NOMINAL_CAP_PPM_PER_DAY) {
      violations.push({
        propertyPath: ratePath,
        cap: 'nominal',
        message: `Nominal interest for ${label} is ${percent(BigInt(rate), PPM, 4)} a day, above the legal cap of 0.2% a day (6% a month, ${LAW}).`,
      })
    }
    let nominal: Corner | undefined
    let effective: Corner | undefined
    let total: Corner | undefined
    for (const range of classRanges) {
      for (const { principal, term } of cornersOf(range)) {
        const upper = chargesAt(pricing, rate, range, principal, term, false)
        const exact = chargesAt(pricing, rate, range, principal, term, true)
        const corner = cornerAt(principal, term)
        if (rate <= NOMINAL_CAP_PPM_PER_DAY)
          nominal = worse(
            nominal,
            corner(
              upper.interest,
              exact.interest,
              principal * term * BigInt(NOMINAL_CAP_PPM_PER_DAY),
              wholeOnGrid(range, NOMINAL_CAP_PPM_PER_DAY, PPM),
            ),
          )
        effective = worse(
          effective,
          corner(
            upper.interest + upper.fees,
            exact.interest + exact.fees,
            principal * term * BigInt(EFFECTIVE_CAP_PPM_PER_DAY),
            wholeOnGrid(range, EFFECTIVE_CAP_PPM_PER_DAY, PPM),
          ),
        )
        const count = BigInt(pricing.extensions.maxCount)
        total = worse(
          total,
          corner(
            upper.interest + upper.fees + count * upper.dearestExtension,
            exact.interest + exact.fees + count * exact.dearestExtension,
            (principal * MICRO * BigInt(TOTAL_COST_CAP_BPS)) / BPS,
            true,
          ),
        )
      }
    }
    if (nominal)
      violations.push({
        propertyPath: ratePath,
        cap: 'nominal',
        message: `Interest for ${label} can exceed 0.2% a day (${LAW}) on ${peso(nominal.principal * MICRO)} over ${days(nominal.term)}${roundingNote(nominal)}.`,
      })
    if (effective)
      violations.push({
        propertyPath: '',
        cap: 'effective',
        message:
          `Interest plus fees for ${label} can reach ${percent(effective.cost, effective.principal * MICRO)} of principal ` +
          `(${peso(effective.principal * MICRO)} over ${days(effective.term)})${roundingNote(effective)}, above the legal cap of ` +
          `${percent(effective.cap, effective.principal * MICRO)} for that term: the effective interest rate may be at most 12% a month ` +
          `(${LAW}), read as 12% × days / 30 for any term. Lower the interest or the fees, or raise the minimum term or amount.`,
      })
    if (total)
      violations.push({
        propertyPath: '',
        cap: 'total',
        message:
          `Total cost for ${label} can reach ${percent(total.cost, total.principal * MICRO)} of principal ` +
          `(${peso(total.principal * MICRO)} over ${days(total.term)} and then ${pricing.extensions.maxCount} extensions at the dearest option)` +
          `${roundingNote(total)}, above the legal cap of 100% of principal (${LAW}; extensions count as renewals). ` +
          'Lower extensions.maxCount, the extension fees, the interest or the fees.',
      })
  }

  // An extension is a renewal: its fee is the whole price of the days it adds, so it must respect the daily
  // nominal cap (and with it the effective cap of 0.4% a day) on its own, for every principal.
  for (const type of extensionTypes) {
    const option = pricing.extensions[type]
    const path = `extensions.${type}.feeBps`
    const limitBps = option.term * (NOMINAL_CAP_PPM_PER_DAY / 100)
    if (option.feeBps > limitBps) {
      violations.push({
        propertyPath: path,
        cap: 'nominal',
        message: `The ${type} extension costs ${percent(BigInt(option.feeBps), BPS)} for ${days(option.term)}, above the legal cap of ${percent(BigInt(limitBps), BPS)} (0.2% a day, ${LAW}; an extension counts as a renewal).`,
      })
      continue
    }
    let breach: Corner | undefined
    for (const range of ranges) {
      const whole = feeIsWhole(option.feeBps, range)
      const capIsWhole = wholeOnGrid(range, NOMINAL_CAP_PPM_PER_DAY, PPM, option.term)
      for (const principal of new Set([range.amount.min, range.amount.max].map(BigInt))) {
        const exactCost = principal * BigInt(option.feeBps) * 100n
        const cap = principal * BigInt(option.term) * BigInt(NOMINAL_CAP_PPM_PER_DAY)
        const corner = cornerAt(principal, BigInt(option.term))
        breach = worse(breach, corner(exactCost + (whole ? 0n : HALF_CENTAVO), exactCost, cap, capIsWhole))
      }
    }
    if (breach)
      violations.push({
        propertyPath: path,
        cap: 'nominal',
        message: `The ${type} extension fee can exceed 0.2% a day (${LAW}) on ${peso(breach.principal * MICRO)}${roundingNote(breach)}.`,
      })
  }
  return violations
}

type PathItem = v.IssuePathItem
/** A valibot issue path for a dotted property path, so server toViolations reports the same propertyPath. */
function issuePath(root: unknown, dotted: string): [PathItem, ...PathItem[]] | undefined {
  if (!dotted) return undefined
  const items: PathItem[] = []
  let input = root as Record<string, unknown>
  for (const key of dotted.split('.')) {
    const value = input?.[key]
    items.push({ type: 'object', origin: 'value', input, key, value })
    input = value as Record<string, unknown>
  }
  return items as [PathItem, ...PathItem[]]
}

/**
 * The schema to save or read the 'pricing' document with, given the calculator configuration in force: the
 * shape, and then every legal cap over that calculator's ranges.
 */
export function pricingConfigSchemaFor(calculator: CalculatorConfig) {
  return v.pipe(
    pricingConfigShapeSchema,
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return
      for (const violation of validatePricingConfig(dataset.value, calculator))
        addIssue({ message: violation.message, path: issuePath(dataset.value, violation.propertyPath) })
    }),
  )
}

/**
 * Checked against the shipped calculator limits. When the calculator document in the database differs, use
 * pricingConfigSchemaFor(that calculator) or validateLendingConfig: a pricing config is only lawful relative to
 * the amounts and terms it will be applied to.
 */
export const pricingConfigSchema = pricingConfigSchemaFor(defaultCalculatorConfig)

/**
 * The schema to save the 'calculator' document with, given the pricing in force: widening a range (a shorter
 * minimum term, a smaller minimum amount) can make a lawful pricing unlawful, so it is refused the same way.
 */
export function calculatorConfigSchemaFor(pricing: PricingConfig) {
  return v.pipe(
    calculatorConfigSchema,
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return
      for (const violation of validatePricingConfig(pricing, dataset.value))
        addIssue({ message: `With the pricing in force: ${violation.message}` })
    }),
  )
}

/**
 * The combined check for saving either document: both shapes, then the caps of the pricing over the
 * calculator's ranges. Paths are prefixed 'pricing.' / 'calculator.' (a cross-document cap breach that is not
 * one field's fault is reported at 'pricing').
 */
export function validateLendingConfig(input: { pricing: unknown; calculator: unknown }): Violation[] {
  const pricing = v.safeParse(pricingConfigShapeSchema, input.pricing)
  const calculator = v.safeParse(calculatorConfigSchema, input.calculator)
  const shapeViolations: Violation[] = []
  for (const [prefix, result] of [
    ['pricing', pricing],
    ['calculator', calculator],
  ] as const) {
    if (!result.success)
      for (const issue of result.issues)
        shapeViolations.push({
          propertyPath: [prefix, v.getDotPath(issue)].filter(Boolean).join('.'),
          message: issue.message,
        })
  }
  if (!pricing.success || !calculator.success) return shapeViolations
  return validatePricingConfig(pricing.output, calculator.output).map((violation) => ({
    ...violation,
    propertyPath: ['pricing', violation.propertyPath].filter(Boolean).join('.'),
  }))
}
