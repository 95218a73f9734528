/**
 * Flow sync: the browser's copy of the client's flow (spec section 2 "Flow routing by step", "Registration
 * guard", "Flow guard"; section 4 "Flow polling", "Sandbox"; section 9: poll every 10 seconds). Not the journey
 * itself: that is the server's statechart (domain/journey/client-journey.machine.ts), whose step metadata the
 * routing reads. This machine keeps what the browser knows of it and polls for changes.
 *
 * - unknown: the app has not said yet who is there (the auth session is still restoring its token). Nothing
 *   redirects: a reload of a registration step must not bounce to /registration before the session is known;
 *   the router follows the machine and re-runs the guards as soon as it is.
 * - idle: logged out. No flow, no polling, no redirect from the flow table.
 * - sandbox: an admin or the `qa-disable-flow` cookie. The sandbox replaces the normal flow: nothing is polled
 *   and no journey page redirects.
 * - polling: logged in. `fetching` asks the server for `{ step, status }` (`fetchFlow` actor); a flow whose
 *   routing reads the actual application (the cash-pickup choice, the facebook step) is routed only once
 *   `loadingApplication` has it (`fetchApplication` actor), so the client never flashes through the wrong page.
 *   `waiting` waits FLOW_POLL_INTERVAL (10 s) and asks again. A failed fetch keeps the last known flow and
 *   counts the failure; the next tick tries again. FLOW.REFRESH (sent by the app after a completing call) asks
 *   now, dropping a request already on its way since it may predate the call. FLOW.RECEIVED stores a flow the
 *   app learnt elsewhere and restarts the interval. Leaving polling forgets the flow.
 * - polling.unrecognised: the server answered a step or status the journey model does not know. That is not a
 *   failed fetch: the client cannot route it, so the flow is dropped, the answer's names are kept in
 *   `unrecognised` (the route guards show the error page for it) and reported (`reportUnrecognisedFlow`, which
 *   the app provides); polling goes on, and the next recognised answer clears it.
 *
 * The machine decides; the router obeys: `journeyDecision(snapshot, location, cookies)` is what a route's
 * `beforeLoad` throws as a redirect. The rules live in domain/journey/routing.ts. Fetching and timing live only
 * in the `fetchFlow` and `fetchApplication` actors and the named delay, which the app provides.
 */
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate'
import type { ApplicationFacts } from '../domain/journey/destinations'
import {
  decideJourney,
  type Flow,
  type FlowAnswer,
  flowReadsApplication,
  type GuardFacts,
  isSandbox,
  type JourneyDecision,
  type JourneyRedirect,
  noSessionFacts,
  routeForFlow,
  routingFactsOf,
  type SessionFacts,
  type UnrecognisedFlow,
} from '../domain/journey/routing'

export const FLOW_POLL_INTERVAL_MS = 10_000

export interface FlowSyncContext {
  loggedIn: boolean
  facts: SessionFacts
  /** The last flow the server answered; kept through failed fetches, forgotten when polling stops. */
  flow: Flow | null
  /** The actual application as last loaded for a flow whose routing reads it; null otherwise. */
  application: ApplicationFacts | null
  /** A recognised answer waiting for its application before it is routed. */
  pendingFlow: Flow | null
  /** The last answer named a step or status the model does not know (cleared by the next recognised one). */
  unrecognised: UnrecognisedFlow | null
  /** `routeForFlow(flow, facts)`: the page the flow table names now (without the current query). */
  target: string | null
  /** Failed fetches since the last answer. */
  failedFetches: number
}

export type FlowSyncEvent =
  | { type: 'SESSION.CHANGED'; loggedIn: boolean; facts: SessionFacts }
  | { type: 'FLOW.REFRESH' }
  | { type: 'FLOW.RECEIVED'; flow: Flow }

/** What the machine knows of the flow before polling, and again once polling stops. */
const noFlow = {
  flow: null,
  application: null,
  pendingFlow: null,
  unrecognised: null,
  target: null,
  failedFetches: 0,
} satisfies Omit<FlowSyncContext, 'loggedIn' | 'facts'>

const received = (flow: Flow): FlowAnswer => ({ type: 'flow', flow })

function derive(context: FlowSyncContext): FlowSyncContext {
  const { flow, facts, application } = context
  return {
    ...context,
    target: flow && !isSandbox(facts) ? routeForFlow(flow, routingFactsOf(facts, application)) : null,
  }
}

export const flowSyncSetup = setup({
  types: {
    context: {} as FlowSyncContext,
    events: {} as FlowSyncEvent,
  },
  actors: {
    // The app provides them: machines never fetch (docs/product.md, The shape of the product).
    /** GET /flow, read against the model (`readFlow`): a flow, or the names of an unrecognised answer. */
    fetchFlow: fromPromise<FlowAnswer, void>(async () => {
      throw new Error('flowSync: provide the fetchFlow actor')
    }),
    /** GET /application/actual as routing facts; null when the client has no application. */
    fetchApplication: fromPromise<ApplicationFacts | null, void>(async () => {
      throw new Error('flowSync: provide the fetchApplication actor')
    }),
  },
  delays: {
    FLOW_POLL_INTERVAL: FLOW_POLL_INTERVAL_MS,
  },
  guards: {
    entersSandbox: ({ event }) => event.type === 'SESSION.CHANGED' && isSandbox(event.facts),
    isLoggedIn: ({ event }) => event.type === 'SESSION.CHANGED' && event.loggedIn,
    isUnrecognised: (_, params: { answer: FlowAnswer }) => params.answer.type === 'unrecognised',
    readsApplication: (_, params: { answer: FlowAnswer }) =>
      params.answer.type === 'flow' && flowReadsApplication(params.answer.flow),
  },
  actions: {
    storeSession: assign(({ context, event }) =>
      event.type === 'SESSION.CHANGED'
        ? derive({ ...context, loggedIn: event.loggedIn, facts: event.facts })
        : context,
    ),
    storeFlow: assign(({ context }, params: { answer: FlowAnswer }) =>
      params.answer.type === 'flow'
        ? derive({
            ...context,
            flow: params.answer.flow,
            // Only a flow that reads the application keeps one (loaded for it by storeApplication).
            application: null,
            pendingFlow: null,
            unrecognised: null,
            failedFetches: 0,
          })
        : context,
    ),
    holdFlow: assign({
      pendingFlow: (_, params: { answer: FlowAnswer }) =>
        params.answer.type === 'flow' ? params.answer.flow : null,
    }),
    storeApplication: assign(({ context }, params: { application: ApplicationFacts | null }) =>
      derive({
        ...context,
        flow: context.pendingFlow ?? context.flow,
        application: params.application,
        pendingFlow: null,
        unrecognised: null,
        failedFetches: 0,
      }),
    ),
    storeUnrecognised: assign((_, params: { answer: FlowAnswer }) => ({
      unrecognised: params.answer.type === 'unrecognised' ? params.answer.answer : null,
      flow: null,
      application: null,
      pendingFlow: null,
      target: null,
      failedFetches: 0,
    })),
    /** The app provides the report (a structured console error); only the names of the answer, nothing else. */
    reportUnrecognisedFlow: () => {},
    dropPendingFlow: assign({ pendingFlow: null }),
    countFailure: assign({
      failedFetches: ({ context }) => context.failedFetches + 1,
      pendingFlow: null,
    }),
    forgetFlow: assign(noFlow),
  },
})

export const flowSyncMachine = flowSyncSetup.createMachine({
  id: 'flowSync',
  context: {
    loggedIn: false,
    facts: noSessionFacts,
    ...noFlow,
  },
  initial: 'unknown',
  states: {
    unknown: {
      description: 'Waiting for the first SESSION.CHANGED: no journey redirects yet.',
      on: {
        'SESSION.CHANGED': [
          { guard: 'entersSandbox', target: 'sandbox', actions: 'storeSession' },
          { guard: 'isLoggedIn', target: 'polling', actions: 'storeSession' },
          { target: 'idle', actions: 'storeSession' },
        ],
      },
    },
    idle: {
      description: 'Logged out: no flow, no journey redirects.',
      on: {
        'SESSION.CHANGED': [
          { guard: 'entersSandbox', target: 'sandbox', actions: 'storeSession' },
          { guard: 'isLoggedIn', target: 'polling', actions: 'storeSession' },
          { actions: 'storeSession' },
        ],
      },
    },
    sandbox: {
      description: 'Admin or qa-disable-flow cookie: the sandbox replaces the normal flow.',
      on: {
        'SESSION.CHANGED': [
          { guard: 'entersSandbox', actions: 'storeSession' },
          { guard: 'isLoggedIn', target: 'polling', actions: 'storeSession' },
          { target: 'idle', actions: 'storeSession' },
        ],
      },
    },
    polling: {
      description: 'Logged in: the flow is asked for now and every FLOW_POLL_INTERVAL.',
      initial: 'fetching',
      exit: 'forgetFlow',
      on: {
        'SESSION.CHANGED': [
          { guard: 'entersSandbox', target: 'sandbox', actions: 'storeSession' },
          { guard: 'isLoggedIn', actions: 'storeSession' },
          { target: 'idle', actions: 'storeSession' },
        ],
        'FLOW.RECEIVED': [
          {
            guard: { type: 'readsApplication', params: ({ event }) => ({ answer: received(event.flow) }) },
            target: '.loadingApplication',
            actions: { type: 'holdFlow', params: ({ event }) => ({ answer: received(event.flow) }) },
          },
          {
            target: '.waiting',
            actions: { type: 'storeFlow', params: ({ event }) => ({ answer: received(event.flow) }) },
          },
        ],
      },
      states: {
        fetching: {
          description: 'Asking the server for { step, status }; a failure keeps the last known flow.',
          invoke: {
            id: 'fetchFlow',
            src: 'fetchFlow',
            onDone: [
              {
                guard: { type: 'isUnrecognised', params: ({ event }) => ({ answer: event.output }) },
                target: 'unrecognised',
                actions: { type: 'storeUnrecognised', params: ({ event }) => ({ answer: event.output }) },
              },
              {
                guard: { type: 'readsApplication', params: ({ event }) => ({ answer: event.output }) },
                target: 'loadingApplication',
                actions: { type: 'holdFlow', params: ({ event }) => ({ answer: event.output }) },
              },
              {
                target: 'waiting',
                actions: { type: 'storeFlow', params: ({ event }) => ({ answer: event.output }) },
              },
            ],
            onError: { target: 'waiting', actions: 'countFailure' },
          },
          on: { 'FLOW.REFRESH': { target: 'fetching', reenter: true } },
        },
        loadingApplication: {
          description:
            'The answered flow routes by the actual application (cash pickup, the facebook step): load it, then route. A failure keeps the last known flow.',
          invoke: {
            id: 'fetchApplication',
            src: 'fetchApplication',
            onDone: {
              target: 'waiting',
              actions: { type: 'storeApplication', params: ({ event }) => ({ application: event.output }) },
            },
            onError: { target: 'waiting', actions: 'countFailure' },
          },
          on: { 'FLOW.REFRESH': { target: 'fetching', actions: 'dropPendingFlow' } },
        },
        waiting: {
          description: 'The last known flow decides the routes; the next tick asks again.',
          after: { FLOW_POLL_INTERVAL: 'fetching' },
          on: { 'FLOW.REFRESH': 'fetching' },
        },
        unrecognised: {
          description:
            'The server named a step or status the journey model does not know: reported, no flow to route (the journey pages show the error page); the next tick asks again.',
          entry: 'reportUnrecognisedFlow',
          after: { FLOW_POLL_INTERVAL: 'fetching' },
          on: { 'FLOW.REFRESH': 'fetching' },
        },
      },
    },
  },
})

export type FlowSyncSnapshot = SnapshotFrom<typeof flowSyncMachine>

/** Cookies a guard reads at navigation time (the machine does not hold them: they change outside it). */
export interface JourneyCookies {
  /** The stored analytics query, or null. */
  analyticsQuery: string | null
  singleLink: boolean
}

export const noJourneyCookies: JourneyCookies = { analyticsQuery: null, singleLink: false }

export interface JourneyLocation {
  pathname: string
  search?: string
}

function locationOf(current: string | JourneyLocation): { pathname: string; search: string } {
  if (typeof current !== 'string') return { pathname: current.pathname, search: current.search ?? '' }
  const cut = current.search(/[?#]/)
  if (cut < 0) return { pathname: current, search: '' }
  const search = current.slice(cut).split('#')[0] ?? ''
  return { pathname: current.slice(0, cut), search }
}

export function guardFactsOf(snapshot: FlowSyncSnapshot, cookies: JourneyCookies): GuardFacts {
  const { context } = snapshot
  return {
    sandbox: snapshot.matches('sandbox'),
    loggedIn: context.loggedIn,
    client: context.facts.client,
    flow: context.flow,
    storedQuery: cookies.analyticsQuery,
    singleLinkCookie: cookies.singleLink,
  }
}

/** The redirect and side effects a journey page's `beforeLoad` must apply for `current` (a path or location). */
export function journeyDecision(
  snapshot: FlowSyncSnapshot,
  current: string | JourneyLocation,
  cookies: JourneyCookies = noJourneyCookies,
): JourneyDecision {
  if (snapshot.matches('unknown')) return { redirect: null, effects: [] }
  const { pathname, search } = locationOf(current)
  return decideJourney({
    pathname,
    search,
    guard: guardFactsOf(snapshot, cookies),
    routing: routingFactsOf(snapshot.context.facts, snapshot.context.application),
  })
}

/** The redirect a registration, application or my-loan page's `beforeLoad` should throw, or null. */
export function journeyTarget(
  snapshot: FlowSyncSnapshot,
  current: string | JourneyLocation,
  cookies: JourneyCookies = noJourneyCookies,
): JourneyRedirect | null {
  return journeyDecision(snapshot, current, cookies).redirect
}

/** The server's last answer named a step or status the model does not know: the names, or null. */
export function unrecognisedFlowOf(snapshot: FlowSyncSnapshot): UnrecognisedFlow | null {
  return snapshot.context.unrecognised
}

export function isPollingFlow(snapshot: FlowSyncSnapshot): boolean {
  return snapshot.matches('polling')
}
