/**
 * The pricing engine: one Offer (domain/offer.ts) for a kind of client, an amount and a term. Pure and exact:
 * integers in, integer centavos out, bigint in between.
 *
 *   interest_without_discount = round(P × ppm × term / 10⁶)
 *   fee                       = max(round(P × bps / 10⁴) + fixed, min)          (each fee of the config)
 *   discount.x                = round(x_without_discount × discountBps / 10⁴)  (x = interest, serviceFee)
 *   x                         = x_without_discount − discount.x
 *   referral                  a referrer's unused reward (ADR 0041), in centavos, taken after the percentage
 *                               discounts off the service fee first and then the interest, neither below zero;
 *                               counted in discount.serviceFee and discount.interest, answered as referralReward
 *   total                     = P + interest + processingFee + serviceFee + withdrawalFee + invoicingFee
 *                               + borrowers_advantage_package_fee
 *   apr                       = (total − P) / P × 365 / term × 100, rounded to 2 decimals at the end
 *
 * where round is half up to the centavo, applied once per charge before summing, so the identity on total holds
 * to the centavo.
 */
import type { CalculatorConfig } from '../calculator-config'
import { formatCalculatorPhp } from '../calculator-format'
import type { Violation } from '../contract/wire'
import { roundHalfUpDiv, toSafeCentavos } from '../money'
import type { ClientKind, ExtensionOption, Offer } from '../offer'
import { BPS, offerCapBreaches, PPM } from './caps'
import type { FeeConfig, PricingConfig } from './config'
import { isGridStep } from './grid'
import { addDays, toManilaDate } from './manila-date'
import type { ResolvedPromo } from './promo'
import { offerRange } from './ranges'

export interface OfferInput {
  pricing: PricingConfig
  calculator: CalculatorConfig
  kind: ClientKind
  /** Principal in centavos. */
  amount: number
  /** Days. */
  term: number
  /** A promo already checked by evaluatePromo; only its discounts matter here. */
  promo?: ResolvedPromo | undefined
  /** Whether the borrower keeps the optional borrowers advantage package. */
  withPackageFee: boolean
  /** An instant (its Manila date is used) or a 'YYYY-MM-DD' date on the Manila calendar. */
  today: Date | string
  /** A client with an active loan asking for an additional one: the minimum is minAdditionLoan. */
  additionalLoan?: boolean
  /** Centavos of referral reward the client has not used yet (ADR 0041): off the service fee, then the interest. */
  referralCredit?: number
}

/** The offer, and the part of its service-fee discount that is a referral reward (absent when none is). */
export type OfferWithReward = Offer & { referralReward?: { amount: number } }

export class OfferRequestError extends Error {
  constructor(readonly violations: Violation[]) {
    super(
      `The offer request is not valid: ${violations.map((v) => `${v.propertyPath}: ${v.message}`).join('; ')}`,
    )
    this.name = 'OfferRequestError'
  }
}

/**
 * Thrown rather than answering an unlawful price; only reachable with a config that skipped validation. Carries
 * the offer that was refused so it can be logged and investigated.
 */
export class UnlawfulOfferError extends Error {
  constructor(
    readonly breaches: string[],
    readonly offer: Offer,
  ) {
    super(`Refusing to price an unlawful offer: ${breaches.join('; ')}. Check the pricing configuration.`)
    this.name = 'UnlawfulOfferError'
  }
}

const dayWord = (n: number) => `${n} day${n === 1 ? '' : 's'}`

/**
 * What is wrong with an amount and term for this kind of client. It never clamps (the calculator clamps in the
 * browser, spec section 5); a request outside the grid is answered 400 with these violations, because a
 * silently moved amount would price a loan nobody asked for.
 */
export function validateOfferRequest(
  calculator: CalculatorConfig,
  kind: ClientKind,
  amount: number,
  term: number,
  options: { additionalLoan?: boolean } = {},
): Violation[] {
  const violations: Violation[] = []
  if (options.additionalLoan && kind === 'guest')
    return [
      {
        propertyPath: 'additionalLoan',
        message: 'Only a client with an active loan can take an additional loan.',
      },
    ]
  const range = offerRange(calculator, kind, options.additionalLoan ?? false)
  if (!range) return [{ propertyPath: 'amount', message: 'No loan is available for this client.' }]

  if (!Number.isSafeInteger(amount)) {
    violations.push({ propertyPath: 'amount', message: 'The amount must be a whole number of centavos.' })
  } else if (amount < range.amount.min || amount > range.amount.max) {
    violations.push({
      propertyPath: 'amount',
      message: `The amount must be between ${formatCalculatorPhp(range.amount.min)} and ${formatCalculatorPhp(range.amount.max)}.`,
    })
  } else if (!isGridStep(amount, range.amount)) {
    violations.push({
      propertyPath: 'amount',
      message: `The amount must be in steps of ${formatCalculatorPhp(range.amount.interval)} from ${formatCalculatorPhp(range.amount.min)}.`,
    })
  }

  if (!Number.isSafeInteger(term)) {
    violations.push({ propertyPath: 'term', message: 'The term must be a whole number of days.' })
  } else if (term < range.term.min || term > range.term.max) {
    violations.push({
      propertyPath: 'term',
      message: `The term must be between ${dayWord(range.term.min)} and ${dayWord(range.term.max)}.`,
    })
  } else if (!isGridStep(term, range.term)) {
    violations.push({
      propertyPath: 'term',
      message: `The term must be in steps of ${dayWord(range.term.interval)} from ${dayWord(range.term.min)}.`,
    })
  }
  return violations
}

export function chargeFor(principal: bigint, fee: FeeConfig): bigint {
  const charge = roundHalfUpDiv(principal * BigInt(fee.bps), BPS) + BigInt(fee.fixed)
  const floor = BigInt(fee.min)
  return charge > floor ? charge : floor
}

/** A share of an already rounded charge, itself rounded once; never more than the charge. */
const discountOf = (charge: bigint, discountBps: number) => roundHalfUpDiv(charge * BigInt(discountBps), BPS)

/** Annualised cost in percent with 2 decimals: exact integers until the final division by 100. */
function aprOf(cost: bigint, principal: bigint, term: number): number {
  return Number(roundHalfUpDiv(cost * 365n * 100n * 100n, principal * BigInt(term))) / 100
}

/**
 * Which discount a price gets. A guest is priced as the new client they would become, first-loan discount
 * included, so the calculator never shows a visitor more than the offer they will get after registering. A
 * promo and the first-loan discount do not stack: each charge gets the larger of the two, so a promo can only
 * ever help and the first loan's price stays predictable.
 */
/**
 * The discounts of an offer: the first-loan discount for a new client's first loan (not for a repeat client, nor
 * for an additional loan taken beside the first: that is a second loan, ADR 0030), or a valid promo's if larger.
 */
export function discountsFor(
  pricing: PricingConfig,
  kind: ClientKind,
  promo?: ResolvedPromo,
  additionalLoan = false,
) {
  const firstLoan =
    kind === 'repeat' || additionalLoan ? { interestBps: 0, serviceFeeBps: 0 } : pricing.firstLoanDiscount
  return {
    interestBps: Math.min(10_000, Math.max(firstLoan.interestBps, promo?.interestDiscountBps ?? 0)),
    serviceFeeBps: Math.min(10_000, Math.max(firstLoan.serviceFeeBps, promo?.serviceFeeDiscountBps ?? 0)),
  }
}

const minOf = (a: bigint, b: bigint) => (a < b ? a : b)

export function computeOffer(input: OfferInput): OfferWithReward {
  const { pricing, calculator, kind, amount, term, promo, withPackageFee } = input
  const violations = validateOfferRequest(calculator, kind, amount, term, {
    additionalLoan: input.additionalLoan,
  })
  if (violations.length) throw new OfferRequestError(violations)

  const principal = BigInt(amount)
  const rate = pricing.interestPpmPerDay[kind === 'repeat' ? 'repeat' : 'new']
  const discounts = discountsFor(pricing, kind, promo, input.additionalLoan ?? false)

  const interestWithout = roundHalfUpDiv(principal * BigInt(rate) * BigInt(term), PPM)
  const percentInterestDiscount = discountOf(interestWithout, discounts.interestBps)
  const processingFee = chargeFor(principal, pricing.processingFee)
  const serviceFeeWithout = chargeFor(principal, pricing.serviceFee)
  const percentServiceFeeDiscount = discountOf(serviceFeeWithout, discounts.serviceFeeBps)
  const owed = input.referralCredit ?? 0
  const credit = BigInt(Number.isSafeInteger(owed) && owed > 0 ? owed : 0)
  const referralOffFee = minOf(credit, serviceFeeWithout - percentServiceFeeDiscount)
  const referralOffInterest = minOf(credit - referralOffFee, interestWithout - percentInterestDiscount)
  const referral = referralOffFee + referralOffInterest
  const serviceFeeDiscount = percentServiceFeeDiscount + referralOffFee
  const interestDiscount = percentInterestDiscount + referralOffInterest
  const withdrawalFee = chargeFor(principal, pricing.withdrawalFee)
  const invoicingFee = chargeFor(principal, pricing.invoicingFee)
  const packageFee = withPackageFee ? chargeFor(principal, pricing.packageFee) : 0n

  const interest = interestWithout - interestDiscount
  const serviceFee = serviceFeeWithout - serviceFeeDiscount
  const costWithout =
    interestWithout + processingFee + serviceFeeWithout + withdrawalFee + invoicingFee + packageFee
  const cost = interest + processingFee + serviceFee + withdrawalFee + invoicingFee + packageFee

  const money = (value: bigint, label: string) => ({ amount: toSafeCentavos(value, label) })
  const extensions: ExtensionOption[] = (['cheap', 'expensive'] as const).map((type) => ({
    type,
    term: pricing.extensions[type].term,
    fee: money(
      roundHalfUpDiv(principal * BigInt(pricing.extensions[type].feeBps), BPS),
      `${type} extension fee`,
    ),
  }))

  const offer: OfferWithReward = {
    principal: money(principal, 'principal'),
    interest: money(interest, 'interest'),
    interest_without_discount: money(interestWithout, 'interest'),
    processingFee: money(processingFee, 'processing fee'),
    processing_fee_without_discount: money(processingFee, 'processing fee'),
    serviceFee: money(serviceFee, 'service fee'),
    serviceFee_without_discount: money(serviceFeeWithout, 'service fee'),
    withdrawalFee: money(withdrawalFee, 'withdrawal fee'),
    invoicingFee: money(invoicingFee, 'invoicing fee'),
    borrowers_advantage_package_fee: money(packageFee, 'package fee'),
    total: money(principal + cost, 'total'),
    total_without_discount: money(principal + costWithout, 'total'),
    discount: {
      interest: money(interestDiscount, 'discount'),
      serviceFee: money(serviceFeeDiscount, 'discount'),
    },
    apr: aprOf(cost, principal, term),
    apr_without_discount: aprOf(costWithout, principal, term),
    endDate: addDays(toManilaDate(input.today), term),
    term,
    extensions,
    ...(referral > 0n ? { referralReward: money(referral, 'referral reward') } : {}),
  }
  const breaches = offerCapBreaches(offer, pricing.extensions.maxCount)
  if (breaches.length) throw new UnlawfulOfferError(breaches, offer)
  return offer
}
