import { describe, expect, it } from 'vitest'
import {
  assertNonNegativeCentavos,
  ceilDiv,
  isCentavos,
  pesosToCentavos,
  roundHalfUpDiv,
  toSafeCentavos,
} from '../../domain/money'

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
