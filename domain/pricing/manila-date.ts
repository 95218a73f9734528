/**
 * Calendar dates on the Asia/Manila calendar without a time-zone library: Manila has been UTC+8 all year with
 * no daylight saving since 1978, so a Manila date is the UTC date of the instant shifted by 8 hours.
 */
const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

// The last day formatted: every offer asks for today's date, and formatting it is most of the cost.
let lastDay = Number.NaN
let lastDate = ''

/** The Manila calendar date of an instant: 2026-11-22T18:00Z is already '2026-11-23' in Manila. */
export function manilaDate(instant: Date): string {
  const ms = instant.getTime()
  if (Number.isNaN(ms)) throw new RangeError('invalid date')
  const day = Math.floor((ms + MANILA_OFFSET_MS) / DAY_MS)
  if (day !== lastDay) {
    lastDate = new Date(day * DAY_MS).toISOString().slice(0, 10)
    lastDay = day
  }
  return lastDate
}

/** Days since 1970-01-01 of a 'YYYY-MM-DD' calendar date, refusing dates that do not exist (2026-02-30). */
function epochDay(date: string): number {
  const match = ISO_DATE.exec(date)
  if (!match) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`)
  const [, y, m, d] = match.map(Number) as [number, number, number, number]
  const ms = Date.UTC(y, m - 1, d)
  if (new Date(ms).toISOString().slice(0, 10) !== date) throw new RangeError(`no such date: ${date}`)
  return ms / DAY_MS
}

/** A calendar date plus whole days, on the calendar (no clock involved, so no midnight to cross). */
export function addDays(date: string, days: number): string {
  if (!Number.isSafeInteger(days)) throw new RangeError(`days must be a whole number, got ${days}`)
  return new Date((epochDay(date) + days) * DAY_MS).toISOString().slice(0, 10)
}

/** Whole days from one calendar date to another (negative when `to` is before `from`). */
export function daysBetween(from: string, to: string): number {
  return epochDay(to) - epochDay(from)
}

/** The instant a Manila calendar day begins (its midnight, 16:00 UTC the day before). */
export function manilaDayStart(date: string): Date {
  return new Date(epochDay(date) * DAY_MS - MANILA_OFFSET_MS)
}

/** `today` as the calculator passes it: an instant, or a date already on the Manila calendar. */
export function toManilaDate(today: Date | string): string {
  if (typeof today === 'string') {
    epochDay(today)
    return today
  }
  return manilaDate(today)
}
