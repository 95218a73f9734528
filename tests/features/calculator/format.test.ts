import { describe, expect, it } from 'vitest'
import {
  discountPercent,
  displayMoney,
  formatDays,
  formatRepayDate,
  spokenMoney,
} from '../../../src/features/calculator/format'

describe('calculator display formats', () => {
  it('shows the repay date as month.day.year of the Manila calendar date it is given', () => {
    expect(formatRepayDate('2026-12-22')).toBe('12.22.2026')
    expect(formatRepayDate('2027-01-05')).toBe('01.05.2027')
    // A leap day stays a leap day: the date is never shifted through the browser's time zone.
    expect(formatRepayDate('2028-02-29')).toBe('02.29.2028')
    expect(() => formatRepayDate('22.12.2026')).toThrow(RangeError)
  })

  it('shows money rounded up with spaces and 2 decimals, spoken with the currency code', () => {
    expect(displayMoney(500_000)).toBe('₱5 000.00')
    expect(displayMoney(1_234_567)).toBe('₱12 345.67')
    // A computed fraction of a centavo goes up, never down.
    expect(displayMoney(1_500.2)).toBe('₱15.01')
    expect(spokenMoney(500_000)).toBe('PHP 5 000.00')
    expect(spokenMoney(2_500_000, 'PHP')).toBe('PHP 25 000.00')
  })

  it('counts days in words', () => {
    expect(formatDays(1)).toBe('1 day')
    expect(formatDays(30)).toBe('30 days')
    expect(formatDays(7, { day: 'araw', days: 'araw' })).toBe('7 araw')
  })

  it('flags a discount as a whole percentage, never more than was taken off', () => {
    expect(discountPercent(10_000, 8_000)).toBe(20)
    expect(discountPercent(3_000, 2_001)).toBe(33)
    // A discount under 1% is still flagged.
    expect(discountPercent(100_000, 99_900)).toBe(1)
    expect(discountPercent(10_000, 10_000)).toBeNull()
    expect(discountPercent(0, 0)).toBeNull()
    expect(discountPercent(10_000, 12_000)).toBeNull()
  })
})
