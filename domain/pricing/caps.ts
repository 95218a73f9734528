/**
 * The legal caps on what a loan may cost (docs/product.md, Philippine lending rules; ADR 0005 gives the reading of each).
 *
 * SEC MC 3 s.2022, as amended by SEC MC 14 s.2025 for loans entered, restructured or renewed from 1 April 2026:
 * (a) nominal interest at most 6% a month, which the circular itself states as 0.2% a day;
 * (b) effective interest rate (interest plus every fee except penalties) at most 12% a month;
 * (c) total cost (interest, fees, penalties) at most 100% of the principal over the life of the loan, with
 *     extensions (rollovers) counting as renewals.
 *
 * Rates are kept per day in parts per million so every comparison is an exact integer one.
 */
import type { Offer } from '../offer'

export const PPM = 1_000_000n
export const BPS = 10_000n

/** (a) 0.2% a day. */
export const NOMINAL_CAP_PPM_PER_DAY = 2_000
/**
 * (b) 12% a month read as 12% per 30 days of term, pro-rated day by day: a 7-day loan may cost at most
 * 12% × 7/30 = 2.8% of principal, a 60-day loan 24%. This is the borrower-protective reading: the lenient
 * one ("any loan of a month or less may cost 12%") would let a 7-day loan cost 12%, an annualised rate more
 * than four times higher, and a compounding reading would allow 25.44% over 60 days instead of 24%.
 */
export const EFFECTIVE_CAP_PPM_PER_DAY = 4_000
/** (c) 100% of principal. */
export const TOTAL_COST_CAP_BPS = 10_000

/**
 * Which caps a computed offer breaks, checked on the undiscounted figures (a discount may only lower cost, so
 * the undiscounted price is the one the law bounds). The config validator is what keeps offers lawful; this is
 * a last line of defence so an unlawful price is never shown even if an unchecked config slipped through.
 */
export function offerCapBreaches(offer: Offer, maxExtensions: number): string[] {
  const principal = BigInt(offer.principal.amount)
  const term = BigInt(offer.term)
  const cost = BigInt(offer.total_without_discount.amount) - principal
  const breaches: string[] = []
  if (
    BigInt(offer.interest_without_discount.amount) * PPM >
    principal * term * BigInt(NOMINAL_CAP_PPM_PER_DAY)
  )
    breaches.push('nominal interest above 0.2% a day')
  if (cost * PPM > principal * term * BigInt(EFFECTIVE_CAP_PPM_PER_DAY))
    breaches.push('effective interest above 12% per 30 days of term')
  let dearestExtension = 0n
  for (const extension of offer.extensions) {
    const fee = BigInt(extension.fee.amount)
    if (fee > dearestExtension) dearestExtension = fee
    if (fee * PPM > principal * BigInt(extension.term) * BigInt(NOMINAL_CAP_PPM_PER_DAY))
      breaches.push(`${extension.type} extension above 0.2% a day`)
  }
  if ((cost + BigInt(maxExtensions) * dearestExtension) * BPS > principal * BigInt(TOTAL_COST_CAP_BPS))
    breaches.push('total cost with every allowed extension above 100% of principal')
  return breaches
}
