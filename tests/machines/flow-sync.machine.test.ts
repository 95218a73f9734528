/**
 * The browser's flow-sync statechart: model-based paths replayed on the real machine, with coverage, then the
 * spec's step table through the machine, then focused cases.
 *
 * As in the calculator test, `toModelMachine` (tests/support/model-coverage.ts) rebuilds the machine from the
 * same config and `setup()` implementations with the `fetchFlow` and `fetchApplication` answers and the
 * FLOW_POLL_INTERVAL expiries turned into plain events named as XState names them internally, so a model
 * transition is the real machine's transition.
 *
 * 1. Plan: shortest paths to every abstract state (state value, session case, last flow, the flow waiting for
 *    its application, the application, an unrecognised answer, whether a fetch failed) from the unknown
 *    session over six sessions (visitor, client without a first name, client, admin, QA cookie as visitor and
 *    as client), flow answers (an active step, a completed one, a step that routes by the application, a step
 *    the model does not know), an application answer, failed fetches, the poll ticks, FLOW.REFRESH and
 *    FLOW.RECEIVED.
 * 2. Replay each path on the REAL machine with the actors replaced by promises the test settles and the poll
 *    interval on fake timers: a done/error event settles the newest request of its actor (after answering every
 *    superseded one with a poisoned answer the machine must ignore), a tick advances the clock by 10 000 ms and
 *    checks that no request left a millisecond early. After every step the real snapshot must equal the
 *    model's and satisfy the spec's invariants.
 * 3. Transitions lying on no shortest path get a replayed prefix extended by one event.
 * 4. Coverage of the real machine's state nodes and transitions is recorded and must be complete.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type AnyMachineSnapshot, createActor, fromPromise, type InspectionEvent } from 'xstate'
import { createTestModel } from 'xstate/graph'
import { flowSteps } from '../../domain/journey/client-journey.machine'
import {
  type ApplicationFacts,
  type ClientFacts,
  type Flow,
  type FlowAnswer,
  type FlowStep,
  flowReadsApplication,
  isSandbox,
  routeForFlow,
  routingFactsOf,
  type SessionFacts,
} from '../../domain/journey/routing'
import {
  FLOW_POLL_INTERVAL_MS,
  type FlowSyncContext,
  type FlowSyncEvent,
  type FlowSyncSnapshot,
  flowSyncMachine,
  journeyDecision,
  journeyTarget,
  unrecognisedFlowOf,
} from '../../machines/flow-sync.machine'
import { type Deferred, deferred, flush } from '../support/deferred'
import { listModelEvents, toModelMachine } from '../support/model-coverage'
import { coverEveryTransition, type ModelPath, type Recorders, replayPath } from '../support/model-replay'

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
const cashPickup = applicationFacts({ disbursementType: 'cash_pickup', cashPickupNumber: 'CEB-991' })
const sessionFacts = (over: Partial<SessionFacts> = {}): SessionFacts => ({
  admin: false,
  qaDisableFlow: false,
  client: null,
  ...over,
})

type SessionChanged = Extract<FlowSyncEvent, { type: 'SESSION.CHANGED' }>

const sessions = {
  visitor: { loggedIn: false, facts: sessionFacts() },
  unnamedClient: { loggedIn: true, facts: sessionFacts({ client: clientFacts({ firstName: null }) }) },
  client: { loggedIn: true, facts: sessionFacts({ client: clientFacts() }) },
  admin: { loggedIn: true, facts: sessionFacts({ admin: true }) },
  qaVisitor: { loggedIn: false, facts: sessionFacts({ qaDisableFlow: true }) },
  qaClient: { loggedIn: true, facts: sessionFacts({ qaDisableFlow: true, client: clientFacts() }) },
} satisfies Record<string, Omit<SessionChanged, 'type'>>
type SessionCase = keyof typeof sessions
const sessionChanged = (name: SessionCase): SessionChanged => ({ type: 'SESSION.CHANGED', ...sessions[name] })

const active = (step: FlowStep): Flow => ({ step, status: 'active' })
const known = (flow: Flow): FlowAnswer => ({ type: 'flow', flow })
const unknownStep: FlowAnswer = { type: 'unrecognised', answer: { step: 'lottery', status: 'active' } }

// The flows the model answers with: a page, a completed step, a step routed by the application.
const workInfo = active('work_info')
const signed: Flow = { step: 'otp_agreement', status: 'completed' }
const pickup = active('tmc_page')
const received = active('address')

// ---------------------------------------------------------------------------------------------------------
// The real machine under control: promises the test settles, fake timers for the poll interval.

let flowRequests: Deferred<FlowAnswer>[] = []
let applicationRequests: Deferred<ApplicationFacts | null>[] = []
const reports: unknown[] = []
const liveMachine = flowSyncMachine.provide({
  actors: {
    fetchFlow: fromPromise<FlowAnswer, void>(() => {
      const d = deferred<FlowAnswer>()
      flowRequests.push(d)
      return d.promise
    }),
    fetchApplication: fromPromise<ApplicationFacts | null, void>(() => {
      const d = deferred<ApplicationFacts | null>()
      applicationRequests.push(d)
      return d.promise
    }),
  },
  actions: {
    reportUnrecognisedFlow: ({ context }) => {
      reports.push(context.unrecognised)
    },
  },
})

const started: { stop: () => void }[] = []
const POISON: FlowAnswer = known(active('facebook'))
const POISON_APPLICATION = applicationFacts({ id: 'poison' })

function startLive(inspect?: (event: InspectionEvent) => void) {
  const flows: Deferred<FlowAnswer>[] = []
  const applications: Deferred<ApplicationFacts | null>[] = []
  flowRequests = flows
  applicationRequests = applications
  reports.length = 0
  const actor = createActor(liveMachine, { inspect })
  started.push(actor)
  actor.start()
  return {
    actor,
    fetches: flows,
    applications,
    snapshot: () => actor.getSnapshot(),
    context: () => actor.getSnapshot().context,
    send: (event: FlowSyncEvent) => actor.send(event),
    /** Answers every superseded flow request with a poisoned answer, then the newest with `answer`. */
    async answer(answer: FlowAnswer | Flow) {
      for (const stale of flows.slice(0, -1)) stale.resolve(POISON)
      flows.at(-1)?.resolve('type' in answer ? answer : known(answer))
      await flush()
    },
    async fail() {
      flows.at(-1)?.reject(new Error('HTTP 502'))
      await flush()
    },
    /** The same for the application requests. */
    async answerApplication(application: ApplicationFacts | null) {
      for (const stale of applications.slice(0, -1)) stale.resolve(POISON_APPLICATION)
      applications.at(-1)?.resolve(application)
      await flush()
    },
    async failApplication() {
      applications.at(-1)?.reject(new Error('HTTP 502'))
      await flush()
    },
    /** Lets the poll interval run out, and checks that it did not run out a millisecond early. */
    elapse() {
      const before = flows.length
      vi.advanceTimersByTime(FLOW_POLL_INTERVAL_MS - 1)
      expect(flows.length).toBe(before)
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

const modelMachine = toModelMachine(flowSyncMachine)
const generated = listModelEvents(flowSyncMachine)

function modelEventType(kind: 'actor.done' | 'actor.error', invokeId: string): string {
  const found = generated.filter((e) => e.kind === kind && e.invokeId === invokeId)
  if (found.length !== 1 || !found[0]) throw new Error(`expected exactly one ${kind} event of ${invokeId}`)
  return found[0].type
}
const FLOW_FETCHED = modelEventType('actor.done', 'fetchFlow')
const FLOW_FAILED = modelEventType('actor.error', 'fetchFlow')
const APPLICATION_FETCHED = modelEventType('actor.done', 'fetchApplication')
const APPLICATION_FAILED = modelEventType('actor.error', 'fetchApplication')
/** The poll ticks: one per state that waits (after an answer, after an unrecognised answer). */
const POLL_ELAPSED = generated.filter((e) => e.kind === 'after').map((e) => e.type)
if (generated.length !== 4 + POLL_ELAPSED.length || POLL_ELAPSED.length !== 2) {
  throw new Error('flow sync should have two invokes (done + error) and two delayed ticks')
}

type ModelEvent = { type: string; [key: string]: unknown }

const modelEvents: ModelEvent[] = [
  ...(Object.keys(sessions) as SessionCase[]).map(sessionChanged),
  { type: FLOW_FETCHED, output: known(workInfo) },
  { type: FLOW_FETCHED, output: known(signed) },
  { type: FLOW_FETCHED, output: known(pickup) },
  { type: FLOW_FETCHED, output: unknownStep },
  { type: FLOW_FAILED, error: 'HTTP 502' },
  { type: APPLICATION_FETCHED, output: cashPickup },
  { type: APPLICATION_FAILED, error: 'HTTP 502' },
  ...POLL_ELAPSED.map((type) => ({ type })),
  { type: 'FLOW.REFRESH' },
  { type: 'FLOW.RECEIVED', flow: received },
  { type: 'FLOW.RECEIVED', flow: pickup },
]

function sessionCaseOf(context: FlowSyncContext): string {
  const found = (Object.keys(sessions) as SessionCase[]).find(
    (name) =>
      sessions[name].loggedIn === context.loggedIn &&
      JSON.stringify(sessions[name].facts) === JSON.stringify(context.facts),
  )
  return found ?? 'initial'
}

/** What a state is, for the search: the state value, the session case, the flows, the application, failures. */
function serializeState(state: AnyMachineSnapshot): string {
  const context = state.context as FlowSyncContext
  return JSON.stringify({
    value: state.value,
    session: sessionCaseOf(context),
    flow: context.flow,
    pending: context.pendingFlow,
    application: context.application?.id ?? null,
    unrecognised: context.unrecognised !== null,
    failed: context.failedFetches > 0,
  })
}

const testModel = createTestModel(modelMachine, { events: modelEvents, serializeState, limit: 100_000 })

// ---------------------------------------------------------------------------------------------------------
// Invariants, stated from the spec rather than from the machine.

const initialContext = createActor(flowSyncMachine).getSnapshot().context

function assertInvariants(snapshot: FlowSyncSnapshot, live: Live) {
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
    expect(c.application).toBeNull()
    expect(c.unrecognised).toBeNull()
    expect(c.failedFetches).toBe(0)
  }
  expect(c.target).toBe(c.flow ? routeForFlow(c.flow, routingFactsOf(c.facts, c.application)) : null)
  if (c.flow) expect(known(c.flow)).not.toEqual(POISON)
  expect(c.application).not.toEqual(POISON_APPLICATION)
  // An application is only kept for a flow whose routing reads it.
  if (c.application) expect(c.flow && flowReadsApplication(c.flow)).toBe(true)
  // An unrecognised answer leaves no flow to route.
  if (c.unrecognised) expect(c.flow).toBeNull()
  if (snapshot.matches({ polling: 'unrecognised' })) expect(c.unrecognised).not.toBeNull()
  // A flow waits for its application only while the application is being loaded.
  expect(c.pendingFlow !== null).toBe(snapshot.matches({ polling: 'loadingApplication' }))
  // One request is open exactly while its state is active: every older one has been answered or dropped.
  expect(live.snapshot().children.fetchFlow !== undefined).toBe(snapshot.matches({ polling: 'fetching' }))
  expect(live.snapshot().children.fetchApplication !== undefined).toBe(
    snapshot.matches({ polling: 'loadingApplication' }),
  )
}

async function replay(path: ModelPath<ModelEvent>, recorders: Recorders) {
  const model = createActor(modelMachine, { inspect: recorders.model.inspect }).start()
  const live = startLive(recorders.live.inspect)
  const send = ({ event }: { event: ModelEvent }) => {
    model.send(event)
    live.send(event as FlowSyncEvent)
  }
  const expectNewFetch = (run: () => void) => {
    const before = live.fetches.length
    run()
    const fetching = live.snapshot().matches({ polling: 'fetching' })
    expect(live.fetches.length).toBe(before + (fetching ? 1 : 0))
  }
  const tick = ({ event }: { event: ModelEvent }) => {
    model.send(event)
    const before = live.fetches.length
    live.elapse()
    expect(live.fetches.length).toBe(before + 1)
  }
  return replayPath({
    testModel,
    path,
    model,
    live: live.actor,
    invariants: (snapshot) => assertInvariants(snapshot as FlowSyncSnapshot, live),
    cleanup: () => vi.clearAllTimers(),
    events: {
      [FLOW_FETCHED]: async ({ event }: { event: ModelEvent }) => {
        const reportsBefore = reports.length
        model.send(event)
        await live.answer(event.output as FlowAnswer)
        // An unrecognised answer is reported once, with the names it carried.
        const output = event.output as FlowAnswer
        expect(reports.slice(reportsBefore)).toEqual(output.type === 'unrecognised' ? [output.answer] : [])
      },
      [FLOW_FAILED]: async ({ event }: { event: ModelEvent }) => {
        model.send(event)
        await live.fail()
      },
      [APPLICATION_FETCHED]: async ({ event }: { event: ModelEvent }) => {
        model.send(event)
        await live.answerApplication(event.output as ApplicationFacts)
      },
      [APPLICATION_FAILED]: async ({ event }: { event: ModelEvent }) => {
        model.send(event)
        await live.failApplication()
      },
      ...Object.fromEntries(POLL_ELAPSED.map((type) => [type, tick])),
      'FLOW.REFRESH': ({ event }: { event: ModelEvent }) => expectNewFetch(() => send({ event })),
      'FLOW.RECEIVED': ({ event }: { event: ModelEvent }) => {
        const before = live.applications.length
        send({ event })
        const loading = live.snapshot().matches({ polling: 'loadingApplication' })
        expect(live.applications.length).toBe(before + (loading ? 1 : 0))
      },
      'SESSION.CHANGED': ({ event }: { event: ModelEvent }) => {
        const wasPolling = live.snapshot().matches('polling')
        const before = live.fetches.length
        send({ event })
        const startsPolling = !wasPolling && live.snapshot().matches('polling')
        expect(live.fetches.length).toBe(before + (startsPolling ? 1 : 0))
      },
    },
  })
}

describe('flow sync model-based paths, replayed on the real machine', () => {
  it('covers every state node and transition', async () => {
    await coverEveryTransition('flow sync', {
      modelMachine,
      liveMachine,
      events: modelEvents,
      runs: [{ testModel, replay }],
      describe: ({ visited }) => `, ${new Set(visited.map(serializeState)).size} abstract states`,
    })
  }, 300_000)
})

// ---------------------------------------------------------------------------------------------------------
// Spec section 2, "Flow routing by step", through the machine: log in, let the server answer, read the route.

const named = sessions.client.facts

/** Logs a client in; the server answers `flow` and, when its routing reads it, `application`. */
async function loggedInWith(
  flow: Flow,
  facts: SessionFacts,
  application: ApplicationFacts | null = applicationFacts(),
) {
  const live = startLive()
  live.send({ type: 'SESSION.CHANGED', loggedIn: true, facts })
  expect(live.fetches).toHaveLength(1)
  await live.answer(flow)
  if (flowReadsApplication(flow)) {
    expect(live.snapshot().value).toEqual({ polling: 'loadingApplication' })
    // Not routed before the application is there: no flash through the wrong page.
    expect(live.context().target).toBeNull()
    await live.answerApplication(application)
  }
  expect(live.snapshot().value).toEqual({ polling: 'waiting' })
  return live
}

describe('every row of the step table, through the machine', () => {
  const rows = new Set<FlowStep>()
  /** One row: the server answers `step` active for a session with `facts` (and `application`). */
  const routes = (
    step: FlowStep,
    expected: string,
    facts: SessionFacts = named,
    application: ApplicationFacts | null = applicationFacts(),
  ) => {
    rows.add(step)
    it(`${step} (${facts.client?.firstName ?? 'no first name'}, ${application?.disbursementType ?? 'no application'}) -> ${expected}`, async () => {
      const live = await loggedInWith(active(step), facts, application)
      expect(live.context().target).toBe(expected)
      // A page the client is not on redirects there; the first name is known, so no guard gets in the way.
      const from = expected === '/profile/my-loan' ? '/application/apply' : '/profile/my-loan'
      const redirect = journeyTarget(live.snapshot(), from)
      expect(redirect).toEqual(expected.startsWith('https://') ? { href: expected } : { to: expected })
      // And the page the flow names is left alone.
      if (!expected.startsWith('https://')) expect(journeyTarget(live.snapshot(), expected)).toBeNull()
    })
  }

  routes('kontomatik', '/registration/bank-data')
  routes('facebook', 'https://www.facebook.com/?application_id=app-7')
  routes('facebook', 'https://www.facebook.com/', named, null)
  routes('disbursement_type', '/registration/payment')
  routes('document_upload', '/registration/documents')
  routes('otp_agreement', '/registration/summary')
  routes('manual_page', '/application/manual-verification')
  routes('reject_page', '/application/rejected')
  routes('tmc_page', '/application/accepted')
  routes('tmc_page', '/application/accepted-cash', named, cashPickup)
  routes('tmc_page', '/application/accepted', named, applicationFacts({ disbursementType: 'cash_pickup' }))
  routes('tmc_page', '/application/accepted', named, null)
  routes('loan_page', '/profile/my-loan')
  routes('no_loan_page', '/profile/no-loan', sessionFacts({ client: clientFacts({ closedLoansCount: 2 }) }))
  routes('no_loan_page', '/application/apply')
  routes(
    'new_client_created',
    '/registration/details',
    sessionFacts({ client: clientFacts({ firstName: null }) }),
  )
  routes('new_client_created', '/application/apply')
  routes('pre_approval_page', '/application/apply')
  routes('work_info', '/registration/employment')
  routes('relative_info', '/registration/reference')
  routes('address', '/registration/address')
  routes('veriff', '/registration/document-verification')
  routes('offer_increase', '/application/offer-increase')
  routes('offer_decrease', '/application/offer-decrease')
  routes('application_processing', '/application/loading')
  routes('payout_processing', '/application/loading')

  it('lists every step of the model', () => {
    expect(flowSteps.filter((step) => !rows.has(step))).toEqual([])
  })

  it.each(flowSteps)('%s completed -> the loading page, without loading the application', async (step) => {
    const live = await loggedInWith({ step, status: 'completed' }, named)
    expect(live.applications).toHaveLength(0)
    expect(live.context().target).toBe('/application/loading')
  })
})

describe('the application facts (issue 14 item 3)', () => {
  it('a cash pickup is loaded on every poll of its step, so a number that arrives later is routed', async () => {
    const waiting = applicationFacts({ disbursementType: 'cash_pickup' })
    const live = await loggedInWith(pickup, named, waiting)
    expect(live.context().target).toBe('/application/accepted')
    live.elapse()
    await live.answer(pickup)
    await live.answerApplication(cashPickup)
    expect(live.context()).toMatchObject({ application: cashPickup, target: '/application/accepted-cash' })
    expect(live.applications).toHaveLength(2)
  })

  it('a failed application load keeps the last known flow (the loading page), and the next tick tries again', async () => {
    const live = await loggedInWith({ step: 'payout_processing', status: 'completed' }, named)
    live.elapse()
    await live.answer(pickup)
    await live.failApplication()
    expect(live.snapshot().value).toEqual({ polling: 'waiting' })
    expect(live.context()).toMatchObject({
      flow: { step: 'payout_processing', status: 'completed' },
      failedFetches: 1,
      target: '/application/loading',
    })
    live.elapse()
    await live.answer(pickup)
    await live.answerApplication(cashPickup)
    expect(live.context()).toMatchObject({
      flow: pickup,
      failedFetches: 0,
      target: '/application/accepted-cash',
    })
  })

  it('the application is dropped when the flow moves to a step that does not read it', async () => {
    const live = await loggedInWith(pickup, named, cashPickup)
    live.elapse()
    await live.answer(active('loan_page'))
    expect(live.context()).toMatchObject({ application: null, target: '/profile/my-loan' })
  })

  it('FLOW.RECEIVED of a step that reads the application loads it first', async () => {
    const live = await loggedInWith(workInfo, named)
    live.send({ type: 'FLOW.RECEIVED', flow: pickup })
    expect(live.snapshot().value).toEqual({ polling: 'loadingApplication' })
    expect(live.context().flow).toEqual(workInfo)
    await live.answerApplication(cashPickup)
    expect(live.context().target).toBe('/application/accepted-cash')
  })
})

describe('a step the client does not know (issue 14 item 1)', () => {
  it('is reported with its names, drops the flow, keeps polling, and clears on the next known answer', async () => {
    const live = await loggedInWith(active('document_upload'), named)
    live.elapse()
    await live.answer(unknownStep)
    expect(live.snapshot().value).toEqual({ polling: 'unrecognised' })
    expect(reports).toEqual([{ step: 'lottery', status: 'active' }])
    expect(unrecognisedFlowOf(live.snapshot())).toEqual({ step: 'lottery', status: 'active' })
    // Not a failed fetch, and no page from a flow the client no longer has.
    expect(live.context()).toMatchObject({ flow: null, target: null, failedFetches: 0 })
    expect(journeyTarget(live.snapshot(), '/registration/address')).toBeNull()

    live.elapse()
    await live.fail()
    expect(unrecognisedFlowOf(live.snapshot())).not.toBeNull()
    live.elapse()
    await live.answer(active('veriff'))
    expect(unrecognisedFlowOf(live.snapshot())).toBeNull()
    expect(live.context().target).toBe('/registration/document-verification')
    expect(reports).toHaveLength(1)
  })

  it('logging out forgets it', async () => {
    const live = startLive()
    live.send(sessionChanged('client'))
    await live.answer(unknownStep)
    live.send(sessionChanged('visitor'))
    expect(unrecognisedFlowOf(live.snapshot())).toBeNull()
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
    live.fetches[1]?.resolve(known(active('work_info')))
    await flush()
    expect(live.snapshot().value).toEqual({ polling: 'fetching' })
    expect(live.context().flow).toEqual(active('work_info'))
    live.fetches[2]?.resolve(known(active('relative_info')))
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
    const facts = sessionFacts({ client: clientFacts({ status: 2 }) })
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
