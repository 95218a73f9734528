/** The product's display formats (domain/format.ts, ADR 0046, spec section 9, issue 22 item 6). */
import { describe, expect, it } from 'vitest'
import {
  formatCalculatorAmount,
  formatCalculatorPhp,
  formatDate,
  formatDateTime,
  formatPhone,
  formatPhp,
  formatPhpText,
  formatStoredDate,
} from '../../domain/format'

describe('formatPhp: money outside the calculator', () => {
  it('shows the peso sign, comma thousands and always 2 decimals', () => {
    expect(formatPhp(539_376)).toBe('₱5,393.76')
    expect(formatPhp(0)).toBe('₱0.00')
    expect(formatPhp(1)).toBe('₱0.01')
    expect(formatPhp(10)).toBe('₱0.10')
    expect(formatPhp(99_999)).toBe('₱999.99')
    expect(formatPhp(100_000)).toBe('₱1,000.00')
    expect(formatPhp(999_999_999)).toBe('₱9,999,999.99')
    expect(formatPhp(Number.MAX_SAFE_INTEGER)).toBe('₱90,071,992,547,409.91')
  })

  it('puts the minus sign before the peso sign', () => {
    expect(formatPhp(-1_250)).toBe('-₱12.50')
    expect(formatPhp(-1)).toBe('-₱0.01')
    expect(formatPhp(-123_456_789)).toBe('-₱1,234,567.89')
    expect(formatPhp(-0)).toBe('₱0.00')
  })

  it('refuses what is not a whole number of centavos instead of rounding it silently', () => {
    expect(() => formatPhp(1.5)).toThrow(RangeError)
    expect(() => formatPhp(Number.NaN)).toThrow(RangeError)
    expect(() => formatPhp(Number.POSITIVE_INFINITY)).toThrow(RangeError)
    expect(() => formatPhp(2 ** 60)).toThrow(RangeError)
  })
})

describe('formatPhpText: money in SMS texts and PDFs', () => {
  it('writes the currency code instead of the peso sign, which GSM-7 and WinAnsi lack', () => {
    expect(formatPhpText(539_376)).toBe('PHP 5,393.76')
    expect(formatPhpText(0)).toBe('PHP 0.00')
    expect(formatPhpText(1)).toBe('PHP 0.01')
    expect(formatPhpText(999_999_999)).toBe('PHP 9,999,999.99')
    expect(formatPhpText(-1_250)).toBe('-PHP 12.50')
    expect(formatPhpText(1_026_050)).toBe('PHP 10,260.50')
    expect(formatPhpText(539_376)).not.toContain('₱')
    expect(() => formatPhpText(0.5)).toThrow(RangeError)
  })
})

describe('the calculator format (spec section 9: rounded up, spaces as thousands separators)', () => {
  it('groups thousands with spaces and always shows 2 decimals', () => {
    expect(formatCalculatorAmount(1_234_567)).toBe('12 345.67')
    expect(formatCalculatorAmount(0)).toBe('0.00')
    expect(formatCalculatorAmount(5)).toBe('0.05')
    expect(formatCalculatorAmount(100_000)).toBe('1 000.00')
    expect(formatCalculatorAmount(99_999)).toBe('999.99')
    expect(formatCalculatorAmount(999_999_999)).toBe('9 999 999.99')
    expect(formatCalculatorPhp(1_234_567)).toBe('₱12 345.67')
    expect(formatCalculatorPhp(-150)).toBe('-₱1.50')
  })

  it('rounds a fraction of a centavo up, but not float noise', () => {
    expect(formatCalculatorAmount(1_234.2)).toBe('12.35')
    expect(formatCalculatorAmount(1_234.5)).toBe('12.35')
    expect(formatCalculatorAmount(1_234.000_000_000_1)).toBe('12.34')
    expect(formatCalculatorAmount(0.1 + 0.2)).toBe('0.01')
  })

  it('refuses what cannot be money', () => {
    expect(() => formatCalculatorAmount(Number.NaN)).toThrow(RangeError)
    expect(() => formatCalculatorAmount(Number.POSITIVE_INFINITY)).toThrow(RangeError)
    expect(() => formatCalculatorAmount(2 ** 60)).toThrow(RangeError)
  })
})

describe('formatDate and formatDateTime: MMM DD, YYYY on the Asia/Manila calendar', () => {
  it('shows a calendar date as it is, with a two-digit day', () => {
    expect(formatDate('2026-11-05')).toBe('Nov 05, 2026')
    expect(formatDate('2027-01-31')).toBe('Jan 31, 2027')
    expect(formatDate('2028-02-29')).toBe('Feb 29, 2028')
  })

  it('shows an instant on its Manila day, whatever the runtime time zone', () => {
    expect(formatDate('2026-12-05T15:59:59Z')).toBe('Dec 05, 2026')
    expect(formatDate('2026-12-05T16:00:00Z')).toBe('Dec 06, 2026')
    expect(formatDate('2026-12-31T16:00:00.000Z')).toBe('Jan 01, 2027')
  })

  it('refuses what is not a date', () => {
    expect(() => formatDate('')).toThrow(RangeError)
    expect(() => formatDate('yesterday')).toThrow(RangeError)
    expect(() => formatDate('2026-13-01')).toThrow(RangeError)
  })

  it('passes a stored, typed date that is not whole through unchanged', () => {
    expect(formatStoredDate('1990-01-05')).toBe('Jan 05, 1990')
    expect(formatStoredDate('1990-01')).toBe('1990-01')
    expect(formatStoredDate('soon')).toBe('soon')
  })

  it('shows an instant as Manila wall time on a 24-hour clock', () => {
    expect(formatDateTime('2026-11-24T01:30:00.000Z')).toBe('Nov 24, 2026, 09:30')
    expect(formatDateTime('2026-11-24T16:05:00Z')).toBe('Nov 25, 2026, 00:05')
    expect(formatDateTime('2026-11-24T09:30:00+08:00')).toBe('Nov 24, 2026, 09:30')
    expect(() => formatDateTime('not a time')).toThrow(RangeError)
  })
})

describe('formatPhone: 0917 123 4567', () => {
  it('shows every stored or typed form of a Philippine mobile number the same way', () => {
    expect(formatPhone('09171234567')).toBe('0917 123 4567')
    expect(formatPhone('+639171234567')).toBe('0917 123 4567')
    expect(formatPhone('639171234567')).toBe('0917 123 4567')
    expect(formatPhone('9171234567')).toBe('0917 123 4567')
    expect(formatPhone('+63 (0) 917-123-4567')).toBe('0917 123 4567')
    expect(formatPhone('0817 123 4567')).toBe('0817 123 4567')
  })

  it('passes anything else through unchanged', () => {
    expect(formatPhone('')).toBe('')
    expect(formatPhone('(02) 8123 4567')).toBe('(02) 8123 4567')
    expect(formatPhone('0917123456')).toBe('0917123456')
    expect(formatPhone('+1 415 555 0100')).toBe('+1 415 555 0100')
    expect(formatPhone('0917*****67')).toBe('0917*****67')
    expect(formatPhone('ana@example.ph')).toBe('ana@example.ph')
  })
})
