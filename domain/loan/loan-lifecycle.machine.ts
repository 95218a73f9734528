/**
 * The loan's lifecycle (issue 16): the one model of which status a loan is in, the sibling of the client's journey
 * (domain/journey/client-journey.machine.ts) and built the same way. The server's loan and payment services, the
 * back office's 409s, the loan's status code on the wire and the analyst diagram
 * (docs/statecharts/loan-lifecycle.md) derive from this file.
 *
 * Pure: no actors, no delays, no I/O. The server restores the persisted snapshot inside a transaction, asks the
 * machine whether the event a call or a job stands for fits the loan's state (`snapshot.can`), and stores the next
 * snapshot and a history row in the same transaction.
 *
 * - Each state's metadata (`LoanStateMeta`) carries the spec's loan status code (spec section 4, Status codes)
 *   and a label; `satisfies` makes a state without them a type error. State names are the spec's status names.
 * - Each event's definition (`loanEventDefinitions`) names the calls and jobs that send it.
 * - `unenteredLoanStates`: the spec's statuses no transition reaches yet (cannot make offer, terminated, sold
 *   debt, write off; later issues add them). They carry the same metadata but are not states: coverage does not
 *   ask for them and a stored snapshot naming one is refused.
 *
 * Events that keep the state (a partial payment, a reversal that leaves the loan owing what it owed, a refund of
 * credit) are self-transitions with the state as target (a targetless transition without actions is one
 * `snapshot.can` reports as not enabled): they are accepted only where listed, and refused elsewhere like every
 * other event.
 */
import { setup, transition } from 'xstate'

/** Every loan status code of the spec (spec section 4, Status codes), by status name. */
export const loanStatusCode = {
  draft: 1,
  cancelled: 2,
  cannot_make_offer: 3,
  active: 4,
  paid: 5,
  on_hold: 6,
  terminated: 8,
  sold_debt: 9,
  write_off: 10,
} as const

export type LoanStatusName = keyof typeof loanStatusCode
export type LoanStatusCode = (typeof loanStatusCode)[LoanStatusName]

export interface LoanStateMeta {
  /** What the loan's `status` answers on the wire. */
  status: LoanStatusCode
  /** In words, for the back office and the diagram. */
  label: string
}

/**
 * Who sends an event: the client (a call), a back-office user (a call), a server job (payout, reconciliation,
 * refunds), or a payment gateway (its webhook).
 */
export type LoanEventSender = 'client' | 'back-office' | 'job' | 'gateway'

export interface LoanEventDefinition {
  /** In words, for 409 messages and the diagram. */
  label: string
  /** The calls (method and path) that send it; empty when only a job does. */
  calls: readonly string[]
  sentBy: readonly LoanEventSender[]
}

const paymentCalls = [
  'POST /web/public/payments/webhook/{provider}',
  'POST /web/private/back-office/payments',
  'POST /web/private/back-office/payments/{id}/assign',
] as const
/** The gateway's webhook, a back-office user entering or assigning a payment, the reconciliation job. */
const paymentSenders = ['gateway', 'back-office', 'job'] as const
const reversalCalls = ['POST /web/private/back-office/payments/{id}/reversal'] as const

/** Every event of the lifecycle, with the calls that send it. The event union derives from the keys. */
export const loanEventDefinitions = {
  /** The payout job, once the money has left. */
  DISBURSED: { label: 'The payout', calls: [], sentBy: ['job'] },
  /** A signed loan whose payout finally failed, or whose application was cancelled before any money left. */
  CANCELLED: {
    label: 'Cancelling the loan',
    calls: ['POST /web/private/back-office/loan/{id}/cancel'],
    sentBy: ['back-office'],
  },
  /** A payment that leaves something owed; on a paid loan, an overpayment that becomes credit. */
  PAYMENT_POSTED: { label: 'A payment', calls: paymentCalls, sentBy: paymentSenders },
  /** A payment after which nothing is owed. */
  REPAID: { label: 'A payment that repays the loan', calls: paymentCalls, sentBy: paymentSenders },
  /** A reversal that leaves the loan where it is. */
  PAYMENT_REVERSED: { label: 'A payment reversal', calls: reversalCalls, sentBy: ['back-office'] },
  /** A reversal that makes a paid loan owe again. */
  REOPENED: {
    label: 'A payment reversal that reopens the loan',
    calls: reversalCalls,
    sentBy: ['back-office'],
  },
  /** The credit of an overpayment, paid back to the client's payout account. */
  CREDIT_REFUNDED: { label: 'Refunding the credit', calls: [], sentBy: ['job'] },
  /** A dispute or suspected fraud: reminders and accrual stop. */
  HOLD: {
    label: 'Putting the loan on hold',
    calls: ['POST /web/private/back-office/loan/{id}/hold'],
    sentBy: ['back-office'],
  },
  RELEASE: {
    label: 'Releasing the hold',
    calls: ['POST /web/private/back-office/loan/{id}/release'],
    sentBy: ['back-office'],
  },
} as const satisfies Record<string, LoanEventDefinition>

export type LoanEventType = keyof typeof loanEventDefinitions
export type LoanEvent = { type: LoanEventType }
export const loanEventTypes = Object.keys(loanEventDefinitions) as LoanEventType[]

interface LoanStateConfig {
  meta: LoanStateMeta
  description?: string
  type?: 'final'
  on?: Partial<Record<LoanEventType, LoanStatusName>>
}

/** The states, in the order a loan usually meets them. The state union derives from the keys. */
const states = {
  draft: {
    description:
      'The agreement is signed and the loan written; the money has not left yet. The payout job sends DISBURSED when it has; the back office cancels a loan whose payout finally failed or whose application was cancelled.',
    meta: { status: loanStatusCode.draft, label: 'Signed, waiting for the payout' },
    on: { DISBURSED: 'active', CANCELLED: 'cancelled' },
  },
  cancelled: {
    description: 'No money ever left: nothing is owed and nothing more happens to this loan.',
    type: 'final',
    meta: { status: loanStatusCode.cancelled, label: 'Cancelled before the payout' },
  },
  active: {
    description:
      'The money is out and owed: payments and reversals post here, the one that brings the outstanding to 0 repays the loan.',
    meta: { status: loanStatusCode.active, label: 'Active' },
    on: { PAYMENT_POSTED: 'active', REPAID: 'paid', PAYMENT_REVERSED: 'active', HOLD: 'on_hold' },
  },
  on_hold: {
    description:
      'The back office holds the loan (a dispute, suspected fraud): reminders and accrual stop; payments still post.',
    meta: { status: loanStatusCode.on_hold, label: 'On hold' },
    on: { PAYMENT_POSTED: 'on_hold', REPAID: 'paid', PAYMENT_REVERSED: 'on_hold', RELEASE: 'active' },
  },
  paid: {
    description:
      'Nothing is owed. A further payment is an overpayment that becomes credit, refunded by a job; a reversal that makes the loan owe again reopens it.',
    meta: { status: loanStatusCode.paid, label: 'Paid' },
    on: {
      PAYMENT_POSTED: 'paid',
      PAYMENT_REVERSED: 'paid',
      CREDIT_REFUNDED: 'paid',
      REOPENED: 'active',
    },
  },
} as const satisfies Record<string, LoanStateConfig>

export type LoanState = keyof typeof states
export const loanStates = Object.keys(states) as LoanState[]

/**
 * The spec's statuses that no transition reaches yet (see the file comment). The type makes these exactly the
 * statuses that are not states: a status is either one or the other.
 */
export const unenteredLoanStates = {
  /** The decision engine could make no offer (a loan record that never became a contract). */
  cannot_make_offer: { status: loanStatusCode.cannot_make_offer, label: 'No offer could be made' },
  /** The contract ended early (e.g. by the lender after a breach). */
  terminated: { status: loanStatusCode.terminated, label: 'Terminated' },
  /** The debt was sold to a collection agency (the client's profile shows the debt-sold page). */
  sold_debt: { status: loanStatusCode.sold_debt, label: 'Debt sold' },
  /** The outstanding was written off as a loss. */
  write_off: { status: loanStatusCode.write_off, label: 'Written off' },
} as const satisfies Record<Exclude<LoanStatusName, LoanState>, LoanStateMeta>

export type UnenteredLoanState = keyof typeof unenteredLoanStates

export function isEnteredLoanState(state: LoanStatusName): state is LoanState {
  return state in states
}

/** The metadata of any status the spec names, a state of the machine or not. */
export function loanStateMeta(state: LoanStatusName): LoanStateMeta {
  return isEnteredLoanState(state) ? states[state].meta : unenteredLoanStates[state as UnenteredLoanState]
}

/** The status code a loan in this state answers (spec section 4). */
export function loanStatusOf(state: LoanState): LoanStatusCode {
  return states[state].meta.status
}

/** The state of the machine whose status is this code; undefined for a code no state of this model has. */
export function loanStateOfStatus(code: number): LoanState | undefined {
  return loanStates.find((state) => states[state].meta.status === code)
}

/** A loan that owes money: payments post to it, reminders and collection concern it. */
export function isOpenLoanState(state: LoanState): boolean {
  return state === 'active' || state === 'on_hold'
}

/** A loan that was owed and is settled: it counts among the client's closed loans. */
export function isClosedLoanState(state: LoanState): boolean {
  return state === 'paid'
}

export const loanLifecycleMachine = setup({
  types: { events: {} as LoanEvent, meta: {} as LoanStateMeta },
}).createMachine({
  id: 'loanLifecycle',
  initial: 'draft',
  states,
})

export type LoanLifecycleSnapshot = ReturnType<typeof loanLifecycleMachine.resolveState>

/**
 * The model's version, stored with every snapshot. Bump it when a change to the states makes stored snapshots
 * mean something else, and add the step from the previous version to `migratePersistedLoan`.
 */
export const LOAN_MODEL_VERSION = 1 as const

/** What the database keeps: the model's version and the state value (context is empty). */
export type PersistedLoan = { version: typeof LOAN_MODEL_VERSION; value: LoanState }

export const initialLoan: PersistedLoan = { version: LOAN_MODEL_VERSION, value: 'draft' }

/**
 * A stored snapshot of any version this code knows, brought to the current one; null for anything else (a
 * hand-edited or future snapshot, or one naming a status this version has no state for, must not be guessed at).
 * Version 1 is the first; there is nothing older to migrate.
 */
export function migratePersistedLoan(stored: unknown): PersistedLoan | null {
  if (typeof stored !== 'object' || stored === null) return null
  const { version, value } = stored as { version?: unknown; value?: unknown }
  const known = typeof value === 'string' && (loanStates as readonly string[]).includes(value)
  if (!known || version !== LOAN_MODEL_VERSION) return null
  return { version: LOAN_MODEL_VERSION, value: value as LoanState }
}

export function restoreLoan(persisted: PersistedLoan): LoanLifecycleSnapshot {
  return loanLifecycleMachine.resolveState({ value: persisted.value, context: {} })
}

/**
 * The loan after an event, or null when the event does not fit the loan's state. Pure: the caller holds the row
 * lock and writes the result in the same transaction.
 */
export function advanceLoan(persisted: PersistedLoan, event: LoanEvent): PersistedLoan | null {
  const snapshot = restoreLoan(persisted)
  if (!snapshot.can(event)) return null
  const [next] = transition(loanLifecycleMachine, snapshot, event)
  return { version: LOAN_MODEL_VERSION, value: next.value as LoanState }
}

/** The events each state accepts (from the machine's transitions), e.g. for a 409 matrix. */
export function loanEventsAcceptedAt(state: LoanState): LoanEventType[] {
  const on = (states[state] as LoanStateConfig).on ?? {}
  return Object.keys(on) as LoanEventType[]
}
