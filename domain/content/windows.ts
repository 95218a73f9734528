/**
 * When site content is shown (issue 19 item 7; spec sections 3 and 9): banners, promo menu items. Every date is a
 * calendar day in Manila, both ends included, compared as YYYY-MM-DD text (which orders as the calendar does).
 * A banner is shown from its start to its end (an open end: for good), except inside its hide window, which is how
 * the default banner steps aside for July 2025's and how the new-client banner's two periods are one row.
 * "Today" is the server's business day (server/services/payments/clock.ts), never the visitor's clock.
 */

/** A Manila calendar day, YYYY-MM-DD. */
export type CalendarDay = string

export interface DateWindow {
  start: CalendarDay
  /** Null: no end. */
  end: CalendarDay | null
}

export interface BannerWindow extends DateWindow {
  hideStart: CalendarDay | null
  hideEnd: CalendarDay | null
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** Whether `value` is a real calendar day written YYYY-MM-DD (no 2025-02-30). */
export function isCalendarDay(value: string): boolean {
  const match = DAY.exec(value)
  if (!match) return false
  const [, y, m, d] = match.map(Number) as [number, number, number, number]
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

/** `day` within [start, end], both included; an open end never closes. */
export function withinWindow(day: CalendarDay, window: DateWindow): boolean {
  return day >= window.start && (window.end === null || day <= window.end)
}

/** A banner is shown inside its window and outside its hide window (a hide window needs both its dates). */
export function bannerShown(day: CalendarDay, banner: BannerWindow): boolean {
  if (!withinWindow(day, banner)) return false
  if (banner.hideStart === null || banner.hideEnd === null) return true
  return !withinWindow(day, { start: banner.hideStart, end: banner.hideEnd })
}

/** A promo menu item is shown inside its window. */
export const promoShown = (day: CalendarDay, item: DateWindow): boolean => withinWindow(day, item)

export interface WindowProblem {
  propertyPath: 'endDate' | 'hideStartDate' | 'hideEndDate'
  message: string
}

/**
 * What is wrong with a window as a whole (each date is checked on its own by the contract): an end before the
 * start, a hide window with one date only or ending before it starts.
 */
export function windowProblems(window: {
  startDate: CalendarDay
  endDate: CalendarDay | null
  hideStartDate?: CalendarDay | null
  hideEndDate?: CalendarDay | null
}): WindowProblem[] {
  const problems: WindowProblem[] = []
  if (window.endDate !== null && window.endDate < window.startDate)
    problems.push({ propertyPath: 'endDate', message: 'The end date cannot be before the start date.' })
  const hideStart = window.hideStartDate ?? null
  const hideEnd = window.hideEndDate ?? null
  if ((hideStart === null) !== (hideEnd === null)) {
    const missing = hideStart === null ? 'hideStartDate' : 'hideEndDate'
    problems.push({ propertyPath: missing, message: 'A hide window needs both its start and its end.' })
  } else if (hideStart !== null && hideEnd !== null && hideEnd < hideStart) {
    problems.push({ propertyPath: 'hideEndDate', message: 'The hide end date cannot be before its start.' })
  }
  return problems
}
