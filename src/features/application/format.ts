/**
 * Display helpers of the application screens. Money is integer centavos until `formatPhp` (domain/money.ts:
 * formatPeso with the peso sign); dates are shown as 'MMM DD, YYYY' on the Asia/Manila calendar (spec
 * section 9).
 */
import { manilaDate } from '../../../domain/pricing/manila-date'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A calendar date ('YYYY-MM-DD', already Manila's) or an instant, as its Manila calendar date. */
export function toManilaCalendarDate(value: string): string {
  if (ISO_DATE.test(value)) return value
  const instant = new Date(value)
  if (Number.isNaN(instant.getTime())) throw new RangeError(`not a date: ${JSON.stringify(value)}`)
  return manilaDate(instant)
}

/** 'Nov 05, 2026'. */
export function formatLongDate(value: string): string {
  const match = ISO_DATE.exec(toManilaCalendarDate(value))
  if (!match) throw new RangeError(`not a date: ${JSON.stringify(value)}`)
  const [, y, m, d] = match
  return `${MONTHS[Number(m) - 1]} ${d}, ${y}`
}

/** A rate in hundredths of a percent: 570 -> '5.70%'. */
export function formatPercentHundredths(hundredths: number): string {
  const whole = Math.trunc(hundredths / 100)
  return `${whole}.${String(Math.abs(hundredths % 100)).padStart(2, '0')}%`
}

/** Whether a client rejected until `reapplyFrom` may apply again at `now` (on the Manila calendar). */
export function canReapply(reapplyFrom: string | null | undefined, now: Date): boolean {
  if (!reapplyFrom) return true
  if (ISO_DATE.test(reapplyFrom)) return reapplyFrom <= manilaDate(now)
  return new Date(reapplyFrom).getTime() <= now.getTime()
}
