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
 * - `unenteredLoanStates`: the spec's statuses no transition reaches yet (cannot make offer, terminated: a
 *   decision without an offer writes no loan, and no call ends a contract early yet). They carry the same metadata but are not states: coverage does not
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
  /**
   * An extension's fee is paid (its agreement signed before): the due date moves by the extension's term. The
   * payment that pays it is a gateway's, a back-office user's or the reconciliation's, like any payment.
   */
  EXTENDED: { label: 'Paying an extension fee', calls: paymentCalls, sentBy: paymentSenders },
  /** The client signs a payment-schedule special offer: what is owed is split into instalments. */
  SCHEDULE_AGREED: {
    label: 'Agreeing to a payment schedule',
    calls: ['POST /web/private/client/loan/active/payment-schedule/special-offer/submit/{id}'],
    sentBy: ['client'],
  },
  /** A reversal that makes a paid loan on a schedule owe again: back on its schedule. */
  REOPENED_ON_SCHEDULE: {
    label: 'A payment reversal that reopens the loan on its schedule',
    calls: reversalCalls,
    sentBy: ['back-office'],
  },
  /** The daily servicing run: the due date (on terms) or an instalment's (on a schedule) passed unpaid. */
  OVERDUE: { label: 'Marking the loan overdue', calls: [], sentBy: ['job'] },
  /**
   * Nothing is past due any more: the overdue instalments were paid (the posting, or the daily run), or the due
   * date moved past today. A paid extension or an agreed schedule clears the standing by its own event.
   */
  CAUGHT_UP: { label: 'Catching up on an overdue loan', calls: paymentCalls, sentBy: [...paymentSenders] },
  /** The back office sells the overdue debt to a collection agency (one loan or a batch). */
  DEBT_SOLD: {
    label: 'Selling the debt',
    calls: ['POST /web/private/back-office/debt-sales'],
    sentBy: ['back-office'],
  },
  /** The back office writes the outstanding off as a loss, with a reason. */
  WRITTEN_OFF: {
    label: 'Writing the loan off',
    calls: ['POST /web/private/back-office/loan/{id}/write-off'],
    sentBy: ['back-office'],
  },
} as const satisfies Record<string, LoanEventDefinition>

export type LoanEventType = keyof typeof loanEventDefinitions
export type LoanEvent = { type: LoanEventType }
export const loanEventTypes = Object.keys(loanEventDefinitions) as LoanEventType[]

interface LoanNodeConfig {
  meta: LoanStateMeta
  description: string
  type?: 'final'
  initial?: string
  states?: Record<string, LoanNodeConfig>
  /** Targets: a sibling's name, or `#loanLifecycle.<state>.<plan>[.<standing>]` across the tree. */
  on?: Partial<Record<LoanEventType, string>>
}

/**
 * How an open loan is being repaid (issue 17): on its contract terms (one due date, which paid extensions move),
 * or on a payment schedule (instalments) agreed from a special offer. Both an active loan and a loan on hold
 * are in one of them; a hold keeps the plan, and its release returns to it.
 */
export const loanPlans = ['on_terms', 'scheduled'] as const
export type LoanPlan = (typeof loanPlans)[number]

/**
 * Whether an active loan is paid as agreed (issue 18): `overdue` when its due date has passed unpaid (on terms)
 * or an instalment's has (on a schedule), spec section 4, Overdue. The status stays 4 (active). The daily
 * servicing run marks it (OVERDUE) and clears it (CAUGHT_UP); a paid extension or an agreed schedule clears it too.
 * A loan on hold has no standing: the hold stops accrual and reminders, and the run marks it again after the release.
 */
export const loanStandings = ['current', 'overdue'] as const
export type LoanStanding = (typeof loanStandings)[number]

const onTermsLabel = 'On its contract terms'
const scheduledLabel = 'On a payment schedule'
const active = loanStatusCode.active

/** The standing children of an active plan (`current`, `overdue`), each with its own self-transitions. */
function standings(plan: LoanPlan) {
  const onTerms = plan === 'on_terms'
  const keepsCurrent = {
    PAYMENT_POSTED: 'current',
    PAYMENT_REVERSED: 'current',
  } as const
  return {
    current: {
      description: onTerms
        ? 'Before or on the due date. The daily run sends OVERDUE the day after it, unpaid.'
        : 'No instalment is past its due date unpaid. The daily run sends OVERDUE when one is.',
      meta: { status: active, label: 'Paid as agreed' },
      on: { ...keepsCurrent, OVERDUE: 'overdue' },
    },
    overdue: {
      description: onTerms
        ? 'The due date has passed unpaid: penalties accrue after the grace days (capped), reminders and collection follow. A paid extension (within its grace window) or an agreed schedule makes it current again; the back office may sell or write off the debt.'
        : 'An instalment is past its due date unpaid: penalties accrue on the overdue instalments after the grace days. Paying them makes it current (CAUGHT_UP by the posting or the daily run).',
      meta: { status: active, label: 'Overdue' },
      on: {
        PAYMENT_POSTED: 'overdue',
        PAYMENT_REVERSED: 'overdue',
        // On terms nothing but an extension (EXTENDED) or a schedule moves the due date past today, and a payment
        // that is not the whole debt leaves it past due: the daily run has no catching up to report (the
        // model-based API test found the transition unreachable, tests/api/model-loan.api.test.ts).
        ...(onTerms ? {} : { CAUGHT_UP: 'current' as const }),
        DEBT_SOLD: '#loanLifecycle.sold_debt',
        WRITTEN_OFF: '#loanLifecycle.write_off',
      },
    },
  } satisfies Record<LoanStanding, LoanNodeConfig>
}

/**
 * The states, in the order a loan usually meets them. The state union derives from the keys. A partial
 * payment and a reversal that changes nothing are self-transitions of the leaf they arrive in (never of
 * `active`, so they never reset the plan or the standing to the initial one). A paid extension is the `on_terms`
 * plan's own transition, to its `current` standing: it moves the due date past today, so an overdue loan that
 * is extended is current again.
 */
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
    meta: { status: active, label: 'Active' },
    initial: 'on_terms',
    states: {
      on_terms: {
        description:
          'One due date. A paid extension fee moves it by the extension term (EXTENDED); a signed special offer puts the loan on a schedule.',
        meta: { status: active, label: onTermsLabel },
        initial: 'current',
        states: standings('on_terms'),
        on: {
          EXTENDED: '#loanLifecycle.active.on_terms.current',
          SCHEDULE_AGREED: '#loanLifecycle.active.scheduled.current',
          HOLD: '#loanLifecycle.on_hold.on_terms',
        },
      },
      scheduled: {
        description:
          'What was owed is split into instalments: payments go to the oldest unpaid one first; no extension and no additional loan.',
        meta: { status: active, label: scheduledLabel },
        initial: 'current',
        states: standings('scheduled'),
        on: { HOLD: '#loanLifecycle.on_hold.scheduled' },
      },
    },
    on: { REPAID: 'paid' },
  },
  on_hold: {
    description:
      'The back office holds the loan (a dispute, suspected fraud): reminders and accrual stop; payments still post; no extension or schedule starts. A hold that ends in a loss is written off.',
    meta: { status: loanStatusCode.on_hold, label: 'On hold' },
    initial: 'on_terms',
    states: {
      on_terms: {
        description: 'Held while on its contract terms; the release returns to them.',
        meta: { status: loanStatusCode.on_hold, label: onTermsLabel },
        on: {
          PAYMENT_POSTED: 'on_terms',
          PAYMENT_REVERSED: 'on_terms',
          RELEASE: '#loanLifecycle.active.on_terms',
        },
      },
      scheduled: {
        description: 'Held while on a schedule; the release returns to it.',
        meta: { status: loanStatusCode.on_hold, label: scheduledLabel },
        on: {
          PAYMENT_POSTED: 'scheduled',
          PAYMENT_REVERSED: 'scheduled',
          RELEASE: '#loanLifecycle.active.scheduled',
        },
      },
    },
    on: { REPAID: 'paid', WRITTEN_OFF: 'write_off' },
  },
  paid: {
    description:
      'Nothing is owed. A further payment is an overpayment that becomes credit, refunded by a job; a reversal that makes the loan owe again reopens it, on the plan it was repaid on.',
    meta: { status: loanStatusCode.paid, label: 'Paid' },
    on: {
      PAYMENT_POSTED: 'paid',
      PAYMENT_REVERSED: 'paid',
      CREDIT_REFUNDED: 'paid',
      REOPENED: '#loanLifecycle.active.on_terms',
      REOPENED_ON_SCHEDULE: '#loanLifecycle.active.scheduled',
    },
  },
  sold_debt: {
    description:
      'The overdue debt was assigned to a collection agency (Civil Code Art. 1624-1635): the agency collects it now and the client is told whom to pay. A payment that still reaches Hiram is recorded and forwarded to the agency (Art. 1626), never lost.',
    meta: { status: loanStatusCode.sold_debt, label: 'Debt sold' },
    on: { PAYMENT_POSTED: 'sold_debt', PAYMENT_REVERSED: 'sold_debt' },
  },
  write_off: {
    description:
      'The outstanding left the books as a loss (ledger entries, with the reason). A later payment is posted as a recovery.',
    meta: { status: loanStatusCode.write_off, label: 'Written off' },
    on: { PAYMENT_POSTED: 'write_off', PAYMENT_REVERSED: 'write_off' },
  },
} as const satisfies Record<string, LoanNodeConfig>

/** A top-level state: what `loan.state` holds and the status code derives from. */
export type LoanState = keyof typeof states
export const loanStates = Object.keys(states) as LoanState[]

/** The states that hold a plan (their children are `loanPlans`). */
const planHolders = ['active', 'on_hold'] as const
type PlanHolder = (typeof planHolders)[number]
const holdsPlan = (state: LoanState): state is PlanHolder =>
  (planHolders as readonly string[]).includes(state)

/**
 * A leaf of the chart, as the server stores it: a top-level state; `on_hold.<plan>`; or
 * `active.<plan>.<standing>` ('active.scheduled.overdue'). `loan.state` keeps the top-level part, `loan.plan`
 * the plan and `loan.standing` the standing.
 */
export type LoanLeaf =
  | Exclude<LoanState, PlanHolder>
  | `on_hold.${LoanPlan}`
  | `active.${LoanPlan}.${LoanStanding}`
export const loanLeaves: LoanLeaf[] = loanStates.flatMap((state): LoanLeaf[] => {
  if (state === 'active')
    return loanPlans.flatMap((plan) => loanStandings.map((s) => `active.${plan}.${s}` as LoanLeaf))
  if (state === 'on_hold') return loanPlans.map((plan) => `on_hold.${plan}` as LoanLeaf)
  return [state as LoanLeaf]
})

export function leafOf(
  state: LoanState,
  plan: LoanPlan | null | undefined,
  standing: LoanStanding | null | undefined = 'current',
): LoanLeaf {
  if (state === 'active') return `active.${plan ?? 'on_terms'}.${standing ?? 'current'}`
  return holdsPlan(state) ? `${state}.${plan ?? 'on_terms'}` : (state as LoanLeaf)
}
export function topStateOf(leaf: LoanLeaf): LoanState {
  return leaf.split('.')[0] as LoanState
}
export function planOf(leaf: LoanLeaf): LoanPlan | null {
  return (leaf.split('.')[1] as LoanPlan | undefined) ?? null
}
/** The standing of an active loan's leaf; null for every other state. */
export function standingOf(leaf: LoanLeaf): LoanStanding | null {
  return (leaf.split('.')[2] as LoanStanding | undefined) ?? null
}
/** Whether the loan is active on its contract terms (either standing). */
export const isOnTerms = (leaf: LoanLeaf) => leaf.startsWith('active.on_terms')
/** Whether the loan is active and on a schedule (either standing). */
export const isScheduled = (leaf: LoanLeaf) => leaf.startsWith('active.scheduled')
/** Whether the loan is active and overdue (spec section 4, Overdue). */
export const isOverdueLeaf = (leaf: LoanLeaf) => standingOf(leaf) === 'overdue'

/**
 * The spec's statuses that no transition reaches yet (see the file comment). The type makes these exactly the
 * statuses that are not states: a status is either one or the other.
 */
export const unenteredLoanStates = {
  /** The decision engine could make no offer (a loan record that never became a contract). */
  cannot_make_offer: { status: loanStatusCode.cannot_make_offer, label: 'No offer could be made' },
  /** The contract ended early (e.g. by the lender after a breach). */
  terminated: { status: loanStatusCode.terminated, label: 'Terminated' },
} as const satisfies Record<Exclude<LoanStatusName, LoanState>, LoanStateMeta>

export type UnenteredLoanState = keyof typeof unenteredLoanStates

export function isEnteredLoanState(state: LoanStatusName): state is LoanState {
  return state in states
}

/** The metadata of any status the spec names, a state of the machine or not. */
export function loanStateMeta(state: LoanStatusName): LoanStateMeta {
  return isEnteredLoanState(state) ? states[state].meta : unenteredLoanStates[state as UnenteredLoanState]
}

/** The status code a loan in this state (or leaf) answers (spec section 4). */
export function loanStatusOf(state: LoanState | LoanLeaf): LoanStatusCode {
  return states[topStateOf(state as LoanLeaf)].meta.status
}

/** The state of the machine whose status is this code; undefined for a code no state of this model has. */
export function loanStateOfStatus(code: number): LoanState | undefined {
  return loanStates.find((state) => states[state].meta.status === code)
}

/** A loan that owes money: payments post to it, reminders and collection concern it. */
export function isOpenLoanState(state: LoanState): boolean {
  return state === 'active' || state === 'on_hold'
}

/** A loan that left the lender's hands unpaid: sold to an agency or written off (payments still post to it). */
export function isDefaultedLoanState(state: LoanState): boolean {
  return state === 'sold_debt' || state === 'write_off'
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
 * Version 2 (issue 17): the open states hold a plan; a version 1 `active` or `on_hold` was on its terms.
 * Version 3 (issue 18): an active plan holds a standing; a version 2 `active.<plan>` was current (the daily run
 * marks it overdue again if it is).
 */
export const LOAN_MODEL_VERSION = 3 as const

/** What the database keeps: the model's version and the leaf (context is empty). */
export type PersistedLoan = { version: typeof LOAN_MODEL_VERSION; value: LoanLeaf }

export const initialLoan: PersistedLoan = { version: LOAN_MODEL_VERSION, value: 'draft' }

const isLeaf = (value: unknown): value is LoanLeaf =>
  typeof value === 'string' && (loanLeaves as readonly string[]).includes(value)

/**
 * A stored snapshot of any version this code knows, brought to the current one; null for anything else (a
 * hand-edited or future snapshot, or one naming a status this version has no state for, must not be guessed at).
 * Version 1 named top-level states only, and had no schedules: its open states were on their terms. Version 2
 * had no standing: its active loans were current.
 */
export function migratePersistedLoan(stored: unknown): PersistedLoan | null {
  if (typeof stored !== 'object' || stored === null) return null
  const { version, value } = stored as { version?: unknown; value?: unknown }
  if (version === LOAN_MODEL_VERSION) return isLeaf(value) ? { version, value } : null
  if (typeof value !== 'string') return null
  const [state, plan, ...rest] = value.split('.')
  if (rest.length || !['draft', 'cancelled', 'active', 'on_hold', 'paid'].includes(state!)) return null
  if (version === 1 && plan === undefined)
    return { version: LOAN_MODEL_VERSION, value: leafOf(state as LoanState, null) }
  if (version !== 2) return null
  if ((plan === undefined) !== !holdsPlan(state as LoanState)) return null
  if (plan !== undefined && !(loanPlans as readonly string[]).includes(plan)) return null
  return { version: LOAN_MODEL_VERSION, value: leafOf(state as LoanState, plan as LoanPlan | undefined) }
}

/** XState's value of a leaf: 'paid', { on_hold: 'scheduled' } or { active: { on_terms: 'overdue' } }. */
export function stateValueOf(leaf: LoanLeaf) {
  const [state, plan, standing] = leaf.split('.') as [string, string | undefined, string | undefined]
  if (!plan) return leaf
  return { [state]: standing ? { [plan]: standing } : plan }
}

/** The leaf of an XState value of this machine. */
export function leafOfValue(value: unknown): LoanLeaf {
  if (typeof value === 'string') return value as LoanLeaf
  const [[state, inner]] = Object.entries(value as Record<string, unknown>) as [[LoanState, unknown]]
  if (typeof inner === 'string') return leafOf(state, inner as LoanPlan)
  const [[plan, standing]] = Object.entries(inner as Record<string, string>) as [[LoanPlan, LoanStanding]]
  return leafOf(state, plan, standing)
}

export function restoreLoan(persisted: PersistedLoan): LoanLifecycleSnapshot {
  return loanLifecycleMachine.resolveState({ value: stateValueOf(persisted.value), context: {} })
}

/**
 * The loan after an event, or null when the event does not fit the loan's state. Pure: the caller holds the row
 * lock and writes the result in the same transaction.
 */
export function advanceLoan(persisted: PersistedLoan, event: LoanEvent): PersistedLoan | null {
  const snapshot = restoreLoan(persisted)
  if (!snapshot.can(event)) return null
  const [next] = transition(loanLifecycleMachine, snapshot, event)
  return { version: LOAN_MODEL_VERSION, value: leafOfValue(next.value) }
}

/** The events a leaf accepts (its own transitions and its state's), e.g. for a 409 matrix. */
export function loanEventsAcceptedAt(leaf: LoanLeaf | LoanState): LoanEventType[] {
  const top = states[topStateOf(leaf as LoanLeaf)] as LoanNodeConfig
  const plan = planOf(leaf as LoanLeaf) ?? (top.initial as LoanPlan | undefined)
  const child = plan ? top.states?.[plan] : undefined
  const standing = standingOf(leaf as LoanLeaf) ?? (child?.initial as LoanStanding | undefined)
  const grandchild = standing ? child?.states?.[standing] : undefined
  return [
    ...new Set([grandchild, child, top].flatMap((node) => Object.keys(node?.on ?? {}))),
  ] as LoanEventType[]
}
