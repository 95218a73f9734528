/**
 * Display helpers of the application screens. Money and dates use the product's one set of display formats
 * (domain/format.ts, ADR 0046): `formatPhp` ('₱5,393.76') and `formatLongDate`, which is `formatDate`
 * ('MMM DD, YYYY' on the Asia/Manila calendar, spec section 9) under the name these screens already use.
 */
import { manilaDate } from '../../../domain/pricing/manila-date'

export { formatDate as formatLongDate } from '../../../domain/format'

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

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
