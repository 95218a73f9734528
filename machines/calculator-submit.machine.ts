/**
 * Submit from the calculator carried out (spec section 4 "Submit from the calculator"; issue 14 item 3). The
 * calculator machine decides (`calculator.submit` carries a SubmitDecision); this machine takes the decision to
 * its page, and the route guards read where that is. It lives at app level (src/app/application-services.ts),
 * so that the guard of the page the calculator is on can read it.
 *
 * - idle: nothing submitted. SUBMIT with the calculator's decision: creating when the additional loan is
 *   available, otherwise straight to the page the decision names.
 * - creating: the `createApplication` actor makes the application from the decision's figures. Done: the app
 *   is told (`applicationCreated`: the journey refetches its flow, which now says application_processing) and
 *   the client goes to the loading page. A failure goes to failed.
 * - failed: the calculator says the application could not be made; SUBMIT tries again, DISMISS (the calculator
 *   left the screen) forgets it.
 * - leaving: one child per page, each carrying its route as metadata (`meta.route`): the page the client must be
 *   on. `submitRedirect` reads it; the guard of the calculator's page throws it as a redirect and sends ROUTED,
 *   which returns here to idle, so Back to the calculator does not bounce.
 *
 * No fetch and no router here: the app provides `createApplication` and `applicationCreated`.
 */
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate'
import type { SubmitTarget } from '../domain/calculator-rules'
import type { SubmitDecision } from './calculator.machine'

/** The pages a submit leads to (spec section 2 paths). */
export type SubmitRoute = '/application/loading' | '/application/apply' | '/login' | '/registration'

/** A state's metadata: the page the client must be on while the machine is in it. */
export interface SubmitStateMeta {
  route?: SubmitRoute
}

/** What the application is made of: the calculator's settled figures. */
export type ApplicationFigures = Pick<SubmitDecision, 'amount' | 'term' | 'optionalFee' | 'promoCode'>

export interface CalculatorSubmitContext {
  /** The decision being carried out, or the last one (kept for the failed state's retry text). */
  decision: SubmitDecision | null
  /** Why the application could not be made (the API's error code, or 'error'). */
  errorCode: string | null
}

export type CalculatorSubmitEvent =
  | { type: 'SUBMIT'; decision: SubmitDecision }
  /** The route guard sent the client to the page of the leaving state. */
  | { type: 'ROUTED' }
  /** The calculator left the screen: a failure it showed is not shown again elsewhere. */
  | { type: 'DISMISS' }

export function submitErrorCodeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code
    if (typeof code === 'string' && code) return code
  }
  return 'error'
}

const figuresOf = ({ amount, term, optionalFee, promoCode }: SubmitDecision): ApplicationFigures => ({
  amount,
  term,
  optionalFee,
  promoCode,
})

const targetIs =
  (target: SubmitTarget) =>
  ({ event }: { event: CalculatorSubmitEvent }) =>
    event.type === 'SUBMIT' && event.decision.target === target

export const calculatorSubmitSetup = setup({
  types: {
    context: {} as CalculatorSubmitContext,
    events: {} as CalculatorSubmitEvent,
    meta: {} as SubmitStateMeta,
  },
  actors: {
    // Provided by the app: POST /private/client/application with the campaign parameters.
    createApplication: fromPromise<unknown, ApplicationFigures>(async () => {
      throw new Error('calculator submit: provide the createApplication actor')
    }),
  },
  guards: {
    createsApplication: targetIs('create-application-then-loading'),
    toApply: targetIs('apply'),
    toLogin: targetIs('login'),
  },
  actions: {
    // Provided by the app: the journey refetches its flow (the server moved it to application_processing).
    applicationCreated: () => {},
    storeDecision: assign(({ event }) => ({
      decision: event.type === 'SUBMIT' ? event.decision : null,
      errorCode: null,
    })),
    storeError: assign((_, params: { error: unknown }) => ({ errorCode: submitErrorCodeOf(params.error) })),
    forget: assign({ decision: null, errorCode: null }),
  },
})

const onSubmit = [
  { guard: 'createsApplication', target: '#calculatorSubmit.creating', actions: 'storeDecision' },
  { guard: 'toApply', target: '#calculatorSubmit.leaving.toApply', actions: 'storeDecision' },
  { guard: 'toLogin', target: '#calculatorSubmit.leaving.toLogin', actions: 'storeDecision' },
  { target: '#calculatorSubmit.leaving.toRegistration', actions: 'storeDecision' },
] as const

export const calculatorSubmitMachine = calculatorSubmitSetup.createMachine({
  id: 'calculatorSubmit',
  context: { decision: null, errorCode: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'Nothing submitted: the calculator is on screen.',
      on: { SUBMIT: onSubmit },
    },
    creating: {
      description: 'The additional loan is available: the application is made from the decision.',
      invoke: {
        id: 'createApplication',
        src: 'createApplication',
        input: ({ context }) => figuresOf(context.decision as SubmitDecision),
        onDone: { target: 'leaving.toLoading', actions: 'applicationCreated' },
        onError: {
          target: 'failed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    failed: {
      description:
        'The application could not be made: the calculator says so; SUBMIT tries again, DISMISS forgets it.',
      on: { SUBMIT: onSubmit, DISMISS: { target: 'idle', actions: 'forget' } },
    },
    leaving: {
      description: 'The client must be on the page of the child state; the guard sends them and says ROUTED.',
      on: { ROUTED: { target: 'idle', actions: 'forget' } },
      // XState wants one; every transition here names its page, the default of spec section 4 included.
      initial: 'toRegistration',
      states: {
        toLoading: {
          description: 'Application made: to /application/loading.',
          meta: { route: '/application/loading' },
        },
        toApply: {
          description: 'A logged-in client: to /application/apply.',
          meta: { route: '/application/apply' },
        },
        toLogin: { description: 'A visitor with a tab selected: to /login.', meta: { route: '/login' } },
        toRegistration: { description: 'Anyone else: to /registration.', meta: { route: '/registration' } },
      },
    },
  },
})

export type CalculatorSubmitSnapshot = SnapshotFrom<typeof calculatorSubmitMachine>

/** The page the client must be on now, or null: the route of the active state's metadata. */
export function submitRoute(snapshot: CalculatorSubmitSnapshot): SubmitRoute | null {
  for (const meta of Object.values(snapshot.getMeta() as Record<string, SubmitStateMeta | undefined>)) {
    if (meta?.route) return meta.route
  }
  return null
}

/**
 * Where the guard of the calculator's page sends a client at `pathname`: the submit's page, unless they are
 * on it already. Pure, for `beforeLoad` and for the app-level follower (src/app/machine-routing.ts) alike.
 */
export function submitRedirect(snapshot: CalculatorSubmitSnapshot, pathname: string): SubmitRoute | null {
  const route = submitRoute(snapshot)
  return route && route !== pathname ? route : null
}

/** The calculator's button is busy: the application is being made, or the client is on their way. */
export function isSubmitting(snapshot: CalculatorSubmitSnapshot): boolean {
  return snapshot.matches('creating') || snapshot.matches('leaving')
}
