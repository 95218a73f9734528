import { describe, expect, it } from 'vitest'
import { type CalculatorConfig, defaultCalculatorConfig } from '../../domain/calculator-config'
import {
  type AmountLimitsInput,
  amountForTab,
  amountLimitsFor,
  clampAmount,
  clampTerm,
  firstLoanLimit,
  initialAmountFor,
  initialTermFor,
  isAdditionalLoanAvailable,
  isTabSelected,
  LOGIN_SUBMIT_LABEL,
  needsLogin,
  normalizePromoCode,
  offeredTabs,
  submitLabel,
  submitTarget,
  tabForAmount,
  termLimitsFor,
} from '../../domain/calculator-rules'

const config = defaultCalculatorConfig
const php = (pesos: number) => Math.round(pesos * 100)

describe('clampAmount: clamped to [min, max], rounded down on the grid anchored at 0, never below min', () => {
  const range = { min: php(1000), max: php(25_000), interval: php(100) }
  it.each([
    ['below min', php(10), php(1000)],
    ['at min', php(1000), php(1000)],
    ['on grid', php(5000), php(5000)],
    ['off grid rounds down', php(5_049.99), php(5000)],
    ['just under the next step', php(5_099), php(5000)],
    ['at max', php(25_000), php(25_000)],
    ['above max', php(99_000), php(25_000)],
    ['negative', -5, php(1000)],
    ['fractional centavos', 500_000.7, php(5000)],
    ['NaN', Number.NaN, php(1000)],
    ['Infinity', Number.POSITIVE_INFINITY, php(1000)],
  ])('%s: %d -> %d', (_, value, expected) => {
    expect(clampAmount(value, range)).toBe(expected)
  })

  it.each([
    // An off-grid min stays selectable: rounding down would land below it.
    [
      'off-grid min, value just above it',
      { min: php(550), max: php(9_000), interval: php(100) },
      php(580),
      php(550),
    ],
    [
      'off-grid min, next grid point',
      { min: php(550), max: php(9_000), interval: php(100) },
      php(620),
      php(600),
    ],
    // An off-grid max is not reachable: rounding down is what the spec promises.
    ['off-grid max', { min: php(1000), max: php(7_345.5), interval: php(100) }, php(8000), php(7_300)],
    [
      'no grid point inside the range',
      { min: php(1_010), max: php(1_090), interval: php(100) },
      php(1_050),
      php(1_010),
    ],
    ['min equals max', { min: php(3000), max: php(3000), interval: php(100) }, php(9000), php(3000)],
    ['empty range (disabled) gives 0', { min: php(1000), max: 0, interval: php(100) }, php(5000), 0],
    ['zero interval acts as 1', { min: 0, max: 1000, interval: 0 }, 533.9, 533],
  ])('%s', (_, r, value, expected) => {
    expect(clampAmount(value, r)).toBe(expected)
  })
})

describe('clampTerm: clamped between the tab min and max', () => {
  it.each([
    ['below min', { min: 7, max: 30, interval: 1 }, 1, 7],
    ['inside', { min: 7, max: 30, interval: 1 }, 15, 15],
    ['above max', { min: 7, max: 30, interval: 1 }, 61, 30],
    ['fraction rounds down', { min: 7, max: 30, interval: 1 }, 15.9, 15],
    ['weekly interval', { min: 7, max: 28, interval: 7 }, 20, 14],
  ])('%s', (_, r, value, expected) => {
    expect(clampTerm(value, r)).toBe(expected)
  })
})

describe('amountLimitsFor', () => {
  const base: AmountLimitsInput = {
    config,
    tab: 'new',
    loggedIn: false,
    availableAmount: null,
    hasActiveLoan: false,
    increaseOffer: null,
  }
  const first = config.initialStates.new.maxAmount
  it.each<[string, Partial<AmountLimitsInput>, { min: number; max: number; disabled: boolean }]>([
    ['visitor: main-loan min to configured max', {}, { min: php(1000), max: php(25_000), disabled: false }],
    [
      'visitor on repeat tab: same range',
      { tab: 'repeat' },
      { min: php(1000), max: php(25_000), disabled: false },
    ],
    [
      'visitor: an available amount is ignored until logged in',
      { availableAmount: php(2000) },
      { min: php(1000), max: php(25_000), disabled: false },
    ],
    [
      'client: the lesser of available and configured max',
      { loggedIn: true, availableAmount: php(8000) },
      { min: php(1000), max: php(8000), disabled: false },
    ],
    [
      'client: available above the configured max',
      { loggedIn: true, availableAmount: php(90_000) },
      { min: php(1000), max: php(25_000), disabled: false },
    ],
    [
      'client: available equal to min is still usable',
      { loggedIn: true, availableAmount: php(1000) },
      { min: php(1000), max: php(1000), disabled: false },
    ],
    [
      'client: available below min -> max 0, disabled',
      { loggedIn: true, availableAmount: php(999) },
      { min: php(1000), max: 0, disabled: true },
    ],
    [
      'client with an active loan: additional-loan min',
      { loggedIn: true, availableAmount: php(6000), hasActiveLoan: true },
      { min: php(500), max: php(6000), disabled: false },
    ],
    [
      'active loan, available below the additional min -> disabled',
      { loggedIn: true, availableAmount: php(400), hasActiveLoan: true },
      { min: php(500), max: 0, disabled: true },
    ],
    [
      'increase offer: min is the principal (wins over an active loan)',
      {
        loggedIn: true,
        availableAmount: php(9000),
        hasActiveLoan: true,
        increaseOffer: { amount: php(9000), term: 21, principal: php(6000) },
      },
      { min: php(6000), max: php(9000), disabled: false },
    ],
    [
      'limit set to first: max is the first-loan limit',
      { limitFirst: true },
      { min: php(1000), max: first, disabled: false },
    ],
    [
      'limit set to first, client with less available',
      { limitFirst: true, loggedIn: true, availableAmount: php(4000) },
      { min: php(1000), max: php(4000), disabled: false },
    ],
  ])('%s', (_, override, expected) => {
    const limits = amountLimitsFor({ ...base, ...override })
    expect(limits).toEqual({ ...expected, first, interval: config.amountLimits.interval })
  })

  it('the first-loan limit is the new-client first maximum', () => {
    expect(firstLoanLimit(config)).toBe(php(10_000))
  })
})

describe('term limits and initial values per tab', () => {
  it.each([
    ['new', { min: 7, max: 30, interval: 1 }],
    ['repeat', { min: 7, max: 60, interval: 1 }],
  ] as const)('%s', (tab, expected) => {
    expect(termLimitsFor(config, tab)).toEqual(expected)
  })

  const noMaxTerm: CalculatorConfig = {
    ...config,
    initialStates: {
      new: { initialAmount: php(5000), maxAmount: php(10_000), minAmount: php(1000) },
      repeated: { initialAmount: php(10_000), maxAmount: php(25_000), minAmount: php(1000), maxTerm: 90 },
    },
  }
  it.each([
    ['configured maxTerm', config, 'new', 30],
    ['configured maxTerm (repeat)', config, 'repeat', 60],
    ['no maxTerm: the tab max', noMaxTerm, 'new', 30],
    ['maxTerm beyond the limits is clamped', noMaxTerm, 'repeat', 60],
  ] as const)('initial term, %s', (_, c, tab, expected) => {
    expect(initialTermFor(c, tab)).toBe(expected)
  })

  it.each([
    ['new', php(5000)],
    ['repeat', php(10_000)],
  ] as const)('initial amount, %s', (tab, expected) => {
    expect(initialAmountFor(config, tab)).toBe(expected)
  })
})

describe('tab switching', () => {
  const first = php(10_000)
  it.each([
    ['stl, new, above the limit -> repeat', 'stl', 'new', first + 1, 'repeat'],
    ['stl, new, at the limit stays new', 'stl', 'new', first, 'new'],
    ['stl, repeat, at or below the limit stays repeat', 'stl', 'repeat', php(2000), 'repeat'],
    ['line of credit, repeat, at the limit -> new', 'line-of-credit', 'repeat', first, 'new'],
    ['line of credit, repeat, below the limit -> new', 'line-of-credit', 'repeat', php(2000), 'new'],
    ['line of credit, new, above the limit -> repeat', 'line-of-credit', 'new', first + 100, 'repeat'],
  ] as const)('%s', (_, type, tab, amount, expected) => {
    expect(tabForAmount({ amount, first, tab, type })).toBe(expected)
  })

  it.each([
    ['to new caps at the first maximum', 'new', php(20_000), first],
    ['to new keeps a smaller amount', 'new', php(3000), php(3000)],
    ['to repeat keeps the amount', 'repeat', php(20_000), php(20_000)],
  ] as const)('%s', (_, tab, amount, expected) => {
    expect(amountForTab({ tab, amount, first })).toBe(expected)
  })
})

describe('offeredTabs: a visitor chooses, a client is their history (issue 13)', () => {
  it.each([
    ['visitor', { loggedIn: false, closedLoansCount: 0 }, ['new', 'repeat']],
    ['visitor, limit set to first', { loggedIn: false, closedLoansCount: 0, limitFirst: true }, ['new']],
    ['first-time client', { loggedIn: true, closedLoansCount: 0 }, ['new']],
    ['repeat client', { loggedIn: true, closedLoansCount: 3 }, ['repeat']],
    [
      'repeat client, limit set to first',
      { loggedIn: true, closedLoansCount: 3, limitFirst: true },
      ['repeat'],
    ],
  ] as const)('%s', (_, client, expected) => {
    expect(offeredTabs(client)).toEqual(expected)
  })

  it('a client offered only the new tab gets the first-loan max, even without a known available amount', () => {
    const limits = amountLimitsFor({
      config,
      tab: 'repeat',
      tabs: ['new'],
      loggedIn: true,
      availableAmount: null,
      hasActiveLoan: false,
      increaseOffer: null,
    })
    expect(limits.max).toBe(php(10_000))
  })

  it("the kind's own limits (initialStates) bind as on the server", () => {
    const tight: CalculatorConfig = {
      ...config,
      initialStates: {
        new: { ...config.initialStates.new, minAmount: php(2000), maxTerm: 21 },
        repeated: { ...config.initialStates.repeated, maxAmount: php(20_000), maxTerm: 45 },
      },
    }
    expect(termLimitsFor(tight, 'new')).toEqual({ min: 7, max: 21, interval: 1 })
    expect(termLimitsFor(tight, 'repeat')).toEqual({ min: 7, max: 45, interval: 1 })
    const base = {
      config: tight,
      loggedIn: false,
      availableAmount: null,
      hasActiveLoan: false,
      increaseOffer: null,
    }
    expect(amountLimitsFor({ ...base, tab: 'new' })).toMatchObject({ min: php(2000), max: php(20_000) })
    expect(amountLimitsFor({ ...base, tab: 'repeat', tabs: ['repeat'] })).toMatchObject({
      min: php(1000),
      max: php(20_000),
    })
  })
})

describe('isAdditionalLoanAvailable: all conditions must hold', () => {
  const ok = {
    maxAmount: php(5000),
    dueDays: 10,
    overdue: false,
    hasActiveRefinancing: false,
    hasPaymentSchedule: false,
  }
  it.each([
    ['all hold', {}, true],
    ['dueDays 2 is above 1', { dueDays: 2 }, true],
    ['max amount 0', { maxAmount: 0 }, false],
    ['overdue', { overdue: true }, false],
    ['dueDays exactly 1', { dueDays: 1 }, false],
    ['dueDays negative', { dueDays: -3 }, false],
    ['no active loan (dueDays unknown)', { dueDays: null }, false],
    ['active refinancing', { hasActiveRefinancing: true }, false],
    ['payment schedule', { hasPaymentSchedule: true }, false],
  ])('%s -> %s', (_, override, expected) => {
    expect(isAdditionalLoanAvailable({ ...ok, ...override })).toBe(expected)
  })
})

describe('submit from the calculator', () => {
  it.each([
    [true, true, false, 'create-application-then-loading'],
    [true, false, true, 'create-application-then-loading'],
    [false, true, false, 'apply'],
    [false, true, true, 'apply'],
    [false, false, true, 'login'],
    [false, false, false, 'registration'],
  ] as const)('additional=%s loggedIn=%s tabSelected=%s -> %s', (additionalLoanAvailable, loggedIn, tabSelected, target) => {
    expect(submitTarget({ additionalLoanAvailable, loggedIn, tabSelected })).toBe(target)
  })

  it.each([
    [false, true, true, LOGIN_SUBMIT_LABEL],
    [false, false, false, 'Get my loan'],
    [true, true, false, 'Get my loan'],
    [true, false, false, 'Get my loan'],
  ] as const)('loggedIn=%s tabSelected=%s: needsLogin=%s, label %s', (loggedIn, tabSelected, login, label) => {
    expect(needsLogin({ loggedIn, tabSelected })).toBe(login)
    expect(submitLabel({ loggedIn, tabSelected, configuredLabel: 'Get my loan' })).toBe(label)
  })

  it.each([
    ['repeat tab shown', 'repeat', false, true],
    ['new tab shown', 'new', false, false],
    ['repeat tab but tabs hidden', 'repeat', true, false],
  ] as const)('tab selected: %s', (_, tab, tabsHidden, expected) => {
    expect(isTabSelected({ tab, tabsHidden })).toBe(expected)
  })
})

describe('normalizePromoCode: 3 to 10 characters after trimming', () => {
  it.each([
    ['SUMMER10', 'SUMMER10'],
    ['  abc  ', 'abc'],
    ['ab', null],
    ['ABCDEFGHIJK', null],
    ['ABCDEFGHIJ', 'ABCDEFGHIJ'],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%s -> %s', (code, expected) => {
    expect(normalizePromoCode(code)).toBe(expected)
  })
})
