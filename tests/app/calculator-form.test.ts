// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CALCULATOR_COOKIE, takeCalculatorQuery } from '../../src/app/calculator-form'
import { readCookie, removeCookie, writeCookie } from '../../src/app/cookies'
import { parseCalculatorState } from '../../src/features/calculator/calculator-cookie'

afterEach(() => removeCookie(CALCULATOR_COOKIE))

function take(path: string) {
  const url = new URL(path, 'https://hiram.example')
  const history = { state: { key: 'k' }, replaceState: vi.fn() }
  takeCalculatorQuery({ pathname: url.pathname, search: url.search, hash: url.hash }, history)
  return history.replaceState
}

describe('the calculator form sent before the app ran (issue 21)', () => {
  it('keeps the figures in the calculator cookie and takes them out of the address', () => {
    writeCookie(CALCULATOR_COOKIE, JSON.stringify({ tab: 'repeat', promoCode: 'SAVE10', amount: 1 }), 60)
    const replace = take('/registration?amount=510000&term=21&fee=1&utm_source=fb#top')
    expect(replace).toHaveBeenCalledWith({ key: 'k' }, '', '/registration?utm_source=fb#top')
    expect(parseCalculatorState(readCookie(CALCULATOR_COOKIE))).toEqual({
      amount: 510_000,
      term: 21,
      optionalFee: true,
      tab: 'repeat',
      promoCode: 'SAVE10',
    })
  })

  it('an unticked package is a refusal of it', () => {
    take('/registration/?amount=500000&term=30')
    expect(parseCalculatorState(readCookie(CALCULATOR_COOKIE))).toMatchObject({ optionalFee: false })
  })

  it('figures that are not whole positive numbers are dropped, and still taken out of the address', () => {
    for (const query of [
      'amount=5e5&term=30.5',
      'amount=-1&term=30',
      'amount=abc&term=30',
      'amount=1e400&term=3',
    ]) {
      const replace = take(`/registration?${query}`)
      expect(replace, query).toHaveBeenCalledWith({ key: 'k' }, '', '/registration')
    }
    expect(readCookie(CALCULATOR_COOKIE)).toBeNull()
  })

  it('another page, or a query without both figures, is left alone', () => {
    expect(take('/faq?amount=500000&term=30')).not.toHaveBeenCalled()
    expect(take('/registration?amount=500000')).not.toHaveBeenCalled()
    expect(readCookie(CALCULATOR_COOKIE)).toBeNull()
  })
})
