/**
 * Dates as the pages show them (spec section 9): 'MMM DD, YYYY' on the Asia/Manila calendar. The API answers
 * Manila calendar dates (YYYY-MM-DD) for due dates and instants (ISO 8601, UTC) for events; both read here.
 * The application screens keep their own copy (src/features/application/format.ts) until they move to this one.
 */
import { manilaDate } from '../../domain/pricing/manila-date'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** 'Nov 05, 2026' for '2026-11-05' or for an instant on that Manila day. */
export function formatLongDate(value: string): string {
  const calendar = ISO_DATE.test(value) ? value : manilaDate(new Date(value))
  const match = ISO_DATE.exec(calendar)
  if (!match) throw new RangeError(`not a date: ${JSON.stringify(value)}`)
  const [, y, m, d] = match
  return `${MONTHS[Number(m) - 1]} ${d}, ${y}`
}
