/**
 * The calculator with a client who has an open loan (issue 18 item 5): its amount runs from the additional-loan
 * minimum to what is left of the limit, and its submit creates the application (then the loading page) exactly
 * when the additional-loan rule of domain/loan/additional-loan.ts allows it, with the facts the server sends in
 * GET /private/client (mapped by `calculatorClientOf`).
 */
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, waitFor } from 'xstate'
import { type CalculatorConfig, defaultCalculatorConfig } from '../../domain/calculator-config'
import type { OfferRequest } from '../../domain/contract/pricing'
import type { AdditionalLoanClientFacts } from '../../domain/loan/additional-loan'
import type { Offer } from '../../domain/offer'
import {
  additionalLoanAvailableIn,
  calculatorMachine,
  submitDecisionOf,
} from '../../machines/calculator.machine'
import { calculatorClientOf } from '../../src/features/calculator/use-calculator-client'

const facts = (
  over: Partial<AdditionalLoanClientFacts['loan'] & object> = {},
  top: Partial<AdditionalLoanClientFacts> = {},
) => ({
  availableLoanAmount: { amount: 5_000_00 },
  closedLoansCount: 0,
  hasActiveLoan: true,
  hasActiveRefinancing: top.hasActiveRefinancing ?? false,
  additionalLoan: {
    openLoans: 1,
    loan: { dueDays: 14, overdue: false, onHold: false, hasPaymentSchedule: false, ...over },
    hasActiveRefinancing: false,
    defaulted: false,
    ...top,
  },
})

async function readyWith(client: ReturnType<typeof calculatorClientOf>) {
  const machine = calculatorMachine.provide({
    actors: {
      loadConfig: fromPromise<CalculatorConfig, void>(async () => defaultCalculatorConfig),
      fetchOffer: fromPromise<Offer, OfferRequest>(() => new Promise<Offer>(() => {})),
    },
  })
  const actor = createActor(machine, { input: { client } }).start()
  await waitFor(actor, (s) => s.matches('ready'))
  const context = actor.getSnapshot().context
  actor.stop()
  return context
}

describe('calculator with an open loan', () => {
  it('spans the additional-loan minimum to the rest of the limit, and submit creates the application', async () => {
    const context = await readyWith(calculatorClientOf(facts()))
    expect(context.amount.min).toBe(defaultCalculatorConfig.amountLimits.minAdditionLoan)
    expect(context.amount.max).toBe(5_000_00)
    expect(additionalLoanAvailableIn(context)).toBe(true)
    expect(submitDecisionOf(context).target).toBe('create-application-then-loading')
  })

  it.each([
    ['overdue', facts({ overdue: true })],
    ['due tomorrow', facts({ dueDays: 1 })],
    ['on a payment schedule', facts({ hasPaymentSchedule: true })],
    ['on hold', facts({ onHold: true })],
    ['an extension waiting for its fee', facts({}, { hasActiveRefinancing: true })],
    ['a sold or written-off debt', facts({}, { defaulted: true })],
    ['an additional loan already open', facts({}, { openLoans: 2 })],
  ])('goes to apply instead when %s', async (_name, f) => {
    const context = await readyWith(calculatorClientOf(f))
    expect(additionalLoanAvailableIn(context)).toBe(false)
    expect(submitDecisionOf(context).target).toBe('apply')
  })

  it('goes to apply when nothing is left of the limit (the calculator is disabled)', async () => {
    const context = await readyWith(calculatorClientOf({ ...facts(), availableLoanAmount: { amount: 0 } }))
    expect(context.disabled).toBe(true)
    expect(submitDecisionOf(context).target).toBe('apply')
  })

  it('a client without an open loan has no additional-loan facts', () => {
    expect(
      calculatorClientOf({ ...facts(), hasActiveLoan: false, additionalLoan: undefined }).activeLoan,
    ).toBeNull()
  })
})
