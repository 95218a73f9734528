/**
 * The planning rules of the model-based tests that drive the real system (issue 20 item 4), one set per server
 * statechart: when the server can really cause an event and what it changes besides the state. The API suite
 * (tests/api/model-journey.api.test.ts, model-loan.api.test.ts) and the browser sample (e2e/model-sample.spec.ts)
 * plan from them (tests/support/model-plan.ts), so both replay paths the server can really take.
 */
import {
  clientJourneyMachine,
  type JourneyEventType,
  journeyEventTypes,
} from '../../domain/journey/client-journey.machine'
import {
  type LoanEventType,
  leafOfValue,
  loanEventTypes,
  loanLifecycleMachine,
} from '../../domain/loan/loan-lifecycle.machine'
import type { Facts, PlanRules } from './model-plan'

// ---------------------------------------------------------------------------------------------------------------
// The client journey

/** What the server needs besides the step to accept an event (see `feasible`). */
export interface JourneyFacts extends Facts {
  /** Registration finished (PUT /finish): a payout account selected, so the client may apply. */
  finished: boolean
  /** A payout failed and waits for a retry or the back office's cancel. */
  payoutFailed: boolean
  /** A loan is out (paid out or waiting at the cash pickup counter). */
  loanRunning: boolean
  /** The loan was repaid and not reopened: its payment can be reversed. */
  repaid: boolean
  /** An additional application was made (one per path: a second signature would need another code). */
  additional: boolean
  /** An additional application ended without a loan: the server sends RETURN_TO_LOAN itself. */
  pendingReturn: boolean
  /** The sandbox providers answer by the client's data, fixed at sign-up: one outcome per path. */
  decision: string | null
  verification: string | null
  payout: string | null
}

const jobDecisions: Partial<Record<JourneyEventType, string>> = {
  DECISION_APPROVED: 'approved',
  DECISION_REJECTED: 'rejected',
  DECISION_MANUAL: 'manual',
  DECISION_DECREASE: 'decrease',
  DECISION_INCREASE: 'increase',
}
const verifications: Partial<Record<JourneyEventType, string>> = {
  VERIFICATION_APPROVED: 'approved',
  VERIFICATION_RESUBMISSION: 'resubmission',
  VERIFICATION_DECLINED: 'declined',
}
const payouts: Partial<Record<JourneyEventType, string>> = {
  PAYOUT_SUCCEEDED: 'succeeded',
  PAYOUT_CASH_PICKUP_READY: 'cash_pickup',
  PAYOUT_FAILED: 'failed',
}

export const journeyPlanRules: PlanRules<JourneyFacts> = {
  machine: clientJourneyMachine,
  events: journeyEventTypes,
  initialFacts: {
    finished: false,
    payoutFailed: false,
    loanRunning: false,
    repaid: false,
    additional: false,
    pendingReturn: false,
    decision: null,
    verification: null,
    payout: null,
  },
  leafOf: (value) => value as string,
  feasible: (f, step, event) => {
    const fixed = (outcome: string | undefined, current: string | null) =>
      outcome === undefined || current === null || current === outcome
    switch (event as JourneyEventType) {
      case 'APPLY':
        return f.finished && (step !== 'loan_page' || !f.additional)
      case 'FINISH':
        return !f.payoutFailed
      case 'RETRY_PAYOUT':
        return f.payoutFailed
      case 'LOAN_CANCELLED':
        return step === 'disbursement_type' && f.payoutFailed
      case 'LOAN_REOPENED':
        return f.repaid
      case 'RETURN_TO_LOAN':
        return false
      case 'SIGN':
        return !f.additional
      default:
        break
    }
    if (step === 'application_processing' && !fixed(jobDecisions[event as JourneyEventType], f.decision))
      return false
    return (
      fixed(verifications[event as JourneyEventType], f.verification) &&
      fixed(payouts[event as JourneyEventType], f.payout)
    )
  },
  update: (f, from, event, to) => {
    const e = event as JourneyEventType
    const next = { ...f }
    if (from === 'application_processing' && jobDecisions[e]) next.decision = jobDecisions[e]!
    if (verifications[e]) next.verification = verifications[e]!
    if (payouts[e]) next.payout = payouts[e]!
    if (e === 'FINISH') next.finished = true
    if (e === 'PAYOUT_FAILED') next.payoutFailed = true
    if (e === 'RETRY_PAYOUT' || e === 'LOAN_CANCELLED') next.payoutFailed = false
    if (e === 'PAYOUT_SUCCEEDED' || e === 'PAYOUT_CASH_PICKUP_READY' || e === 'LOAN_REOPENED')
      next.loanRunning = true
    if (e === 'LOAN_REPAID') Object.assign(next, { loanRunning: false, repaid: true })
    if (e === 'LOAN_REOPENED') next.repaid = false
    if (e === 'APPLY' && from === 'loan_page') next.additional = true
    if ((to === 'no_loan_page' || to === 'reject_page') && f.loanRunning && e !== 'LOAN_REPAID')
      next.pendingReturn = true
    if (e === 'RETURN_TO_LOAN') next.pendingReturn = false
    return next
  },
  automatic: (f, step) =>
    f.pendingReturn && (step === 'no_loan_page' || step === 'reject_page') ? 'RETURN_TO_LOAN' : null,
}

/** The sandbox data that makes the providers answer as a journey path needs (README, Sandbox). */
export function sandboxDataOf(f: JourneyFacts) {
  const names: Record<string, string> = {
    approved: 'Juan',
    rejected: 'Reject',
    manual: 'Manual',
    decrease: 'Decrease',
    increase: 'Increase',
  }
  return {
    firstName: names[f.decision ?? 'approved']!,
    lastName:
      f.verification === 'declined'
        ? 'Declined Cruz'
        : f.verification === 'resubmission'
          ? 'Resubmit Cruz'
          : 'Dela Cruz',
    /** The payout account's kind: a cash pickup, a bank account the sandbox fails, or one it pays. */
    payout: f.payout === 'cash_pickup' ? 'cash_pickup' : f.payout === 'failed' ? 'failing_bank' : 'bank',
  } as const
}

// ---------------------------------------------------------------------------------------------------------------
// The loan lifecycle

export interface LoanFacts extends Facts {
  /** The payout's outcome, fixed by the client's payout account: 'ok' disburses, 'fail' leaves a draft to cancel. */
  payout: string | null
  /** A partial payment posted in this state that a reversal can undo without moving the loan. */
  reversible: boolean
  /** The loan was repaid by a payment that can be reversed (REOPENED, REOPENED_ON_SCHEDULE): the plan it was on. */
  paidPlan: string | null
  /** The client's payout account refuses refunds: an overpayment's credit stays on a paid loan. */
  refundFails: boolean
  /** An overpayment on a paid loan waits for its refund (sent by the payment's own call). */
  refundPending: boolean
  /** Extensions taken (each needs a fee paid). */
  extensions: number
  /** A schedule was agreed once (a second offer is not made). */
  scheduled: boolean
}

/** A planning-only event: the client selects a new payout account (with its SMS code), one that refuses refunds. */
export const FAILING_REFUND_ACCOUNT = 'SELECT_FAILING_REFUND_ACCOUNT'

export const loanLeafOf = (value: unknown) => leafOfValue(value as never)
const planOfLeaf = (leaf: string) => leaf.split('.')[1] ?? null

export const loanPlanRules: PlanRules<LoanFacts> = {
  machine: loanLifecycleMachine,
  events: loanEventTypes,
  sideEvents: [FAILING_REFUND_ACCOUNT],
  initialFacts: {
    payout: null,
    reversible: false,
    paidPlan: null,
    refundFails: false,
    refundPending: false,
    extensions: 0,
    scheduled: false,
  },
  leafOf: loanLeafOf,
  feasible: (f, leaf, event) => {
    switch (event as LoanEventType | typeof FAILING_REFUND_ACCOUNT) {
      case 'DISBURSED':
        return f.payout !== 'fail'
      case 'CANCELLED':
        return f.payout !== 'ok'
      case 'PAYMENT_REVERSED':
        return f.reversible
      case 'REOPENED':
        return f.paidPlan === 'on_terms'
      case 'REOPENED_ON_SCHEDULE':
        return f.paidPlan === 'scheduled'
      case 'CREDIT_REFUNDED':
        return false
      case 'CAUGHT_UP':
        return leaf === 'active.scheduled.overdue'
      case 'EXTENDED':
        return f.extensions < 1
      case 'SCHEDULE_AGREED':
        return !f.scheduled && f.extensions === 0 && leaf === 'active.on_terms.current'
      case FAILING_REFUND_ACCOUNT:
        return leaf === 'paid' && !f.refundFails
      default:
        return true
    }
  },
  update: (f, from, event, to) => {
    const next = { ...f }
    if (event === 'DISBURSED') next.payout = 'ok'
    if (event === 'CANCELLED') next.payout = 'fail'
    if (event === FAILING_REFUND_ACCOUNT) next.refundFails = true
    // A partial payment is reversible while the loan stays where it was posted; on a paid loan only while its credit
    // was not refunded.
    if (event === 'PAYMENT_POSTED') {
      next.reversible = from !== 'paid' || f.refundFails
      next.refundPending = from === 'paid' && !f.refundFails
    } else if (event === 'PAYMENT_REVERSED' || from !== to) next.reversible = false
    if (event === 'CREDIT_REFUNDED') next.refundPending = false
    if (event === 'REPAID') next.paidPlan = planOfLeaf(from)
    if (event === 'REOPENED' || event === 'REOPENED_ON_SCHEDULE') next.paidPlan = null
    if (event === 'EXTENDED') next.extensions = f.extensions + 1
    if (event === 'SCHEDULE_AGREED') next.scheduled = true
    return next
  },
  automatic: (f, leaf) => (f.refundPending && leaf === 'paid' ? 'CREDIT_REFUNDED' : null),
}
