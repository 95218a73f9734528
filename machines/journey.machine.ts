/**
 * The client journey on the client (spec section 2 "Flow routing by step", "Registration guard", "Flow guard";
 * section 4 "Flow polling", "Sandbox"; section 9: poll every 10 seconds).
 *
 * - unknown: the app has not said yet who is there (the auth session is still restoring its token). Nothing
 *   redirects: a reload of a registration step must not bounce to /registration before the session is known;
 *   `followJourney` re-runs the guards as soon as it is.
 * - idle: logged out. No flow, no polling, no redirect from the flow table.
 * - sandbox: an admin or the `qa-disable-flow` cookie. The sandbox replaces the normal flow: nothing is polled
 *   and no journey page redirects.
 * - polling: logged in. `fetching` asks the server for `{ step, status }` (`fetchFlow` actor), `waiting` waits
 *   FLOW_POLL_INTERVAL (10 s) and asks again. A failed fetch keeps the last known flow and counts the failure;
 *   the next tick tries again. FLOW.REFRESH (sent by the app after a completing call) asks now, dropping a
 *   request already on its way since it may predate the call. FLOW.RECEIVED stores a flow the app learnt
 *   elsewhere and restarts the interval. Leaving polling forgets the flow.
 *
 * The machine decides; the router obeys: `journeyDecision(snapshot, location, cookies)` is what a route's
 * `beforeLoad` throws as a redirect. Every rule lives in domain/flow-routes.ts. Fetching and timing live only
 * in the `fetchFlow` actor and the named delay, which the app provides (`journeyMachine.provide`).
 */
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate'
import {
  decideJourney,
  type Flow,
  type GuardFacts,
  isSandbox,
  type JourneyDecision,
  type JourneyFacts,
  type JourneyRedirect,
  noJourneyFacts,
  routeForFlow,
} from '../domain/flow-routes'

export const FLOW_POLL_INTERVAL_MS = 10_000

export interface JourneyContext {
  loggedIn: boolean
  facts: JourneyFacts
  /** The last flow the server answered; kept through failed fetches, forgotten when polling stops. */
  flow: Flow | null
  /** `routeForFlow(flow, facts)`: the page the flow table names now (without the current query). */
  target: string | null
  /** Failed fetches since the last answer. */
  failedFetches: number
}

export type JourneyEvent =
  | { type: 'SESSION.CHANGED'; loggedIn: boolean; facts: JourneyFacts }
  | { type: 'FLOW.REFRESH' }
  | { type: 'FLOW.RECEIVED'; flow: Flow }

function derive(context: JourneyContext): JourneyContext {
  return {
    ...context,
    target: context.flow && !isSandbox(context.facts) ? routeForFlow(context.flow, context.facts) : null,
  }
}

export const journeySetup = setup({
  types: {
    context: {} as JourneyContext,
    events: {} as JourneyEvent,
  },
  actors: {
    // The app provides it: machines never fetch (GUIDE section 1). It answers a checked flow (parseFlow).
    fetchFlow: fromPromise<Flow, void>(async () => {
      throw new Error('journey: provide the fetchFlow actor')
    }),
  },
  delays: {
    FLOW_POLL_INTERVAL: FLOW_POLL_INTERVAL_MS,
  },
  guards: {
    entersSandbox: ({ event }) => event.type === 'SESSION.CHANGED' && isSandbox(event.facts),
    isLoggedIn: ({ event }) => event.type === 'SESSION.CHANGED' && event.loggedIn,
  },
  actions: {
    storeSession: assign(({ context, event }) =>
      event.type === 'SESSION.CHANGED'
        ? derive({ ...context, loggedIn: event.loggedIn, facts: event.facts })
        : context,
    ),
    storeFlow: assign(({ context }, params: { flow: Flow }) =>
      derive({ ...context, flow: params.flow, failedFetches: 0 }),
    ),
    countFailure: assign({ failedFetches: ({ context }) => context.failedFetches + 1 }),
    forgetFlow: assign({ flow: null, target: null, failedFetches: 0 }),
  },
})

export const journeyMachine = journeySetup.createMachine({
  id: 'journey',
  context: {
    loggedIn: false,
    facts: noJourneyFacts,
    flow: null,
    target: null,
    failedFetches: 0,
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
        'FLOW.RECEIVED': {
          target: '.waiting',
          actions: { type: 'storeFlow', params: ({ event }) => ({ flow: event.flow }) },
        },
      },
      states: {
        fetching: {
          description: 'Asking the server for { step, status }; a failure keeps the last known flow.',
          invoke: {
            id: 'fetchFlow',
            src: 'fetchFlow',
            onDone: {
              target: 'waiting',
              actions: { type: 'storeFlow', params: ({ event }) => ({ flow: event.output }) },
            },
            onError: { target: 'waiting', actions: 'countFailure' },
          },
          on: { 'FLOW.REFRESH': { target: 'fetching', reenter: true } },
        },
        waiting: {
          description: 'The last known flow decides the routes; the next tick asks again.',
          after: { FLOW_POLL_INTERVAL: 'fetching' },
          on: { 'FLOW.REFRESH': 'fetching' },
        },
      },
    },
  },
})

export type JourneySnapshot = SnapshotFrom<typeof journeyMachine>

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

export function guardFactsOf(snapshot: JourneySnapshot, cookies: JourneyCookies): GuardFacts {
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
  snapshot: JourneySnapshot,
  current: string | JourneyLocation,
  cookies: JourneyCookies = noJourneyCookies,
): JourneyDecision {
  if (snapshot.matches('unknown')) return { redirect: null, effects: [] }
  const { pathname, search } = locationOf(current)
  return decideJourney({
    pathname,
    search,
    guard: guardFactsOf(snapshot, cookies),
    routing: snapshot.context.facts,
  })
}

/** The redirect a registration, application or my-loan page's `beforeLoad` should throw, or null. */
export function journeyTarget(
  snapshot: JourneySnapshot,
  current: string | JourneyLocation,
  cookies: JourneyCookies = noJourneyCookies,
): JourneyRedirect | null {
  return journeyDecision(snapshot, current, cookies).redirect
}

export function isPollingFlow(snapshot: JourneySnapshot): boolean {
  return snapshot.matches('polling')
}
