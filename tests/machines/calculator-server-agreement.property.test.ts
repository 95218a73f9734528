/**
 * Issue 13: "the calculator never offers a tab, amount or term the server will refuse for this client". For
 * random configurations, clients and input sequences, every request the calculator machine would send is one
 * the API's own validator (domain/pricing/offer.ts `validateOfferRequest`, which the offer routes run) accepts,
 * for the kind of client the server prices: a visitor by the tab, a logged-in client by their history, within
 * their available amount.
 *
 * Generated configurations keep every minimum on its interval's grid: the calculator's grid is anchored at 0
 * and the server's at the minimum (ADR 0008, known limit), which agree only then. A configuration whose range
 * for a kind is empty is left out (the server prices nothing for that kind, whatever the screen does).
 */
import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { type CalculatorConfig, calculatorConfigSchema } from '../../domain/calculator-config'
import { validateOfferRequest } from '../../domain/pricing/offer'
import { offerRange } from '../../domain/pricing/ranges'
import {
  applyInput,
  type CalculatorClient,
  type CalculatorContext,
  type CalculatorEvent,
  guestClient,
  initialCalculatorContext,
  offerRequestOf,
  withConfig,
} from '../../machines/calculator.machine'

const php = (pesos: number) => pesos * 100

const configArb: fc.Arbitrary<CalculatorConfig> = fc
  .record({
    amountStep: fc.constantFrom(php(100), php(500)),
    minSteps: fc.integer({ min: 1, max: 10 }),
    firstSteps: fc.integer({ min: 0, max: 40 }),
    repeatSteps: fc.integer({ min: 0, max: 60 }),
    newMinSteps: fc.integer({ min: 0, max: 5 }),
    repeatMinSteps: fc.integer({ min: 0, max: 5 }),
    minNew: fc.integer({ min: 1, max: 14 }),
    newSpan: fc.integer({ min: 0, max: 30 }),
    minRepeated: fc.integer({ min: 1, max: 14 }),
    repeatSpan: fc.integer({ min: 0, max: 60 }),
    newMaxTerm: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
    repeatMaxTerm: fc.option(fc.integer({ min: 1, max: 90 }), { nil: undefined }),
  })
  .map((r) => {
    const minMainLoan = r.minSteps * r.amountStep
    const first = minMainLoan + r.firstSteps * r.amountStep
    const repeatedMax = first + r.repeatSteps * r.amountStep
    return {
      termLimits: {
        minTermForNew: r.minNew,
        maxTermForNew: r.minNew + r.newSpan,
        minTermForRepeated: r.minRepeated,
        maxTermForRepeated: r.minRepeated + r.repeatSpan,
        interval: 1,
      },
      amountLimits: {
        minMainLoan,
        amountTo: repeatedMax,
        minAdditionLoan: r.amountStep,
        interval: r.amountStep,
      },
      initialStates: {
        new: {
          initialAmount: first,
          maxAmount: first,
          minAmount: Math.min(first, minMainLoan + r.newMinSteps * r.amountStep),
          maxTerm: r.newMaxTerm,
        },
        repeated: {
          initialAmount: repeatedMax,
          maxAmount: repeatedMax,
          minAmount: Math.min(first, minMainLoan + r.repeatMinSteps * r.amountStep),
          maxTerm: r.repeatMaxTerm,
        },
      },
    }
  })
  .filter((c) => v.is(calculatorConfigSchema, c))
  .filter((c) => offerRange(c, 'new') !== undefined && offerRange(c, 'repeat') !== undefined)

const clientArb: fc.Arbitrary<CalculatorClient> = fc.oneof(
  fc.constant(guestClient),
  fc.record({
    loggedIn: fc.constant(true),
    closedLoansCount: fc.constantFrom(0, 0, 1, 4),
    availableAmount: fc.option(fc.integer({ min: 0, max: php(40_000) }), { nil: null }),
    hasActiveLoan: fc.constant(false),
    increaseOffer: fc.constant(null),
    limitFirst: fc.boolean(),
    hasActiveRefinancing: fc.constant(false),
    activeLoan: fc.constant(null),
  }),
)

const eventArb: fc.Arbitrary<CalculatorEvent> = fc.oneof(
  fc.record({ type: fc.constant('AMOUNT.SET' as const), value: fc.integer({ min: -100, max: php(50_000) }) }),
  fc.record({ type: fc.constant('TERM.SET' as const), value: fc.integer({ min: 0, max: 120 }) }),
  fc.record({
    type: fc.constant('TAB.SELECT' as const),
    tab: fc.constantFrom('new' as const, 'repeat' as const),
  }),
)

const cookieArb = fc.record(
  {
    amount: fc.integer({ min: 0, max: php(50_000) }),
    term: fc.integer({ min: 0, max: 120 }),
    tab: fc.constantFrom('new' as const, 'repeat' as const),
  },
  { requiredKeys: [] },
)

/** What the server answers this request with: the violations of the route the calculator would call. */
function serverViolations(config: CalculatorConfig, context: CalculatorContext) {
  const request = offerRequestOf(context)
  if (request.kind === 'guest') {
    const kind = request.sequenceType === 'first' ? 'guest' : 'repeat'
    return validateOfferRequest(config, kind, request.amount, request.term)
  }
  // The client route: priced by the client's history, refused above what they may borrow now.
  const client = context.client
  const violations = validateOfferRequest(config, request.kind, request.amount, request.term)
  if (client.availableAmount !== null && request.amount > client.availableAmount) {
    violations.push({ propertyPath: 'amount', message: 'above the available amount' })
  }
  return violations
}

describe('the calculator and the server agree on what can be priced', () => {
  it('every request the calculator settles on is accepted by the API validator', () => {
    fc.assert(
      fc.property(
        configArb,
        clientArb,
        fc.option(cookieArb, { nil: null }),
        fc.array(eventArb, { maxLength: 8 }),
        (config, client, cookie, events) => {
          let context = withConfig(initialCalculatorContext({ initial: cookie, client }), config)
          const check = () => {
            if (context.disabled) return
            expect(serverViolations(config, context), JSON.stringify(offerRequestOf(context))).toEqual([])
          }
          check()
          for (const event of events) {
            context = applyInput(context, event)
            check()
          }
        },
      ),
      { numRuns: 400 },
    )
  })

  it('a visitor who logs in as a first-time client leaves the repeat tab and its terms', () => {
    fc.assert(
      fc.property(configArb, fc.array(eventArb, { maxLength: 6 }), (config, events) => {
        let context = withConfig(initialCalculatorContext({}), config)
        for (const event of events) context = applyInput(context, event)
        context = applyInput(context, {
          type: 'CONTEXT.UPDATE',
          loggedIn: true,
          availableAmount: null,
          hasActiveLoan: false,
          closedLoansCount: 0,
        })
        expect(context.tab).toBe('new')
        expect(serverViolations(config, context)).toEqual([])
      }),
      { numRuns: 200 },
    )
  })
})
