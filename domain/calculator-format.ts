/**
 * The calculator's money format (spec section 9: "Money in the calculator is displayed rounded up, with spaces as
 * thousands separators"), apart from the product's other formats (format.ts, ADR 0046) so that the home page,
 * whose only money is the calculator's, loads none of them (issue 21 item 3).
 */
import { centavoParts, group } from './peso'

/**
 * The calculator's amount (spec section 9): spaces as thousands separators, 2 decimals, rounded up. Centavos
 * are already exact, so a whole centavo is shown as is; "rounded up" only bites when a caller passes a fraction
 * of a centavo (a computed display value), which goes up to the next centavo so the borrower is never shown
 * less than they will pay. Float noise within 1e-9 of a whole centavo is not a fraction. 1234567 → '12 345.67'.
 */
export function formatCalculatorAmount(centavos: number): string {
  if (!Number.isFinite(centavos)) throw new RangeError(`cannot format ${centavos}`)
  const nearest = Math.round(centavos)
  const whole = Math.abs(centavos - nearest) < 1e-9 ? nearest : Math.ceil(centavos)
  const { negative, pesos, cents } = centavoParts(whole)
  return `${negative ? '-' : ''}${group(pesos, ' ')}.${cents}`
}

/** `formatCalculatorAmount` with the peso sign: '₱12 345.67', '-₱5.00'. */
export function formatCalculatorPhp(centavos: number): string {
  const text = formatCalculatorAmount(centavos)
  return text.startsWith('-') ? `-₱${text.slice(1)}` : `₱${text}`
}
