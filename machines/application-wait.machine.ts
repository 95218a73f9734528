/**
 * The wait on /application/loading (issue 14 item 3): the decision engine works asynchronously, so the page asks
 * for the application's status until the journey moves the client on, and stops asking after a while.
 *
 * - waiting: asks now (`fetching`, the `fetchStatus` actor), then every STATUS_POLL (`pausing`). An answer with a
 *   status other than the last one runs `statusChanged` (the app asks the journey to refetch the flow: the
 *   journey machine, not this one, knows the next page, and the route guards take the client there). A failed
 *   ask keeps the last status, records the error and tries again on the next tick. After WAIT_TIMEOUT in waiting
 *   (the whole wait, not one ask) it gives up: timedOut.
 * - timedOut: nothing is asked any more; the page says so. KEEP_WAITING starts a new wait of the same length,
 *   asking at once.
 *
 * No fetch, no timer and no React here: the app provides `fetchStatus` and `statusChanged`
 * (`applicationWaitMachine.provide`), and the delays are named so the model-based test turns them into events.
 */
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate'

/** Between two asks: the decision usually takes a few seconds. */
export const STATUS_POLL_INTERVAL_MS = 2_500
/** How long one wait lasts before the page says it is taking longer than usual. */
export const WAIT_TIMEOUT_MS = 60_000

/** What the status call answers: the newest application's status code, or null when there is none. */
export interface ApplicationStatusFacts {
  status: number
  id?: number | null
}

export interface ApplicationWaitInput {
  /** Tests shorten them; the app uses the defaults. */
  pollInterval?: number
  timeout?: number
}

export interface ApplicationWaitContext {
  pollInterval: number
  timeout: number
  /** The last status answered (null before the first answer, or when the client has no application). */
  status: number | null
  /** Whether any answer arrived yet: the first answer counts as a change. */
  answered: boolean
  /** The last ask's failure (the API's error code, or 'error'); cleared by the next answer. */
  errorCode: string | null
}

export type ApplicationWaitEvent = { type: 'KEEP_WAITING' }

/** The error code an actor's failure carries (an ApiError has `code`). */
export function waitErrorCodeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code
    if (typeof code === 'string' && code) return code
  }
  return 'error'
}

const statusOf = (answer: ApplicationStatusFacts | null | undefined) => answer?.status ?? null

export const applicationWaitMachine = setup({
  types: {
    input: {} as ApplicationWaitInput | undefined,
    context: {} as ApplicationWaitContext,
    events: {} as ApplicationWaitEvent,
  },
  actors: {
    // Provided by the app: GET /private/client/application/actual/status.
    fetchStatus: fromPromise<ApplicationStatusFacts | null>(async () => {
      throw new Error('application wait: provide the fetchStatus actor')
    }),
  },
  delays: {
    STATUS_POLL: ({ context }) => context.pollInterval,
    WAIT_TIMEOUT: ({ context }) => context.timeout,
  },
  guards: {
    isNewStatus: ({ context }, params: { answer: ApplicationStatusFacts | null }) =>
      !context.answered || statusOf(params.answer) !== context.status,
  },
  actions: {
    // Provided by the app: ask the journey to refetch the flow now.
    statusChanged: () => {},
    storeStatus: assign((_, params: { answer: ApplicationStatusFacts | null }) => ({
      status: statusOf(params.answer),
      answered: true,
      errorCode: null,
    })),
    storeError: assign((_, params: { error: unknown }) => ({ errorCode: waitErrorCodeOf(params.error) })),
  },
}).createMachine({
  id: 'applicationWait',
  context: ({ input }) => ({
    pollInterval: input?.pollInterval ?? STATUS_POLL_INTERVAL_MS,
    timeout: input?.timeout ?? WAIT_TIMEOUT_MS,
    status: null,
    answered: false,
    errorCode: null,
  }),
  initial: 'waiting',
  states: {
    waiting: {
      description: 'Asking for the status now and every STATUS_POLL, for at most WAIT_TIMEOUT.',
      initial: 'fetching',
      after: { WAIT_TIMEOUT: 'timedOut' },
      states: {
        fetching: {
          description: 'The status call is on its way.',
          invoke: {
            id: 'fetchStatus',
            src: 'fetchStatus',
            onDone: [
              {
                guard: { type: 'isNewStatus', params: ({ event }) => ({ answer: event.output }) },
                target: 'pausing',
                actions: [
                  { type: 'storeStatus', params: ({ event }) => ({ answer: event.output }) },
                  'statusChanged',
                ],
              },
              {
                target: 'pausing',
                actions: { type: 'storeStatus', params: ({ event }) => ({ answer: event.output }) },
              },
            ],
            onError: {
              target: 'pausing',
              actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        pausing: {
          description: 'Until the next ask.',
          after: { STATUS_POLL: 'fetching' },
        },
      },
    },
    timedOut: {
      description: 'Taking longer than usual: nothing is asked; KEEP_WAITING starts a new wait.',
      on: { KEEP_WAITING: 'waiting' },
    },
  },
})

export type ApplicationWaitSnapshot = SnapshotFrom<typeof applicationWaitMachine>
