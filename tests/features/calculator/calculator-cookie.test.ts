// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { removeCookie, writeCookie } from '../../../src/app/cookies'
import {
  CALCULATOR_COOKIE,
  CALCULATOR_COOKIE_MAX_AGE_S,
  parseCalculatorState,
  readCalculatorCookie,
  writeCalculatorCookie,
} from '../../../src/features/calculator/calculator-cookie'

afterEach(() => removeCookie(CALCULATOR_COOKIE))

describe('calculator cookie', () => {
  it('lives 24 hours', () => {
    expect(CALCULATOR_COOKIE_MAX_AGE_S).toBe(86_400)
  })

  it('round-trips the state the machine restores', () => {
    const state = {
      amount: 700_000,
      term: 21,
      tab: 'repeat' as const,
      optionalFee: false,
      promoCode: 'HIRAM10',
    }
    writeCalculatorCookie(state)
    expect(readCalculatorCookie()).toEqual(state)
  })

  it('drops what is not a well-typed field and ignores garbage', () => {
    expect(parseCalculatorState(null)).toBeNull()
    expect(parseCalculatorState('{not json')).toBeNull()
    expect(parseCalculatorState('"text"')).toBeNull()
    expect(
      parseCalculatorState(JSON.stringify({ amount: 'lots', term: 14, tab: 'vip', promoCode: 'x' })),
    ).toEqual({
      term: 14,
      promoCode: null,
    })
    writeCookie(CALCULATOR_COOKIE, '%%%', 60)
    expect(readCalculatorCookie()).toBeNull()
  })
})
