import { describe, expect, it } from 'vitest'
import { canReapply, formatLongDate } from '../../../src/features/application/format'

describe('formatLongDate (MMM DD, YYYY on the Manila calendar)', () => {
  it('formats a calendar date as it is', () => {
    expect(formatLongDate('2026-12-05')).toBe('Dec 05, 2026')
    expect(formatLongDate('2027-01-31')).toBe('Jan 31, 2027')
  })

  it('reads an instant on the Manila calendar (UTC+8)', () => {
    expect(formatLongDate('2026-12-05T15:59:59Z')).toBe('Dec 05, 2026')
    expect(formatLongDate('2026-12-05T16:00:00Z')).toBe('Dec 06, 2026')
  })

  it('refuses what is not a date', () => {
    expect(() => formatLongDate('soon')).toThrow(RangeError)
  })
})

describe('canReapply', () => {
  const now = new Date('2026-11-22T16:30:00Z') // Nov 23 in Manila

  it('is true without a date, on the date and after it', () => {
    expect(canReapply(null, now)).toBe(true)
    expect(canReapply('2026-11-23', now)).toBe(true)
    expect(canReapply('2026-11-20', now)).toBe(true)
  })

  it('is false before the date; an instant compares as an instant', () => {
    expect(canReapply('2026-11-24', now)).toBe(false)
    expect(canReapply('2026-11-22T16:31:00Z', now)).toBe(false)
    expect(canReapply('2026-11-22T16:29:00Z', now)).toBe(true)
  })
})
