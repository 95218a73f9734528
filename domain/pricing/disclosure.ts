/**
 * The Truth in Lending disclosure figures (RA 3765) of a single-payment loan, from its offer: what the
 * disclosure statement PDF prints (server/services/lending/documents.ts) and what the sign screen shows before
 * the client signs, from this one function so the two cannot disagree. Integer centavos; the rate in
 * hundredths of a percent.
 */
import type { Offer } from '../offer'

/**
 * The effective interest rate of a single-payment loan, per month of 30 days, in hundredths of a percent,
 * rounded half up: (finance charge / principal) x 30 / term. Integer arithmetic only.
 */
export function monthlyEirHundredths(financeCharge: number, principal: number, term: number): number {
  const num = BigInt(financeCharge) * 30n * 10_000n
  const den = BigInt(principal) * BigInt(term)
  return Number((num * 2n + den) / (den * 2n))
}

/** The figures both documents print and the sign screen shows, all from the offer. */
export function disclosureFigures(offer: Pick<Offer, 'principal' | 'total' | 'term'>) {
  const principal = offer.principal.amount
  const financeCharge = offer.total.amount - principal
  return {
    principal,
    amountFinanced: principal,
    netProceeds: principal,
    financeCharge,
    total: offer.total.amount,
    monthlyEir: monthlyEirHundredths(financeCharge, principal, offer.term),
  }
}
export type DisclosureFigures = ReturnType<typeof disclosureFigures>
