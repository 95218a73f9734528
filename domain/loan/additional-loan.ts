/**
 * Spec section 4, Additional loan: the one rule the calculator (in the browser) and the application service (on
 * the server) both ask, so they can never disagree about whether a client with an open loan may borrow again.
 *
 * The spec's conditions (all must hold): the max amount is above 0, the loan is not overdue, `dueDays` is above
 * 1, there is no active refinancing, there is no payment schedule. Issue 18 adds what a real lender needs on top
 * (docs/decisions/0030-additional-and-repeat-loans.md): never while the loan is on hold, never for a client with
 * a sold or written-off debt, and at most one additional loan at a time (two open loans).
 *
 * Pure: facts in, verdict out. Every reason that fails is listed (not only the first), each with a stable code
 * and a sentence the client can read; the server answers the first one's sentence with its 409.
 */
import * as v from 'valibot'

/** At most this many loans may be open at once: the loan and one additional loan. */
export const MAX_OPEN_LOANS = 2

/** What the rule needs to know about the client's open loan (the one the additional loan would join). */
export const openLoanFactsSchema = v.object({
  /** Days from the business today to the loan's due date (negative once past it). */
  dueDays: v.number(),
  /** The loan's standing is overdue (the daily run marks it the day after the due date, or an instalment's). */
  overdue: v.boolean(),
  /** The loan is on hold (a dispute, suspected fraud). */
  onHold: v.boolean(),
  /** The loan is repaid on a payment schedule. */
  hasPaymentSchedule: v.boolean(),
})
export type OpenLoanFacts = v.InferOutput<typeof openLoanFactsSchema>

/**
 * The facts the server tells the browser (GET /private/client `additionalLoan`), so the calculator runs this rule
 * on what the server knows; the browser adds only its own max amount.
 */
export const additionalLoanFactsSchema = v.object({
  /** How many of the client's loans are open (active or on hold). */
  openLoans: v.number(),
  /** The oldest open loan (the one My loan shows); null without one. */
  loan: v.nullable(openLoanFactsSchema),
  hasActiveRefinancing: v.boolean(),
  /** A loan of the client's was sold to a collection agency or written off. */
  defaulted: v.boolean(),
})
export type AdditionalLoanClientFacts = v.InferOutput<typeof additionalLoanFactsSchema>

export interface AdditionalLoanFacts extends AdditionalLoanClientFacts {
  /** The calculator's max amount, centavos: 0 when the calculator is disabled (max below the min). */
  maxAmount: number
}

export const additionalLoanReasonCodes = [
  'noOpenLoan',
  'tooManyOpenLoans',
  'defaulted',
  'onHold',
  'noAmountAvailable',
  'overdue',
  'dueTooSoon',
  'activeRefinancing',
  'paymentSchedule',
] as const
export type AdditionalLoanReasonCode = (typeof additionalLoanReasonCodes)[number]

export interface AdditionalLoanReason {
  code: AdditionalLoanReasonCode
  message: string
}

export interface AdditionalLoanVerdict {
  available: boolean
  reasons: AdditionalLoanReason[]
}

const messages: Record<AdditionalLoanReasonCode, string> = {
  noOpenLoan: 'There is no open loan to add to: apply for a loan as usual.',
  tooManyOpenLoans: 'You already have an additional loan: repay one of your loans first.',
  defaulted: 'No new loan can be offered after a debt was sold or written off.',
  onHold: 'Your loan is on hold: no additional loan until the hold is released.',
  noAmountAvailable: 'No amount is available to you while your loans run: repay part of them first.',
  overdue: 'Your loan is overdue: repay it before taking another one.',
  dueTooSoon: 'Your loan is due within a day: repay it first, then apply again.',
  activeRefinancing: 'An extension of your loan is waiting for its fee: finish it first.',
  paymentSchedule: 'Your loan is on a payment schedule: no additional loan until it is repaid.',
}

const reason = (code: AdditionalLoanReasonCode): AdditionalLoanReason => ({ code, message: messages[code] })

/**
 * Spec section 4, Additional loan, with issue 18's additions (see the file comment): the codes of the conditions
 * that fail, none when the additional loan is available. The calculator asks only this (its bundle carries no
 * sentences); `additionalLoanAvailability` words it.
 */
export function additionalLoanRefusals(facts: AdditionalLoanFacts): AdditionalLoanReasonCode[] {
  const { loan } = facts
  if (facts.openLoans < 1 || loan === null) return ['noOpenLoan']
  const failed: AdditionalLoanReasonCode[] = []
  if (facts.openLoans >= MAX_OPEN_LOANS) failed.push('tooManyOpenLoans')
  if (facts.defaulted) failed.push('defaulted')
  if (loan.onHold) failed.push('onHold')
  if (!(facts.maxAmount > 0)) failed.push('noAmountAvailable')
  if (loan.overdue) failed.push('overdue')
  if (!(loan.dueDays > 1)) failed.push('dueTooSoon')
  if (facts.hasActiveRefinancing) failed.push('activeRefinancing')
  if (loan.hasPaymentSchedule) failed.push('paymentSchedule')
  return failed
}

/** The rule's verdict with a sentence per failing condition (the server's 409, the decision's reasons). */
export function additionalLoanAvailability(facts: AdditionalLoanFacts): AdditionalLoanVerdict {
  const failed = additionalLoanRefusals(facts)
  return { available: failed.length === 0, reasons: failed.map(reason) }
}
