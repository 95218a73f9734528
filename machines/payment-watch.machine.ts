/**
 * Watching the client's loan for payments while My loan or the repayment page is open (issue 16 item 7: "after a
 * payment posts, the page updates by itself and shows a toast"). A payment made at a counter, by bank transfer or
 * through a gateway's checkout posts on the server when the gateway's webhook arrives, seconds to hours later;
 * the page learns of it by asking.
 *
 * - watching: asks now (`fetching`, the `fetchLoanFacts` actor: the active loan and the newest payments), then
 *   every POLL (`pausing`); REFRESH asks at once (the page came back into view). The first answer is the
 *   baseline. Every later answer is compared with the one before (`changesOf`): posted payments not seen before
 *   and a change of the loan's figures run `reportChanges` (the app shows "Payment of ₱X received" and puts the
 *   new figures on screen). A failed ask keeps what it had and tries again on the next tick, quietly.
 * - closed: the loan is no longer active (repaid: the answer has no loan). Nothing is asked any more; the
 *   journey's own flow poll (machines/flow-sync.machine.ts) moves a client on My loan to the no-loan page: this
 *   machine never decides a page.
 *
 * No fetch, no timer and no React here: the app provides `fetchLoanFacts` and `reportChanges`
 * (`paymentWatchMachine.provide`), and the delay is named so the model-based test turns it into an event.
 */
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate'

/** Between two asks: a payment should show within seconds of posting, without a request storm. */
export const PAYMENT_POLL_INTERVAL_MS = 5_000

/** The part of a payment the watch reads. */
export interface WatchedPayment {
  id: number
  amount: number
  status: string
}

/** What one ask answers: the active loan's figures (null when there is none) and the newest payments. */
export interface LoanFacts {
  loan: { id: number | null; amountDue: number; credit: number } | null
  /** Newest first. */
  payments: WatchedPayment[]
}

/** What changed between two answers. */
export interface LoanChanges {
  /** Posted payments the previous answer did not have, oldest first. */
  received: WatchedPayment[]
  /** The loan's figures (amount due, credit, or the loan itself) changed. */
  figuresChanged: boolean
}

export interface PaymentWatchInput {
  /** Tests shorten it; the app uses the default. */
  pollInterval?: number
}

export interface PaymentWatchContext {
  pollInterval: number
  /** The last answer (null before the first). */
  facts: LoanFacts | null
  /** The last ask's failure (the API's error code, or 'error'); cleared by the next answer. */
  errorCode: string | null
}

export type PaymentWatchEvent = { type: 'REFRESH' }

const noChanges: LoanChanges = { received: [], figuresChanged: false }

/** The changes from `before` to `after`; none for the first answer (it is the baseline). */
export function changesOf(before: LoanFacts | null, after: LoanFacts): LoanChanges {
  if (!before) return noChanges
  const known = new Map(before.payments.map((p) => [p.id, p.status]))
  // A payment older than the oldest one on the previous page is not news: it only fell off that page.
  const oldest = before.payments.reduce((min, p) => Math.min(min, p.id), Number.POSITIVE_INFINITY)
  const isNews = (p: WatchedPayment) =>
    known.has(p.id) ? known.get(p.id) !== 'posted' : before.payments.length === 0 || p.id > oldest
  // A payment counts once it is posted: new, or an unmatched one the back office assigned to the loan.
  const received = after.payments.filter((p) => p.status === 'posted' && isNews(p)).reverse()
  const a = before.loan
  const b = after.loan
  const figuresChanged =
    (a === null) !== (b === null) ||
    (a !== null && b !== null && (a.id !== b.id || a.amountDue !== b.amountDue || a.credit !== b.credit))
  return { received, figuresChanged: figuresChanged || received.length > 0 }
}

/** The error code an actor's failure carries (an ApiError has `code`). */
export function watchErrorCodeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code ? code : 'error'
}

export const paymentWatchMachine = setup({
  types: {
    input: {} as PaymentWatchInput | undefined,
    context: {} as PaymentWatchContext,
    events: {} as PaymentWatchEvent,
  },
  actors: {
    // Provided by the app: GET /private/client/loan/active and GET /private/client/payments.
    fetchLoanFacts: fromPromise<LoanFacts>(async () => {
      throw new Error('payment watch: provide the fetchLoanFacts actor')
    }),
  },
  delays: {
    POLL: ({ context }) => context.pollInterval,
  },
  guards: {
    hasNoLoan: (_, params: { answer: LoanFacts }) => params.answer.loan === null,
  },
  actions: {
    // Provided by the app: the toast for each payment received, the new figures on screen.
    reportChanges: (_, _params: LoanChanges) => {},
    storeFacts: assign((_, params: { answer: LoanFacts }) => ({ facts: params.answer, errorCode: null })),
    storeError: assign((_, params: { error: unknown }) => ({ errorCode: watchErrorCodeOf(params.error) })),
  },
}).createMachine({
  id: 'paymentWatch',
  context: ({ input }) => ({
    pollInterval: input?.pollInterval ?? PAYMENT_POLL_INTERVAL_MS,
    facts: null,
    errorCode: null,
  }),
  initial: 'watching',
  states: {
    watching: {
      description: 'Asking for the loan and its payments now and every POLL.',
      initial: 'fetching',
      states: {
        fetching: {
          description: 'The loan and payments calls are on their way.',
          invoke: {
            id: 'fetchLoanFacts',
            src: 'fetchLoanFacts',
            onDone: [
              {
                guard: { type: 'hasNoLoan', params: ({ event }) => ({ answer: event.output }) },
                target: '#paymentWatch.closed',
                actions: [
                  {
                    type: 'reportChanges',
                    params: ({ context, event }) => changesOf(context.facts, event.output),
                  },
                  { type: 'storeFacts', params: ({ event }) => ({ answer: event.output }) },
                ],
              },
              {
                target: 'pausing',
                actions: [
                  {
                    type: 'reportChanges',
                    params: ({ context, event }) => changesOf(context.facts, event.output),
                  },
                  { type: 'storeFacts', params: ({ event }) => ({ answer: event.output }) },
                ],
              },
            ],
            onError: {
              target: 'pausing',
              actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        pausing: {
          description: 'Until the next ask; REFRESH asks at once.',
          after: { POLL: 'fetching' },
          on: { REFRESH: 'fetching' },
        },
      },
    },
    closed: {
      description: 'No active loan any more (repaid): nothing is asked; the journey moves the client on.',
      type: 'final',
    },
  },
})

export type PaymentWatchSnapshot = SnapshotFrom<typeof paymentWatchMachine>
