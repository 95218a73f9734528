/**
 * The one amount and term grid rule, used by the browser's calculator (domain/calculator-rules.ts, its clamp)
 * and by the server (domain/pricing/ranges.ts and offer.ts, what an offer request may ask for). ADR 0005,
 * "One grid rule".
 *
 * The grid is anchored at 0: with a PHP 100 interval the allowed amounts are whole hundreds. The range minimum
 * is always allowed even when it is off that grid (an increase offer's principal, known only to the browser,
 * can be any amount). The configuration refuses a configured minimum that is off the grid
 * (domain/calculator-config.ts), so for every range the server derives from configuration "anchored at 0" and
 * "stepping from the minimum" are the same set of values.
 */

export interface GridRange {
  min: number
  max: number
  /** The step; anything below 1 is treated as 1. */
  interval: number
}

const stepOf = (interval: number) => (interval >= 1 ? interval : 1)

/** The largest grid point at or below `value` (anchored at 0). */
export function floorToGrid(value: number, interval: number): number {
  const step = stepOf(interval)
  return Math.floor(value / step) * step
}

/** The last allowed value of a range: its max rounded down to the grid, never below its min. */
export function lastOnGrid({ min, max, interval }: GridRange): number {
  return Math.max(min, floorToGrid(max, interval))
}

/**
 * Clamps `value` into [min, max] and rounds it down to the grid; never below min. An empty range (max below
 * min) answers 0: that is the disabled calculator, which hides itself when its amount is 0. A value that is
 * not a finite number answers min.
 */
export function clampToGrid(value: number, range: GridRange): number {
  const { min, max, interval } = range
  if (max < min) return 0
  if (!Number.isFinite(value)) return min
  const bounded = Math.min(Math.max(value, min), max)
  return Math.max(min, floorToGrid(bounded, interval))
}

/** Whether `value` lies on the grid: the min, or a multiple of the interval (no bounds check). */
export function isGridStep(value: number, range: GridRange): boolean {
  return value === range.min || value % stepOf(range.interval) === 0
}

/** Whether the range allows `value`: exactly the fixed points of clampToGrid. */
export function isOnGrid(value: number, range: GridRange): boolean {
  return Number.isSafeInteger(value) && value >= range.min && value <= range.max && isGridStep(value, range)
}
