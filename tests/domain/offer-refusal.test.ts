/**
 * The reasons a logged-in client's offer is refused (issue 13 item 11): each says why and what to choose, and
 * a request is refused exactly when the API's own validator (or the available amount) refuses it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { defaultCalculatorConfig as config } from '../../domain/calculator-config'
import { offerRefusal } from '../../domain/offer-refusal'
import { validateOfferRequest } from '../../domain/pricing/offer'

const php = (pesos: number) => pesos * 100
const newClient = { kind: 'new', availableAmount: php(10_000) } as const
const repeatClient = { kind: 'repeat', availableAmount: php(25_000) } as const

describe('offerRefusal', () => {
  it.each([
    [
      'a first-time client asking for a repeat-client term',
      newClient,
      php(5000),
      60,
      [{ propertyPath: 'term', message: 'Repeat-client terms need a repaid loan: choose up to 30 days.' }],
    ],
    [
      'a first-time client asking for a repeat-client amount',
      newClient,
      php(20_000),
      30,
      [
        {
          propertyPath: 'amount',
          message: 'Amounts over ₱10 000.00 need a repaid loan: choose up to ₱10 000.00.',
        },
      ],
    ],
    [
      'a client asking for more than is available now',
      { kind: 'repeat', availableAmount: php(8000) },
      php(9000),
      30,
      [{ propertyPath: 'amount', message: 'You can borrow up to ₱8 000.00 now: choose up to ₱8 000.00.' }],
    ],
    [
      'a loan still open',
      { kind: 'repeat', availableAmount: 0 },
      php(5000),
      30,
      [
        {
          propertyPath: 'amount',
          message: 'You cannot borrow more while a loan is open: repay it first, then apply again.',
        },
      ],
    ],
    [
      'a repeat client beyond every term',
      repeatClient,
      php(5000),
      90,
      [{ propertyPath: 'term', message: 'That term is too long: choose up to 60 days.' }],
    ],
    [
      'too short and too small',
      repeatClient,
      php(500),
      3,
      [
        { propertyPath: 'amount', message: 'The smallest loan is ₱1 000.00: choose at least that.' },
        { propertyPath: 'term', message: 'The shortest term is 7 days: choose at least that.' },
      ],
    ],
    [
      'off the amount grid',
      repeatClient,
      php(5050),
      30,
      [{ propertyPath: 'amount', message: 'Amounts go in steps of ₱100.00: choose ₱5 000.00 or ₱5 100.00.' }],
    ],
    ['a request the server prices', newClient, php(10_000), 30, []],
  ] as const)('%s', (_, facts, amount, term, expected) => {
    expect(offerRefusal(config, facts, amount, term)).toEqual(expected)
  })

  it('refuses exactly what the API validator or the available amount refuses', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('new' as const, 'repeat' as const),
        fc.integer({ min: 0, max: php(30_000) }),
        fc.integer({ min: 0, max: php(30_000) }),
        fc.integer({ min: 0, max: 100 }),
        (kind, availableAmount, amount, term) => {
          const refused = offerRefusal(config, { kind, availableAmount }, amount, term).length > 0
          const validator =
            validateOfferRequest(config, kind, amount, term).length > 0 || amount > availableAmount
          expect(refused).toBe(validator)
        },
      ),
      { numRuns: 2000 },
    )
  })
})
