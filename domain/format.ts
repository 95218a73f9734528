/**
 * The display formats of the product (spec section 9, issue 22 item 6, ADR 0046). One module for every screen,
 * back-office page, document and message, so a peso or a date reads the same wherever a person meets it:
 *
 * - money outside the calculator: the peso sign, comma thousands, always 2 decimals: `₱5,393.76`, `-₱12.50`;
 * - money where the peso sign cannot travel (SMS, which is GSM-7, and the PDFs, whose standard fonts are
 *   WinAnsi): the currency code instead, `PHP 5,393.76`;
 * - money in the calculator (spec: "rounded up, with spaces as thousands separators"): `₱5 393.76`, in
 *   calculator-format.ts (re-exported here), only for src/features/calculator/* and the refusal reasons the
 *   calculator shows;
 * - dates: 'MMM DD, YYYY' on the Asia/Manila calendar (`Nov 05, 2026`); the calculator's month.day.year lives
 *   in src/features/calculator/format.ts;
 * - mobile numbers: `0917 123 4567`.
 *
 * Money is integer centavos up to here and the formatting is integer arithmetic on them: no float division, no
 * `Intl` (whose grouping depends on the runtime's locale data), no date library.
 */
import { centavoParts, group } from './peso'
import { manilaDate } from './pricing/manila-date'

export { formatCalculatorAmount, formatCalculatorPhp } from './calculator-format'
export { formatPhp } from './peso'

/**
 * `PHP 5,393.76`: money in an SMS (the peso sign is not in GSM-7 and would turn the whole text into UCS-2, 70
 * characters a part instead of 160) and in the PDFs (their standard Helvetica is WinAnsi, which has no ₱).
 */
export function formatPhpText(centavos: number): string {
  const { negative, pesos, cents } = centavoParts(centavos)
  return `${negative ? '-' : ''}PHP ${group(pesos, ',')}.${cents}`
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/
const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000

/** A calendar date ('YYYY-MM-DD', already Manila's, as the API sends due dates) or an instant, as its Manila date. */
export function toManilaCalendarDate(value: string): string {
  if (ISO_DATE.test(value)) return value
  // An instant is a whole ISO 8601 timestamp: `Date` would also read '1990-01' or '2026' as one.
  if (!ISO_INSTANT.test(value)) throw new RangeError(`not a date: ${JSON.stringify(value)}`)
  const instant = new Date(value)
  if (Number.isNaN(instant.getTime())) throw new RangeError(`not a date: ${JSON.stringify(value)}`)
  return manilaDate(instant)
}

/** 'MMM DD, YYYY' (spec section 9): 'Nov 05, 2026' for '2026-11-05' or for any instant of that Manila day. */
export function formatDate(value: string): string {
  const match = ISO_DATE.exec(toManilaCalendarDate(value))
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined
  if (!match || !month) throw new RangeError(`not a date: ${JSON.stringify(value)}`)
  return `${month} ${match[3]}, ${match[1]}`
}

/**
 * `formatDate` for a date a person typed and the server stored as it came (a birth date, an ID's expiry): such
 * a value that is not a whole date comes back unchanged instead of breaking the page that shows it.
 */
export function formatStoredDate(value: string): string {
  try {
    return formatDate(value)
  } catch {
    return value
  }
}

/** An instant as Manila wall time after its date: 'Nov 05, 2026, 17:05' (24-hour clock). */
export function formatDateTime(iso: string): string {
  const ms = new Date(iso).getTime()
  if (Number.isNaN(ms)) throw new RangeError(`not an instant: ${JSON.stringify(iso)}`)
  const wall = new Date(ms + MANILA_OFFSET_MS).toISOString()
  return `${formatDate(wall.slice(0, 10))}, ${wall.slice(11, 16)}`
}

/** Separators people put between the digits of a number. */
const PHONE_SEPARATORS = /[\s.()\-\u2010-\u2015]/g
/** The stored national form 09XXXXXXXXX, the +63 form (with or without a kept trunk 0), or the bare 10 digits. */
const MOBILE_FORMS = [/^\+?630?([89]\d{9})$/, /^0?([89]\d{9})$/]

/**
 * A Philippine mobile number as people read it, `0917 123 4567`, from `09171234567`, `+639171234567` or
 * `9171234567`. Anything that is not such a number (a landline, a foreign number, a masked one) comes back
 * unchanged: a display never invents digits.
 */
export function formatPhone(value: string): string {
  const compact = value.replace(PHONE_SEPARATORS, '')
  for (const form of MOBILE_FORMS) {
    const digits = form.exec(compact)?.[1]
    if (digits) return `0${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`
  }
  return value
}
