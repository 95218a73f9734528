/**
 * The client journey statechart: model-based paths replayed on the real machine, with coverage, then the
 * spec's step table through the machine, then focused cases.
 *
 * As in the calculator test, `toModelMachine` (tests/support/model-coverage.ts) rebuilds the machine from the
 * same config and `setup()` implementations with the `fetchFlow` answers and the FLOW_POLL_INTERVAL expiry
 * turned into plain events named as XState names them internally, so a model transition is the real
 * machine's transition.
 *
 * 1. Plan: shortest paths to every abstract state (state value, session case, last flow, whether a fetch
 *    failed) from the unknown session over six sessions (visitor, client without a first name, client, admin, QA cookie as visitor and
 *    as client), fetch answers for two flows, a failed fetch, the poll tick, FLOW.REFRESH and FLOW.RECEIVED.
 * 2. Replay each path on the REAL machine with `fetchFlow` replaced by promises the test settles and the poll
 *    interval on fake timers: a done/error event settles the newest request (after answering every superseded
 *    one with a poisoned flow the machine must ignore), the tick advances the clock by 10 000 ms and checks
 *    that no request left a millisecond early. After every step the real snapshot must equal the model's and
 *    satisfy the spec's invariants.
 * 3. Transitions lying on no shortest path get a replayed prefix extended by one event.
 * 4. Coverage of the real machine's state nodes and transitions is recorded and must be complete.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type AnyMachineSnapshot, createActor, fromPromise, type InspectionEvent, transition } from 'xstate'
import { createTestModel, type TestPath } from 'xstate/graph'
import {
  type ApplicationFacts,
  type ClientFacts,
  type Flow,
  type FlowStep,
  flowSteps,
  isSandbox,
  type JourneyFacts,
  routeForFlow,
} from '../../domain/flow-routes'
import {
  FLOW_POLL_INTERVAL_MS,
  type JourneyContext,
  type JourneyEvent,
  type JourneySnapshot,
  journeyDecision,
  journeyMachine,
  journeyTarget,
} from '../../machines/journey.machine'
import { type Deferred, deferred, flush } from '../support/deferred'
import {
  createCoverageRecorder,
  formatCoverage,
  listModelEvents,
  listTransitions,
  toModelMachine,
} from '../support/model-coverage'

// ---------------------------------------------------------------------------------------------------------
// Facts

const clientFacts = (over: Partial<ClientFacts> = {}): ClientFacts => ({
  firstName: 'Maria',
  status: 1,
  soldDebt: false,
  closedLoansCount: 0,
  ...over,
})
const applicationFacts = (over: Partial<ApplicationFacts> = {}): ApplicationFacts => ({
  id: 'app-7',
  disbursementType: 'bank_transfer',
  cashPickupNumber: null,
  ...over,
})
const journeyFacts = (over: Partial<JourneyFacts> = {}): JourneyFacts => ({
  admin: false,
  qaDisableFlow: false,
  client: null,
  application: null,
  ...over,
})

type SessionChanged = Extract<JourneyEvent, { type: 'SESSION.CHANGED' }>

const sessions = {
  visitor: { loggedIn: false, facts: journeyFacts() },
  unnamedClient: { loggedIn: true, facts: journeyFacts({ client: clientFacts({ firstName: null }) }) },
  client: { loggedIn: true, facts: journeyFacts({ client: clientFacts(), application: applicationFacts() }) },
  admin: { loggedIn: true, facts: journeyFacts({ admin: true }) },
  qaVisitor: { loggedIn: false, facts: journeyFacts({ qaDisableFlow: true }) },
  qaClient: { loggedIn: true, facts: journeyFacts({ qaDisableFlow: true, client: clientFacts() }) },
} satisfies Record<string, Omit<SessionChanged, 'type'>>
type SessionCase = keyof typeof sessions
const sessionChanged = (name: SessionCase): SessionChanged => ({ type: 'SESSION.CHANGED', ...sessions[name] })

const active = (step: FlowStep): Flow => ({ step, status: 'active' })

// ---------------------------------------------------------------------------------------------------------
// The real journey under control: promises the test settles, fake timers for the poll interval.

let requests: Deferred<Flow>[] = []
const liveMachine = journeyMachine.provide({
  actors: {
    fetchFlow: fromPromise<Flow, void>(() => {
      const d = deferred<Flow>()
      requests.push(d)
      return d.promise
    }),
  },
})

const started: { stop: () => void }[] = []
const POISON: Flow = { step: 'facebook', status: 'active' }

function startLive(inspect?: (event: InspectionEvent) => void) {
  const own: Deferred<Flow>[] = []
  requests = own
  const actor = createActor(liveMachine, { inspect })
  started.push(actor)
  actor.start()
  return {
    actor,
    fetches: own,
    snapshot: () => actor.getSnapshot(),
    context: () => actor.getSnapshot().context,
    send: (event: JourneyEvent) => actor.send(event),
    /** Answers every superseded request with a poisoned flow, then the newest with `flow`. */
    async answer(flow: Flow) {
      for (const stale of own.slice(0, -1)) stale.resolve(POISON)
      own.at(-1)?.resolve(flow)
      await flush()
    },
    async fail() {
      own.at(-1)?.reject(new Error('HTTP 502'))
      await flush()
    },
    /** Lets the poll interval run out, and checks that it did not run out a millisecond early. */
    elapse() {
      const before = own.length
      vi.advanceTimersByTime(FLOW_POLL_INTERVAL_MS - 1)
      expect(own.length).toBe(before)
      vi.advanceTimersByTime(1)
    },
  }
}
type Live = ReturnType<typeof startLive>

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  for (const actor of started.splice(0)) actor.stop()
  vi.useRealTimers()
})

// ---------------------------------------------------------------------------------------------------------
// The model

const modelMachine = toModelMachine(journeyMachine)

function modelEventType(kind: 'after' | 'actor.done' | 'actor.error'): string {
  const found = listModelEvents(journeyMachine).filter((e) => e.kind === kind)
  if (found.length !== 1 || !found[0]) throw new Error(`expected exactly one ${kind} event`)
  return found[0].type
}
const FLOW_FETCHED = modelEventType('actor.done')
const FETCH_FAILED = modelEventType('actor.error')
const POLL_ELAPSED = modelEventType('after')
if (listModelEvents(journeyMachine).length !== 3) {
  throw new Error('the journey should have one invoke (done + error) and one delay')
}

type ModelEvent = { type: string; [key: string]: unknown }

const modelEvents: ModelEvent[] = [
  ...(Object.keys(sessions) as SessionCase[]).map(sessionChanged),
  { type: FLOW_FETCHED, output: active('work_info') },
  { type: FLOW_FETCHED, output: { step: 'otp_agreement', status: 'completed' } },
  { type: FETCH_FAILED, error: 'HTTP 502' },
  { type: POLL_ELAPSED },
  { type: 'FLOW.REFRESH' },
  { type: 'FLOW.RECEIVED', flow: active('address') },
]

function sessionCaseOf(context: JourneyContext): string {
  const found = (Object.keys(sessions) as SessionCase[]).find(
    (name) =>
      sessions[name].loggedIn === context.loggedIn &&
      JSON.stringify(sessions[name].facts) === JSON.stringify(context.facts),
  )
  return found ?? 'initial'
}

/** What a state is, for the search: the state value, the session case, the last flow, a failure pending. */
function serializeState(state: AnyMachineSnapshot): string {
  const context = state.context as JourneyContext
  return JSON.stringify({
    value: state.value,
    session: sessionCaseOf(context),
    flow: context.flow,
    failed: context.failedFetches > 0,
  })
}

const testModel = createTestModel(modelMachine, { events: modelEvents, serializeState, limit: 100_000 })
type ModelPath = TestPath<AnyMachineSnapshot, ModelEvent>

const modelTransitionKey = new Map(listTransitions(modelMachine).map((t) => [t.definition, t.key]))
function transitionsTaken(state: AnyMachineSnapshot, event: ModelEvent): string[] {
  return modelMachine.getTransitionData(state, event).flatMap((t) => modelTransitionKey.get(t) ?? [])
}

// ---------------------------------------------------------------------------------------------------------
// Invariants, stated from the spec rather than from the machine.

const initialContext = createActor(journeyMachine).getSnapshot().context

function assertInvariants(snapshot: JourneySnapshot, live: Live) {
  const c = snapshot.context
  const sandbox = isSandbox(c.facts)
  if (snapshot.matches('unknown')) expect(c).toEqual(initialContext)
  if (snapshot.matches('idle')) {
    expect(c.loggedIn).toBe(false)
    expect(sandbox).toBe(false)
  }
  if (snapshot.matches('sandbox')) expect(sandbox).toBe(true)
  if (snapshot.matches('polling')) {
    expect(c.loggedIn).toBe(true)
    expect(sandbox).toBe(false)
  } else {
    // Only a logged-in client outside the sandbox has a flow; nothing else can redirect by step.
    expect(c.flow).toBeNull()
    expect(c.failedFetches).toBe(0)
  }
  expect(c.target).toBe(c.flow ? routeForFlow(c.flow, c.facts) : null)
  if (c.flow) expect(c.flow).not.toEqual(POISON)
  // One request is open exactly while fetching: every older one has been answered or dropped.
  const pending = live.snapshot().children.fetchFlow !== undefined
  expect(pending).toBe(snapshot.matches({ polling: 'fetching' }))
}

type Recorder = ReturnType<typeof createCoverageRecorder>

async function replay(path: ModelPath, recorders: { model: Recorder; live: Recorder }) {
  const model = createActor(modelMachine, { inspect: recorders.model.inspect }).start()
  const live = startLive(recorders.live.inspect)
  const reached: AnyMachineSnapshot[] = []
  const send = ({ event }: { event: ModelEvent }) => {
    model.send(event)
    live.send(event as JourneyEvent)
  }
  const expectNewFetch = (run: () => void) => {
    const before = live.fetches.length
    run()
    const fetching = live.snapshot().matches({ polling: 'fetching' })
    expect(live.fetches.length).toBe(before + (fetching ? 1 : 0))
  }
  try {
    await testModel.testPath(path, {
      events: {
        [FLOW_FETCHED]: async ({ event }: { event: ModelEvent }) => {
          model.send(event)
          await live.answer(event.output as Flow)
        },
        [FETCH_FAILED]: async ({ event }: { event: ModelEvent }) => {
          model.send(event)
          await live.fail()
        },
        [POLL_ELAPSED]: ({ event }: { event: ModelEvent }) => {
          model.send(event)
          const before = live.fetches.length
          live.elapse()
          expect(live.fetches.length).toBe(before + 1)
        },
        'FLOW.REFRESH': ({ event }: { event: ModelEvent }) => expectNewFetch(() => send({ event })),
        'FLOW.RECEIVED': send,
        'SESSION.CHANGED': ({ event }: { event: ModelEvent }) => {
          const wasPolling = live.snapshot().matches('polling')
          const before = live.fetches.length
          send({ event })
          const startsPolling = !wasPolling && live.snapshot().matches('polling')
          expect(live.fetches.length).toBe(before + (startsPolling ? 1 : 0))
        },
      },
      states: {
        '*': () => {
          const expected = model.getSnapshot()
          const actual = live.snapshot()
          expect(actual.value).toEqual(expected.value)
          expect(actual.context).toEqual(expected.context)
          assertInvariants(actual, live)
          reached.push(expected)
        },
      },
    })
    return reached
  } finally {
    model.stop()
    live.actor.stop()
    vi.clearAllTimers()
  }
}

describe('journey model-based paths, replayed on the real machine', () => {
  it('covers every state node and transition', async () => {
    const recorders = {
      model: createCoverageRecorder(modelMachine),
      live: createCoverageRecorder(liveMachine),
    }
    let paths = 0
    let extended = 0
    let steps = 0
    const visited: { path: ModelPath; at: number; state: AnyMachineSnapshot }[] = []
    for (const path of testModel.getShortestPaths()) {
      paths++
      steps += path.steps.length
      const states = await replay(path, recorders)
      states.forEach((state, at) => {
        visited.push({ path, at, state })
      })
    }
    for (const key of recorders.model.report().transitions.missing) {
      const found = visited
        .flatMap((v) => modelEvents.map((event) => ({ ...v, event })))
        .find(({ state, event }) => transitionsTaken(state, event).includes(key))
      if (!found) continue
      extended++
      paths++
      const prefix = found.path.steps.slice(0, found.at + 1)
      const [next] = transition(modelMachine, found.state, found.event)
      steps += prefix.length + 1
      await replay(
        { ...found.path, steps: [...prefix, { event: found.event, state: next }], state: next },
        recorders,
      )
    }

    const live = recorders.live.report()
    const model = recorders.model.report()
    console.info(
      `${formatCoverage('journey', live)} (${paths} paths, ${extended} of them extended, ${steps} steps, ${new Set(visited.map((v) => serializeState(v.state))).size} abstract states)`,
    )
    console.info(formatCoverage('journey model', model))
    expect(live.states.missing).toEqual([])
    expect(live.transitions.missing).toEqual([])
    expect(model.states.missing).toEqual([])
    expect(model.transitions.missing).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------------------
// Spec section 2, "Flow routing by step", through the machine: log in, let the server answer, read the route.

async function loggedInWith(flow: Flow, facts: JourneyFacts) {
  const live = startLive()
  live.send({ type: 'SESSION.CHANGED', loggedIn: true, facts })
  expect(live.fetches).toHaveLength(1)
  await live.answer(flow)
  expect(live.snapshot().value).toEqual({ polling: 'waiting' })
  return live
}

describe('every row of the step table, through the machine', () => {
  const named = journeyFacts({ client: clientFacts(), application: applicationFacts() })
  const rows: [string, Flow, JourneyFacts, string][] = [
    ['kontomatik', active('kontomatik'), named, '/registration/bank-data'],
    ['facebook', active('facebook'), named, 'https://www.facebook.com/?application_id=app-7'],
    ['disbursement_type', active('disbursement_type'), named, '/registration/payment'],
    ['document_upload', active('document_upload'), named, '/registration/documents'],
    ['otp_agreement', active('otp_agreement'), named, '/registration/summary'],
    ['manual_page', active('manual_page'), named, '/application/manual-verification'],
    ['reject_page', active('reject_page'), named, '/application/rejected'],
    ['tmc_page', active('tmc_page'), named, '/application/accepted'],
    [
      'tmc_page, cash pickup with a number',
      active('tmc_page'),
      journeyFacts({
        client: clientFacts(),
        application: applicationFacts({ disbursementType: 'cash_pickup', cashPickupNumber: 'CEB-991' }),
      }),
      '/application/cash-pickup',
    ],
    [
      'tmc_page, cash pickup without a number',
      active('tmc_page'),
      journeyFacts({
        client: clientFacts(),
        application: applicationFacts({ disbursementType: 'cash_pickup' }),
      }),
      '/application/accepted',
    ],
    ['loan_page', active('loan_page'), named, '/profile/my-loan'],
    [
      'no_loan_page, closed loans',
      active('no_loan_page'),
      journeyFacts({ client: clientFacts({ closedLoansCount: 2 }) }),
      '/profile/no-loan',
    ],
    ['no_loan_page, never a loan', active('no_loan_page'), named, '/application/apply'],
    [
      'new_client_created, no first name',
      active('new_client_created'),
      journeyFacts({ client: clientFacts({ firstName: null }) }),
      '/registration/details',
    ],
    ['new_client_created, first name', active('new_client_created'), named, '/application/apply'],
    ['pre_approval_page', active('pre_approval_page'), named, '/application/apply'],
    ['work_info', active('work_info'), named, '/registration/employment'],
    ['relative_info', active('relative_info'), named, '/registration/reference'],
    ['address', active('address'), named, '/registration/address'],
    ['veriff', active('veriff'), named, '/registration/document-verification'],
    ['offer_increase', active('offer_increase'), named, '/application/offer-increase'],
    ['offer_decrease', active('offer_decrease'), named, '/application/offer-decrease'],
    ['application_processing', active('application_processing'), named, '/application/loading'],
    ['payout_processing', active('payout_processing'), named, '/application/loading'],
    ...flowSteps.map((step): [string, Flow, JourneyFacts, string] => [
      `${step}, completed`,
      { step, status: 'completed' },
      named,
      '/application/loading',
    ]),
  ]

  it('lists every step, active and completed', () => {
    const covered = new Set(rows.map(([, flow]) => `${flow.step}/${flow.status}`))
    for (const step of flowSteps) {
      expect(covered.has(`${step}/active`), step).toBe(true)
      expect(covered.has(`${step}/completed`), step).toBe(true)
    }
  })

  it.each(rows)('%s -> %s', async (_, flow, facts, expected) => {
    const live = await loggedInWith(flow, facts)
    expect(live.context().target).toBe(expected)
    // A page the client is not on redirects there; the first name is known, so no guard gets in the way.
    const from = expected === '/profile/my-loan' ? '/application/apply' : '/profile/my-loan'
    const redirect = journeyTarget(live.snapshot(), from)
    expect(redirect).toEqual(expected.startsWith('https://') ? { href: expected } : { to: expected })
    // And the page the flow names is left alone.
    if (!expected.startsWith('https://')) expect(journeyTarget(live.snapshot(), expected)).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------------------

describe('polling (spec sections 4 and 9)', () => {
  it('asks on login, then every 10 seconds after each answer', async () => {
    const live = startLive()
    expect(live.snapshot().value).toBe('unknown')
    live.send(sessionChanged('visitor'))
    expect(live.snapshot().value).toBe('idle')
    vi.advanceTimersByTime(FLOW_POLL_INTERVAL_MS * 3)
    expect(live.fetches).toHaveLength(0)

    live.send(sessionChanged('client'))
    expect(live.fetches).toHaveLength(1)
    await live.answer(active('veriff'))
    for (let tick = 2; tick <= 4; tick++) {
      live.elapse()
      expect(live.fetches).toHaveLength(tick)
      await live.answer(active('veriff'))
    }
  })

  it('a failed fetch keeps the last known flow and retries on the next tick', async () => {
    const live = await loggedInWith(active('document_upload'), sessions.client.facts)
    live.elapse()
    await live.fail()
    expect(live.snapshot().value).toEqual({ polling: 'waiting' })
    expect(live.context()).toMatchObject({ flow: active('document_upload'), failedFetches: 1 })
    expect(journeyTarget(live.snapshot(), '/registration/address')).toEqual({ to: '/registration/documents' })
    live.elapse()
    await live.fail()
    expect(live.context().failedFetches).toBe(2)
    live.elapse()
    await live.answer(active('veriff'))
    expect(live.context()).toMatchObject({ flow: active('veriff'), failedFetches: 0 })
  })

  it('FLOW.REFRESH after a completing call asks now, and ignores the answer already on its way', async () => {
    const live = await loggedInWith(active('work_info'), sessions.client.facts)
    live.send({ type: 'FLOW.REFRESH' })
    expect(live.fetches).toHaveLength(2)
    live.send({ type: 'FLOW.REFRESH' })
    expect(live.fetches).toHaveLength(3)
    live.fetches[1]?.resolve(active('work_info'))
    await flush()
    expect(live.snapshot().value).toEqual({ polling: 'fetching' })
    expect(live.context().flow).toEqual(active('work_info'))
    live.fetches[2]?.resolve(active('relative_info'))
    await flush()
    expect(live.context().target).toBe('/registration/reference')
  })

  it('FLOW.RECEIVED stores the flow and restarts the interval', async () => {
    const live = await loggedInWith(active('work_info'), sessions.client.facts)
    vi.advanceTimersByTime(FLOW_POLL_INTERVAL_MS - 1000)
    live.send({ type: 'FLOW.RECEIVED', flow: active('address') })
    expect(live.context().target).toBe('/registration/address')
    vi.advanceTimersByTime(FLOW_POLL_INTERVAL_MS - 1)
    expect(live.fetches).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(live.fetches).toHaveLength(2)
  })

  it('logging out stops polling and forgets the flow', async () => {
    const live = await loggedInWith(active('loan_page'), sessions.client.facts)
    live.send(sessionChanged('visitor'))
    expect(live.snapshot().value).toBe('idle')
    expect(live.context()).toMatchObject({ flow: null, target: null, loggedIn: false })
    vi.advanceTimersByTime(FLOW_POLL_INTERVAL_MS * 5)
    expect(live.fetches).toHaveLength(1)
  })

  it('a profile update while logged in re-derives the route without asking again', async () => {
    const live = await loggedInWith(active('new_client_created'), sessions.unnamedClient.facts)
    expect(live.context().target).toBe('/registration/details')
    live.send(sessionChanged('client'))
    expect(live.context().target).toBe('/application/apply')
    expect(live.fetches).toHaveLength(1)
  })
})

describe('sandbox (spec section 4)', () => {
  it('an admin never polls and no journey page redirects', () => {
    const live = startLive()
    live.send(sessionChanged('admin'))
    expect(live.snapshot().value).toBe('sandbox')
    vi.advanceTimersByTime(FLOW_POLL_INTERVAL_MS * 3)
    expect(live.fetches).toHaveLength(0)
    expect(journeyDecision(live.snapshot(), '/registration/address')).toEqual({
      redirect: null,
      effects: [{ type: 'startSandbox' }],
    })
    expect(journeyTarget(live.snapshot(), '/application/apply')).toBeNull()
  })

  it('the QA cookie set while polling replaces the flow; clearing it resumes polling', async () => {
    const live = await loggedInWith(active('veriff'), sessions.client.facts)
    live.send(sessionChanged('qaClient'))
    expect(live.snapshot().value).toBe('sandbox')
    expect(live.context().flow).toBeNull()
    expect(journeyTarget(live.snapshot(), '/registration/details')).toBeNull()
    live.send(sessionChanged('client'))
    expect(live.snapshot().value).toEqual({ polling: 'fetching' })
    expect(live.fetches).toHaveLength(2)
  })

  it('the QA cookie works for a visitor too', () => {
    const live = startLive()
    live.send(sessionChanged('qaVisitor'))
    expect(live.snapshot().value).toBe('sandbox')
    expect(journeyTarget(live.snapshot(), '/registration/employment')).toBeNull()
  })
})

describe('journeyTarget and journeyDecision', () => {
  it('before the session is known nothing redirects', () => {
    const live = startLive()
    for (const path of ['/registration/employment', '/application/apply', '/profile/my-loan']) {
      expect(journeyDecision(live.snapshot(), path, { analyticsQuery: 'a=1', singleLink: true })).toEqual({
        redirect: null,
        effects: [],
      })
    }
  })

  it('a visitor on a registration step goes to /registration, and /registration itself stays', () => {
    const live = startLive()
    live.send(sessionChanged('visitor'))
    expect(journeyTarget(live.snapshot(), '/registration/employment')).toEqual({ to: '/registration' })
    expect(journeyTarget(live.snapshot(), '/registration')).toBeNull()
    expect(journeyTarget(live.snapshot(), '/faq')).toBeNull()
  })

  it('a visitor on my loan with the single-link cookie goes to login', () => {
    const live = startLive()
    live.send(sessionChanged('visitor'))
    expect(
      journeyTarget(live.snapshot(), '/profile/my-loan', { analyticsQuery: null, singleLink: true }),
    ).toEqual({
      to: '/login',
    })
    expect(journeyDecision(live.snapshot(), '/profile/my-loan')).toEqual({
      redirect: { to: '/registration' },
      effects: [{ type: 'setProgress30' }],
    })
  })

  it('work info passes the stored analytics query to employment and asks to remove the cookie', async () => {
    const live = await loggedInWith(active('work_info'), sessions.client.facts)
    expect(
      journeyDecision(live.snapshot(), '/registration/details?x=1', {
        analyticsQuery: 'utm_source=sms',
        singleLink: false,
      }),
    ).toEqual({
      redirect: { to: '/registration/employment', search: 'utm_source=sms' },
      effects: [{ type: 'removeCookie', name: 'analytics-query' }],
    })
  })

  it('the facebook step carries the query of the location being loaded', async () => {
    const live = await loggedInWith(active('facebook'), sessions.client.facts)
    expect(
      journeyTarget(live.snapshot(), { pathname: '/application/apply', search: '?utm_source=fb' }),
    ).toEqual({
      href: 'https://www.facebook.com/?utm_source=fb&application_id=app-7',
    })
    expect(journeyTarget(live.snapshot(), '/application/apply?utm_source=fb#top')).toEqual({
      href: 'https://www.facebook.com/?utm_source=fb&application_id=app-7',
    })
  })

  it('a blocked client is logged out from the application pages', async () => {
    const facts = journeyFacts({ client: clientFacts({ status: 2 }) })
    const live = await loggedInWith(active('tmc_page'), facts)
    expect(journeyDecision(live.snapshot(), '/application/accepted')).toEqual({
      redirect: { to: '/login' },
      effects: [{ type: 'logout' }],
    })
  })

  it('logged in before the first answer: the guards still apply, the step table waits', () => {
    const live = startLive()
    live.send(sessionChanged('unnamedClient'))
    expect(live.snapshot().value).toEqual({ polling: 'fetching' })
    expect(journeyTarget(live.snapshot(), '/registration/address')).toEqual({ to: '/registration/details' })
    live.send(sessionChanged('client'))
    expect(journeyTarget(live.snapshot(), '/registration/address')).toBeNull()
  })
})
