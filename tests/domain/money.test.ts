import { describe, expect, it } from 'vitest'
import {
  assertNonNegativeCentavos,
  ceilDiv,
  formatPeso,
  formatPhp,
  isCentavos,
  pesosToCentavos,
  roundHalfUpDiv,
  toSafeCentavos,
} from '../../domain/money'

describe('formatPeso and formatPhp', () => {
  it('groups thousands with spaces and always shows 2 decimals', () => {
    expect(formatPeso(1_234_567)).toBe('12 345.67')
    expect(formatPeso(0)).toBe('0.00')
    expect(formatPeso(5)).toBe('0.05')
    expect(formatPeso(100_000)).toBe('1 000.00')
    expect(formatPeso(99_999)).toBe('999.99')
    expect(formatPeso(100_000_000_00)).toBe('100 000 000.00')
    expect(formatPhp(1_234_567)).toBe('₱12 345.67')
    expect(formatPhp(-150)).toBe('-₱1.50')
  })

  it('rounds a fraction of a centavo up, but not float noise', () => {
    expect(formatPeso(1_234.2)).toBe('12.35')
    expect(formatPeso(1_234.5)).toBe('12.35')
    expect(formatPeso(1_234.000_000_000_1)).toBe('12.34')
    expect(formatPeso(0.1 + 0.2)).toBe('0.01')
  })

  it('refuses what cannot be money', () => {
    expect(() => formatPeso(Number.NaN)).toThrow(RangeError)
    expect(() => formatPeso(Number.POSITIVE_INFINITY)).toThrow(RangeError)
    expect(() => formatPeso(2 ** 60)).toThrow(RangeError)
  })
})

describe('pesosToCentavos', () => {
  it('converts numbers and typed text exactly', () => {
    expect(pesosToCentavos(12_345.67)).toBe(1_234_567)
    expect(pesosToCentavos(0.1 + 0.2)).toBe(30)
    expect(pesosToCentavos('12 345.67')).toBe(1_234_567)
    expect(pesosToCentavos('₱1,000')).toBe(100_000)
    expect(pesosToCentavos('10.5')).toBe(1_050)
    expect(pesosToCentavos('-3.05')).toBe(-305)
  })

  it('refuses fractions of a centavo and garbage instead of rounding them away', () => {
    expect(() => pesosToCentavos(1.005)).toThrow(RangeError)
    expect(() => pesosToCentavos('1.005')).toThrow(RangeError)
    expect(() => pesosToCentavos('abc')).toThrow(RangeError)
    expect(() => pesosToCentavos(Number.NaN)).toThrow(RangeError)
    expect(() => pesosToCentavos('99999999999999999')).toThrow(RangeError)
  })
})

describe('integer helpers', () => {
  it('rounds half up', () => {
    expect(roundHalfUpDiv(5n, 10n)).toBe(1n)
    expect(roundHalfUpDiv(4n, 10n)).toBe(0n)
    expect(roundHalfUpDiv(25n, 10n)).toBe(3n)
    expect(roundHalfUpDiv(15_015n, 10n)).toBe(1_502n)
    expect(() => roundHalfUpDiv(-1n, 2n)).toThrow(RangeError)
    expect(ceilDiv(1n, 3n)).toBe(1n)
    expect(ceilDiv(3n, 3n)).toBe(1n)
  })

  it('guards the safe integer range', () => {
    expect(isCentavos(1)).toBe(true)
    expect(isCentavos(1.5)).toBe(false)
    expect(isCentavos('1')).toBe(false)
    expect(toSafeCentavos(9_007_199_254_740_991n)).toBe(Number.MAX_SAFE_INTEGER)
    expect(() => toSafeCentavos(9_007_199_254_740_992n)).toThrow(RangeError)
    expect(() => assertNonNegativeCentavos(-1)).toThrow(RangeError)
  })
})
