/**
 * Display helpers of the calculator screen. Money stays integer centavos until here;
 * `formatCalculatorAmount` (domain/format.ts) is the one rounding-up, space-grouped, 2-decimal rule of spec
 * section 9, used only by the calculator (everywhere else shows `₱5,393.76`, ADR 0046).
 */
import { formatCalculatorAmount, formatCalculatorPhp } from '../../../domain/calculator-format'

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/**
 * The repay date as month.day.year (spec section 9). The offer's `endDate` is already a calendar date on the
 * Asia/Manila calendar (the server computes it there), so its parts are only reordered: no `Date`, so the
 * browser's own time zone never enters, and no date library in the home page's JavaScript (issue 21 item 3).
 */
export function formatRepayDate(isoDate: string): string {
  const match = ISO_DATE.exec(isoDate)
  if (!match) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(isoDate)}`)
  const [, y, m, d] = match as unknown as [string, string, string, string]
  return `${m}.${d}.${y}`
}

/** '₱5 000.00': what the eye reads. */
export function displayMoney(centavos: number): string {
  return formatCalculatorPhp(centavos)
}

/** 'PHP 5 000.00': what a screen reader announces (the peso sign is read inconsistently). */
export function spokenMoney(centavos: number, currencyCode = 'PHP'): string {
  return `${currencyCode} ${formatCalculatorAmount(centavos)}`
}

/** '1 day', '30 days'. */
export function formatDays(
  days: number,
  words: { day: string; days: string } = { day: 'day', days: 'days' },
) {
  return `${days} ${days === 1 ? words.day : words.days}`
}

/**
 * How much a discount took off, as a whole percentage of the original price, for the red flag; null when
 * nothing was taken off. Rounded down so the flag never promises more than the borrower gets, but at least 1:
 * a discount that applies is always flagged.
 */
export function discountPercent(before: number, after: number): number | null {
  if (!(before > 0) || !(after < before)) return null
  return Math.max(1, Math.floor(((before - after) * 100) / before))
}
