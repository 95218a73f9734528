/**
 * The calculator statechart: model-based paths replayed on the real machine, with coverage, then focused
 * cases.
 *
 * How invoke and `after` are handled: `createTestModel` (xstate/graph) refuses machines that invoke actors or
 * use `after`, and `machine.provide()` cannot remove them. `toModelMachine` (tests/support/model-coverage.ts)
 * rebuilds the machine from the same config and `setup()` implementations with the `loadConfig` and
 * `fetchOffer` answers and the OFFER_DEBOUNCE expiry turned into plain events, named as XState names them
 * internally (`xstate.done.actor.loadConfig`, `xstate.after.OFFER_DEBOUNCE.calculator.ready.debouncing`...),
 * so each model transition is the real machine's transition, not a copy of it.
 *
 * 1. Plan: shortest paths to every abstract state (state value, tab, client, decision pending) over
 *    representative events: amounts below min, off the grid, at and above the first-loan limit, above max;
 *    terms out of range; both tabs; seven client contexts (visitor, tabs hidden, new client, repeat client,
 *    available below min, active loan, increase offer); for no cookie and for an out-of-range cookie.
 * 2. Replay each path on the REAL machine, with `loadConfig` / `fetchOffer` replaced by promises the test
 *    settles and the debounce on fake timers: a done/error event becomes "settle the pending promise", the
 *    delay event becomes "advance the clock by 300 ms" (and not a millisecond less). The model runs the same
 *    events as an actor; after every step the real snapshot must equal the model's (value and whole context)
 *    and satisfy the spec's invariants. The planner's own step states are not used as expectations: under an
 *    abstract key one stand-in snapshot represents every state sharing that key.
 * 3. A transition that only returns to an abstract state already known (a change that changes nothing, a
 *    re-entry) lies on no shortest path: each such transition gets a replayed prefix extended by one event.
 * 4. Coverage of the real machine's state nodes and transitions is recorded from its inspection events and
 *    must be complete; the model's is checked the same way.
 */

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type AnyActorRef,
  type AnyMachineSnapshot,
  createActor,
  fromPromise,
  type InspectionEvent,
  transition,
} from 'xstate'
import { createTestModel, type TestPath } from 'xstate/graph'
import { type CalculatorConfig, defaultCalculatorConfig } from '../../domain/calculator-config'
import { offeredTabs, submitTarget, termLimitsFor } from '../../domain/calculator-rules'
import type { OfferRequest } from '../../domain/contract/pricing'
import type { Offer } from '../../domain/offer'
import { validateOfferRequest } from '../../domain/pricing/offer'
import {
  additionalLoanAvailableIn,
  type CalculatorContext,
  type CalculatorEmitted,
  type CalculatorEvent,
  type CalculatorInput,
  CONFIG_LOAD_ERROR,
  calculatorMachine,
  needsLoginIn,
  OFFER_DEBOUNCE_MS,
  OfferRefusedError,
  OPTIONAL_FEE,
  offerRequestOf,
  requestKeyOf,
  tabSelectedIn,
} from '../../machines/calculator.machine'
import { type Deferred, deferred, flush } from '../support/deferred'
import {
  createCoverageRecorder,
  formatCoverage,
  listModelEvents,
  listTransitions,
  toModelMachine,
} from '../support/model-coverage'

const php = (pesos: number) => Math.round(pesos * 100)
const config: CalculatorConfig = defaultCalculatorConfig

function offerFor(amount: number, term: number, marker = 0): Offer {
  const money = (amount: number) => ({ amount })
  const interest = Math.round(amount * 0.01 * term) + marker
  return {
    principal: money(amount),
    interest: money(interest),
    interest_without_discount: money(interest),
    processingFee: money(php(100)),
    processing_fee_without_discount: money(php(100)),
    serviceFee: money(0),
    serviceFee_without_discount: money(0),
    withdrawalFee: money(0),
    invoicingFee: money(0),
    borrowers_advantage_package_fee: money(php(50)),
    total: money(amount + interest + php(150)),
    total_without_discount: money(amount + interest + php(150)),
    discount: { interest: money(0), serviceFee: money(0) },
    apr: 365,
    apr_without_discount: 365,
    endDate: '2026-12-31',
    term,
    extensions: [],
  }
}

// ---------------------------------------------------------------------------------------------------------
// The real calculator under control: promises the test settles, fake timers for the debounce.

interface Requests {
  config: Deferred<CalculatorConfig>[]
  offers: { input: OfferRequest; deferred: Deferred<Offer> }[]
}

// One provided machine for every test, so coverage recorded on it counts the same transition objects; each
// started calculator gets its own request log.
let requests: Requests = { config: [], offers: [] }
const liveMachine = calculatorMachine.provide({
  actors: {
    loadConfig: fromPromise<CalculatorConfig, void>(() => {
      const d = deferred<CalculatorConfig>()
      requests.config.push(d)
      return d.promise
    }),
    fetchOffer: fromPromise<Offer, OfferRequest>(({ input }) => {
      const d = deferred<Offer>()
      requests.offers.push({ input, deferred: d })
      return d.promise
    }),
  },
})

const started: AnyActorRef[] = []

function startLive(input?: CalculatorInput, inspect?: (event: InspectionEvent) => void) {
  const own: Requests = { config: [], offers: [] }
  requests = own
  const emitted: CalculatorEmitted[] = []
  const actor = createActor(liveMachine, { input, inspect })
  actor.on('calculator.submit', (event) => emitted.push(event))
  started.push(actor)
  actor.start()
  return {
    actor,
    configCalls: own.config,
    offerCalls: own.offers,
    emitted,
    snapshot: () => actor.getSnapshot(),
    context: () => actor.getSnapshot().context,
    async loadConfig(c: CalculatorConfig = config) {
      own.config.at(-1)?.resolve(c)
      await flush()
    },
    async failConfig() {
      own.config.at(-1)?.reject(new Error('HTTP 503'))
      await flush()
    },
    /** Lets the debounce run out, and checks it did not run out a millisecond early. */
    elapse() {
      const before = own.offers.length
      vi.advanceTimersByTime(OFFER_DEBOUNCE_MS - 1)
      expect(own.offers.length).toBe(before)
      vi.advanceTimersByTime(1)
    },
    async answerOffer(offer?: Offer) {
      const call = own.offers.at(-1)
      if (!call) throw new Error('no offer request')
      call.deferred.resolve(offer ?? offerFor(call.input.amount, call.input.term))
      await flush()
    },
    async failOffer(error: unknown = new Error('HTTP 500')) {
      own.offers.at(-1)?.deferred.reject(error)
      await flush()
    },
    /** Answers every superseded request with a poisoned offer: the machine must ignore them all. */
    async answerStale() {
      for (const call of own.offers.slice(0, -1)) call.deferred.resolve(offerFor(1, 1, 999_999))
      await flush()
    },
  }
}

async function readyLive(input?: CalculatorInput, c: CalculatorConfig = config) {
  const live = startLive(input)
  await live.loadConfig(c)
  return live
}

async function readyWithOffer(input?: CalculatorInput) {
  const live = await readyLive(input)
  live.elapse()
  await live.answerOffer()
  expect(live.snapshot().value).toEqual({ ready: 'loaded' })
  return live
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  for (const actor of started.splice(0)) actor.stop()
  vi.useRealTimers()
})

// ---------------------------------------------------------------------------------------------------------
// The model

const modelMachine = toModelMachine(calculatorMachine)

function modelEventType(src: string, kind: 'after' | 'actor.done' | 'actor.error'): string {
  const found = listModelEvents(calculatorMachine).filter(
    (e) => e.kind === kind && (kind === 'after' || e.src === src),
  )
  if (found.length !== 1 || !found[0]) throw new Error(`expected exactly one ${kind} event for ${src}`)
  return found[0].type
}
const CONFIG_LOADED = modelEventType('loadConfig', 'actor.done')
const CONFIG_FAILED = modelEventType('loadConfig', 'actor.error')
const DEBOUNCE_ELAPSED = modelEventType('OFFER_DEBOUNCE', 'after')
const OFFER_LOADED = modelEventType('fetchOffer', 'actor.done')
const OFFER_FAILED = modelEventType('fetchOffer', 'actor.error')
if (listModelEvents(calculatorMachine).length !== 5) {
  throw new Error('the calculator should have two invokes (done + error each) and one delay')
}

type ModelEvent = { type: string; [key: string]: unknown }

/** The server refusing a request (a 400 with violations): a changed config the browser has not seen yet. */
const refusedByServer = new OfferRefusedError([
  { propertyPath: 'term', message: 'Repeat-client terms need a repaid loan: choose up to 21 days.' },
])
type ContextUpdate = Extract<CalculatorEvent, { type: 'CONTEXT.UPDATE' }>

const clientCases = {
  guest: { loggedIn: false, availableAmount: null, hasActiveLoan: false, closedLoansCount: 0 },
  guestLimitFirst: {
    loggedIn: false,
    availableAmount: null,
    hasActiveLoan: false,
    closedLoansCount: 0,
    limitFirst: true,
  },
  newClient: { loggedIn: true, availableAmount: php(8000), hasActiveLoan: false, closedLoansCount: 0 },
  repeatClient: { loggedIn: true, availableAmount: php(20_000), hasActiveLoan: false, closedLoansCount: 2 },
  availableBelowMin: { loggedIn: true, availableAmount: php(700), hasActiveLoan: false, closedLoansCount: 1 },
  activeLoan: {
    loggedIn: true,
    availableAmount: php(6000),
    hasActiveLoan: true,
    closedLoansCount: 1,
    activeLoan: { dueDays: 12, overdue: false, hasPaymentSchedule: false },
  },
  increaseOffer: {
    loggedIn: true,
    availableAmount: php(9000),
    hasActiveLoan: false,
    closedLoansCount: 1,
    increaseOffer: { amount: php(9000), term: 21, principal: php(6000) },
  },
} satisfies Record<string, Omit<ContextUpdate, 'type'>>
type ClientCase = keyof typeof clientCases

const contextUpdate = (name: ClientCase): ContextUpdate => ({ type: 'CONTEXT.UPDATE', ...clientCases[name] })

const modelEvents: ModelEvent[] = [
  { type: CONFIG_LOADED, output: config },
  { type: CONFIG_FAILED, error: 'HTTP 503' },
  { type: 'RETRY' },
  { type: DEBOUNCE_ELAPSED },
  { type: OFFER_LOADED, output: offerFor(php(5000), 30) },
  { type: OFFER_FAILED, error: 'HTTP 500' },
  { type: OFFER_FAILED, error: refusedByServer },
  { type: 'OFFER.RETRY' },
  { type: 'AMOUNT.SET', value: php(100) }, // below min
  { type: 'AMOUNT.SET', value: php(3_456.78) }, // off the grid
  { type: 'AMOUNT.SET', value: php(10_000) }, // at the first-loan limit
  { type: 'AMOUNT.SET', value: php(15_000) }, // above it
  { type: 'AMOUNT.SET', value: php(99_000) }, // above max
  { type: 'TERM.SET', value: 3 }, // below min
  { type: 'TERM.SET', value: 14 },
  { type: 'TERM.SET', value: 45 }, // above the new-client max
  { type: 'TERM.SET', value: 90 }, // above every max
  { type: 'TAB.SELECT', tab: 'new' },
  { type: 'TAB.SELECT', tab: 'repeat' },
  { type: 'OPTIONAL_FEE.TOGGLE' },
  { type: 'OPTIONAL_FEE.SET', enabled: false },
  { type: 'OPTIONAL_FEE.SET', enabled: true },
  { type: 'PROMO.SET', code: 'SUMMER10' },
  { type: 'PROMO.SET', code: 'x' },
  ...(Object.keys(clientCases) as ClientCase[]).map(contextUpdate),
  { type: 'SUBMIT' },
]

function clientCaseOf(context: CalculatorContext): string {
  const found = (Object.keys(clientCases) as ClientCase[]).find((name) => {
    const { type: _, ...fields } = contextUpdate(name)
    return Object.entries(fields).every(
      ([key, value]) =>
        JSON.stringify(context.client[key as keyof typeof context.client]) === JSON.stringify(value),
    )
  })
  return found ?? 'initial'
}

/**
 * What a state is, for the search: the state value and the few facts that change what can happen next
 * (tab, client, whether a decision is pending). Amounts, terms, fee, promo and the offer are volatile here:
 * the replay checks their exact values against the model and the spec's invariants.
 */
function serializeState(state: AnyMachineSnapshot): string {
  const context = state.context as CalculatorContext
  return JSON.stringify({
    value: state.value,
    tab: context.tab,
    client: clientCaseOf(context),
    decided: context.decision !== null,
  })
}

function createModel(input: CalculatorInput | undefined) {
  return createTestModel(modelMachine, {
    events: modelEvents,
    serializeState,
    input,
    // A bound, not a target: the abstraction keeps the search far below it.
    limit: 100_000,
  })
}
type Model = ReturnType<typeof createModel>
type ModelPath = TestPath<AnyMachineSnapshot, ModelEvent>

const modelTransitionKey = new Map(listTransitions(modelMachine).map((t) => [t.definition, t.key]))

/** The keys of the model transitions `event` takes from `state`. */
function transitionsTaken(state: AnyMachineSnapshot, event: ModelEvent): string[] {
  return modelMachine.getTransitionData(state, event).flatMap((t) => modelTransitionKey.get(t) ?? [])
}

// ---------------------------------------------------------------------------------------------------------
// Invariants every reachable state must satisfy, stated from the spec rather than from the machine.

function assertInvariants(snapshot: AnyMachineSnapshot) {
  const c = snapshot.context as CalculatorContext
  if (snapshot.matches('error')) expect(c.error).toBe(CONFIG_LOAD_ERROR)
  if (!snapshot.matches('ready')) return
  const cfg = c.config!
  expect(c.error).toBeNull()
  expect(c.amount.first).toBe(cfg.initialStates.new.maxAmount)
  expect(c.amount.interval).toBe(cfg.amountLimits.interval)
  const expectedMin = c.client.increaseOffer
    ? c.client.increaseOffer.principal
    : c.client.hasActiveLoan
      ? cfg.amountLimits.minAdditionLoan
      : cfg.amountLimits.minMainLoan
  expect(c.amount.min).toBe(expectedMin)
  expect(snapshot.matches({ ready: 'disabled' })).toBe(c.disabled)
  if (c.disabled) {
    expect(c.client.loggedIn).toBe(true)
    expect(c.amount.max).toBe(0)
    expect(c.amount.current).toBe(0)
    expect(c.offer).toBeNull()
  } else {
    expect(c.amount.current).toBeGreaterThanOrEqual(c.amount.min)
    expect(c.amount.current).toBeLessThanOrEqual(c.amount.max)
    expect(c.amount.current === c.amount.min || c.amount.current % c.amount.interval === 0).toBe(true)
    expect(c.amount.max).toBeLessThanOrEqual(cfg.amountLimits.amountTo)
    if (c.client.loggedIn && c.client.availableAmount !== null) {
      expect(c.amount.max).toBeLessThanOrEqual(c.client.availableAmount)
    }
  }
  if (c.amount.current > c.amount.first) expect(c.tab).toBe('repeat')
  if (c.client.limitFirst) {
    // Spec section 2: the tabs are hidden; a visitor is on the new-client tab, a client on their own.
    if (!c.client.loggedIn) expect(c.tab).toBe('new')
    expect(c.amount.max).toBeLessThanOrEqual(c.amount.first)
  }
  const termLimits = termLimitsFor(cfg, c.tab)
  expect({ min: c.term.min, max: c.term.max, interval: c.term.interval }).toEqual(termLimits)
  expect(c.term.current).toBeGreaterThanOrEqual(termLimits.min)
  expect(c.term.current).toBeLessThanOrEqual(termLimits.max)
  if (snapshot.matches({ ready: 'loaded' })) {
    expect(c.offer).not.toBeNull()
    expect(c.offerKey).toBe(requestKeyOf(c))
    expect(c.offerError).toBe(false)
  }
  if (snapshot.matches({ ready: 'failed' })) {
    expect(c.offerError).toBe(true)
    expect(c.offer).toBeNull()
  }
  // A refusal is shown only while the request it refused is the current one, and offers no retry.
  expect(c.refusal !== null).toBe(snapshot.matches({ ready: 'refused' }))
  if (c.refusal) expect(c.offer).toBeNull()
  // Issue 13: a known client's tab is their history, never a choice the server would refuse.
  if (c.client.loggedIn) {
    expect(offeredTabs(c.client)).toEqual([c.client.closedLoansCount === 0 ? 'new' : 'repeat'])
    expect(c.tab).toBe(offeredTabs(c.client)[0])
  }
  // Whatever the inputs, the request the calculator would send is one the server's own rules accept
  // (domain/pricing/offer.ts validateOfferRequest, the function the API validates with). An increase offer is
  // answered by another call with its own range.
  if (!c.disabled && !c.client.increaseOffer) {
    const request = offerRequestOf(c)
    const kind =
      request.kind === 'guest' ? (request.sequenceType === 'first' ? 'guest' : 'repeat') : request.kind
    const additionalLoan = request.kind !== 'guest' && c.client.hasActiveLoan
    expect(validateOfferRequest(cfg, kind, request.amount, request.term, { additionalLoan })).toEqual([])
  }
  if (c.decision) {
    expect(c.decision.target).toBe(
      submitTarget({
        additionalLoanAvailable: additionalLoanAvailableIn(c),
        loggedIn: c.client.loggedIn,
        tabSelected: tabSelectedIn(c),
      }),
    )
    expect(c.decision.amount).toBe(c.amount.current)
    expect(c.decision.term).toBe(c.term.current)
  }
}

// ---------------------------------------------------------------------------------------------------------

type Recorder = ReturnType<typeof createCoverageRecorder>

/**
 * Replays one planned path on the real machine and on the model (as an actor), comparing them after every
 * step. Answers the model snapshot reached after each step, for extending the path later.
 */
async function replay(
  testModel: Model,
  path: ModelPath,
  input: CalculatorInput | undefined,
  recorders: { model: Recorder; live: Recorder },
): Promise<AnyMachineSnapshot[]> {
  // Every path starts with the xstate.init step, which both actors take when they start.
  const model = createActor(modelMachine, { input, inspect: recorders.model.inspect }).start()
  const live = startLive(input, recorders.live.inspect)
  const reached: AnyMachineSnapshot[] = []
  const send = ({ event }: { event: ModelEvent }) => {
    model.send(event)
    live.actor.send(event as CalculatorEvent)
  }
  try {
    await testModel.testPath(path, {
      events: {
        [CONFIG_LOADED]: async ({ event }: { event: ModelEvent }) => {
          model.send(event)
          await live.loadConfig(event.output as CalculatorConfig)
        },
        [CONFIG_FAILED]: async ({ event }: { event: ModelEvent }) => {
          model.send(event)
          await live.failConfig()
        },
        [DEBOUNCE_ELAPSED]: ({ event }: { event: ModelEvent }) => {
          model.send(event)
          const before = live.offerCalls.length
          live.elapse()
          expect(live.offerCalls.length).toBe(before + 1)
          expect(live.offerCalls.at(-1)?.input).toEqual(offerRequestOf(live.context()))
        },
        [OFFER_LOADED]: async ({ event }: { event: ModelEvent }) => {
          model.send(event)
          await live.answerStale()
          await live.answerOffer(event.output as Offer)
        },
        [OFFER_FAILED]: async ({ event }: { event: ModelEvent }) => {
          model.send(event)
          await live.failOffer(event.error instanceof Error ? event.error : undefined)
        },
        'OFFER.RETRY': ({ event }: { event: ModelEvent }) => {
          const before = live.offerCalls.length
          send({ event })
          expect(live.offerCalls.length).toBe(before + 1)
        },
        'AMOUNT.SET': send,
        'TERM.SET': send,
        'TAB.SELECT': send,
        'OPTIONAL_FEE.TOGGLE': send,
        'OPTIONAL_FEE.SET': send,
        'PROMO.SET': send,
        'CONTEXT.UPDATE': send,
        RETRY: send,
        SUBMIT: send,
      },
      states: {
        '*': () => {
          const expected = model.getSnapshot()
          const actual = live.snapshot()
          expect(actual.value).toEqual(expected.value)
          expect(actual.context).toEqual(expected.context)
          assertInvariants(actual)
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

describe('calculator model-based paths, replayed on the real machine', () => {
  const inputs: (CalculatorInput | undefined)[] = [
    undefined,
    // An untrusted cookie: above max, off the grid, term out of range, promo with spaces.
    {
      initial: { amount: php(123_456.78), term: 99, tab: 'new', optionalFee: false, promoCode: ' SUMMER10 ' },
    },
  ]

  it('covers every state node and transition', async () => {
    const recorders = {
      model: createCoverageRecorder(modelMachine),
      live: createCoverageRecorder(liveMachine),
    }
    let paths = 0
    let extended = 0
    let steps = 0
    const run = (model: Model, path: ModelPath, input: CalculatorInput | undefined) => {
      paths++
      steps += path.steps.length
      return replay(model, path, input, recorders)
    }

    for (const input of inputs) {
      const model = createModel(input)
      const visited: { path: ModelPath; at: number; state: AnyMachineSnapshot }[] = []
      for (const path of model.getShortestPaths()) {
        const states = await run(model, path, input)
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
        const prefix = found.path.steps.slice(0, found.at + 1)
        const [next] = transition(modelMachine, found.state, found.event)
        await run(
          model,
          { ...found.path, steps: [...prefix, { event: found.event, state: next }], state: next },
          input,
        )
      }
    }

    const live = recorders.live.report()
    const model = recorders.model.report()
    console.info(
      `${formatCoverage('calculator', live)} (${paths} paths, ${extended} of them extended, ${steps} steps)`,
    )
    console.info(formatCoverage('calculator model', model))
    expect(live.states.missing).toEqual([])
    expect(live.transitions.missing).toEqual([])
    expect(model.states.missing).toEqual([])
    expect(model.transitions.missing).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------------------

describe('loading the configuration', () => {
  it('a failure shows the error and RETRY loads again', async () => {
    const live = startLive()
    expect(live.snapshot().value).toBe('loading')
    await live.failConfig()
    expect(live.snapshot().value).toBe('error')
    expect(live.context().error).toBe('[API] failed to load configs')

    live.actor.send({ type: 'RETRY' })
    expect(live.snapshot().value).toBe('loading')
    expect(live.context().error).toBeNull()
    expect(live.configCalls).toHaveLength(2)

    await live.loadConfig()
    expect(live.snapshot().value).toEqual({ ready: 'debouncing' })
    expect(live.context().amount).toEqual({
      min: php(1000),
      max: php(25_000),
      first: php(10_000),
      current: php(5000),
      interval: php(100),
    })
    expect(live.context().term).toEqual({ min: 7, max: 30, current: 30, interval: 1 })
  })

  it('a client known before the configuration arrives is applied when it does', async () => {
    const live = startLive()
    live.actor.send(contextUpdate('repeatClient'))
    expect(live.snapshot().value).toBe('loading')
    await live.loadConfig()
    expect(live.context().tab).toBe('repeat')
    expect(live.context().amount.max).toBe(php(20_000))
    expect(live.context().amount.current).toBe(php(10_000))
    expect(live.context().term.current).toBe(60)
  })

  it('restores a cookie state, clamped against the configuration', async () => {
    const live = await readyLive({
      initial: { amount: php(30_550.5), term: 2, tab: 'new', optionalFee: false, promoCode: 'SUMMER10' },
    })
    const c = live.context()
    expect(c.amount.current).toBe(php(25_000))
    expect(c.tab).toBe('repeat')
    expect(c.term.current).toBe(7)
    expect(c.optionalFees[OPTIONAL_FEE]).toBe(false)
    expect(c.promoCode).toBe('SUMMER10')
    expect(c.restored).toBeNull()
  })

  it('ignores cookie fields of the wrong type', async () => {
    const live = await readyLive({
      initial: JSON.parse('{"amount":"lots","term":null,"tab":"vip","optionalFee":"yes","promoCode":7}'),
    })
    const c = live.context()
    expect(c.amount.current).toBe(php(5000))
    expect(c.tab).toBe('new')
    expect(c.term.current).toBe(30)
    expect(c.optionalFees[OPTIONAL_FEE]).toBe(true)
    expect(c.promoCode).toBeNull()
  })
})

describe('fetching the offer', () => {
  it('ten amount changes 50 ms apart cause exactly one fetch, 300 ms after the last', async () => {
    const live = await readyWithOffer()
    expect(live.offerCalls).toHaveLength(1)

    for (let i = 1; i <= 10; i++) {
      live.actor.send({ type: 'AMOUNT.SET', value: php(1000 + i * 100) })
      vi.advanceTimersByTime(50)
    }
    expect(live.offerCalls).toHaveLength(1)
    expect(live.snapshot().value).toEqual({ ready: 'debouncing' })

    vi.advanceTimersByTime(OFFER_DEBOUNCE_MS - 50 - 1)
    expect(live.offerCalls).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(live.offerCalls).toHaveLength(2)
    expect(live.offerCalls[1]?.input).toEqual({
      type: 'stl',
      kind: 'guest',
      sequenceType: 'first',
      amount: php(2000),
      term: 30,
      optionalFee: true,
      promoCode: null,
    })
    vi.advanceTimersByTime(10_000)
    expect(live.offerCalls).toHaveLength(2)
  })

  it('term, tab, optional fee and promo changes restart the debounce too', async () => {
    const live = await readyWithOffer()
    const changes: CalculatorEvent[] = [
      { type: 'TERM.SET', value: 14 },
      { type: 'TAB.SELECT', tab: 'repeat' },
      { type: 'OPTIONAL_FEE.TOGGLE' },
      { type: 'OPTIONAL_FEE.SET', enabled: true },
      { type: 'PROMO.SET', code: 'SUMMER10' },
    ]
    for (const change of changes) {
      live.actor.send(change)
      vi.advanceTimersByTime(OFFER_DEBOUNCE_MS - 1)
    }
    expect(live.offerCalls).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(live.offerCalls).toHaveLength(2)
    expect(live.offerCalls[1]?.input).toMatchObject({
      term: 14,
      sequenceType: 'repeated',
      optionalFee: true,
      promoCode: 'SUMMER10',
    })
  })

  it('a change that leaves the request as it was does not refetch', async () => {
    const live = await readyWithOffer()
    const before = live.context()
    live.actor.send({ type: 'AMOUNT.SET', value: php(5_050) }) // rounds down to the current PHP 5,000
    live.actor.send({ type: 'TERM.SET', value: 31 }) // clamps to the current 30
    live.actor.send({ type: 'TAB.SELECT', tab: 'new' })
    live.actor.send({ type: 'PROMO.SET', code: 'no' }) // too short: still no promo
    vi.advanceTimersByTime(OFFER_DEBOUNCE_MS * 2)
    expect(live.snapshot().value).toEqual({ ready: 'loaded' })
    expect(live.offerCalls).toHaveLength(1)
    expect(live.context().offerKey).toBe(before.offerKey)
  })

  it('a change while fetching drops the stale request', async () => {
    const live = await readyLive()
    live.elapse()
    expect(live.snapshot().value).toEqual({ ready: 'fetching' })
    live.actor.send({ type: 'AMOUNT.SET', value: php(7000) })
    expect(live.snapshot().value).toEqual({ ready: 'debouncing' })

    await live.answerStale()
    expect(live.context().offer).toBeNull()
    expect(live.snapshot().value).toEqual({ ready: 'debouncing' })

    live.elapse()
    await live.answerOffer()
    expect(live.context().offer?.principal.amount).toBe(php(7000))
    expect(live.context().offerKey).toBe(requestKeyOf(live.context()))
  })

  it('a failed fetch marks the offer as error; OFFER.RETRY or a new input recovers', async () => {
    const live = await readyWithOffer()
    live.actor.send({ type: 'AMOUNT.SET', value: php(6000) })
    live.elapse()
    await live.failOffer()
    expect(live.snapshot().value).toEqual({ ready: 'failed' })
    expect(live.context()).toMatchObject({ offer: null, offerKey: null, offerError: true })

    live.actor.send({ type: 'OFFER.RETRY' })
    expect(live.snapshot().value).toEqual({ ready: 'fetching' })
    expect(live.offerCalls).toHaveLength(3)
    await live.failOffer()

    live.actor.send({ type: 'AMOUNT.SET', value: php(6100) })
    expect(live.snapshot().value).toEqual({ ready: 'debouncing' })
    live.elapse()
    await live.answerOffer()
    expect(live.snapshot().value).toEqual({ ready: 'loaded' })
    expect(live.context().offerError).toBe(false)
    expect(live.context().offer?.principal.amount).toBe(php(6100))
  })
})

describe('clamping and tab rules through the machine', () => {
  const cases: [string, CalculatorEvent[], Partial<{ amount: number; term: number; tab: string }>][] = [
    ['amount below min -> min', [{ type: 'AMOUNT.SET', value: php(10) }], { amount: php(1000) }],
    ['amount above max -> max', [{ type: 'AMOUNT.SET', value: php(1_000_000) }], { amount: php(25_000) }],
    [
      'amount off the grid -> rounded down',
      [{ type: 'AMOUNT.SET', value: php(4_199.99) }],
      { amount: php(4_100) },
    ],
    [
      'amount above the first-loan limit -> repeat tab',
      [{ type: 'AMOUNT.SET', value: php(10_100) }],
      { tab: 'repeat' },
    ],
    [
      'amount at the first-loan limit stays new',
      [{ type: 'AMOUNT.SET', value: php(10_000) }],
      { tab: 'new' },
    ],
    [
      'new tab caps the amount at the first maximum',
      [
        { type: 'AMOUNT.SET', value: php(20_000) },
        { type: 'TAB.SELECT', tab: 'new' },
      ],
      { amount: php(10_000), tab: 'new' },
    ],
    ['term below min -> min', [{ type: 'TERM.SET', value: 1 }], { term: 7 }],
    ['term above the new max -> new max', [{ type: 'TERM.SET', value: 45 }], { term: 30 }],
    [
      'repeat tab allows the repeated max',
      [
        { type: 'TAB.SELECT', tab: 'repeat' },
        { type: 'TERM.SET', value: 45 },
      ],
      { term: 45, tab: 'repeat' },
    ],
    [
      'back to the new tab re-clamps the term',
      [
        { type: 'TAB.SELECT', tab: 'repeat' },
        { type: 'TERM.SET', value: 45 },
        { type: 'TAB.SELECT', tab: 'new' },
      ],
      { term: 30, tab: 'new' },
    ],
    [
      'stl: moving back below the limit keeps repeat',
      [
        { type: 'AMOUNT.SET', value: php(15_000) },
        { type: 'AMOUNT.SET', value: php(3000) },
      ],
      { amount: php(3000), tab: 'repeat' },
    ],
  ]
  it.each(cases)('%s', async (_, events, expected) => {
    const live = await readyLive()
    for (const event of events) live.actor.send(event)
    const c = live.context()
    if (expected.amount !== undefined) expect(c.amount.current).toBe(expected.amount)
    if (expected.term !== undefined) expect(c.term.current).toBe(expected.term)
    if (expected.tab !== undefined) expect(c.tab).toBe(expected.tab)
  })

  it('line of credit: at or below the limit switches back to new', async () => {
    const live = await readyLive({ type: 'line-of-credit' })
    live.actor.send({ type: 'AMOUNT.SET', value: php(15_000) })
    expect(live.context().tab).toBe('repeat')
    live.actor.send({ type: 'AMOUNT.SET', value: php(10_000) })
    expect(live.context().tab).toBe('new')
  })

  it('limit set to first: tabs hidden, the amount stops at the first-loan limit', async () => {
    const live = await readyLive()
    live.actor.send(contextUpdate('guestLimitFirst'))
    live.actor.send({ type: 'TAB.SELECT', tab: 'repeat' })
    live.actor.send({ type: 'AMOUNT.SET', value: php(20_000) })
    expect(live.context()).toMatchObject({ tab: 'new', amount: { current: php(10_000), max: php(10_000) } })
    expect(needsLoginIn(live.context())).toBe(false)
  })
})

describe('issue 13: a client is never offered what the server refuses them', () => {
  it('a first-time client gets the new-client tab only: no repeat tab, no 60 days, no repeat amount', async () => {
    // A visitor's cookie from the home page: repeat tab, PHP 20 000 for 60 days.
    const live = await readyLive({
      initial: { tab: 'repeat', amount: php(20_000), term: 60 },
      client: { loggedIn: true, availableAmount: null, hasActiveLoan: false, closedLoansCount: 0 },
    })
    expect(live.context()).toMatchObject({
      tab: 'new',
      amount: { current: php(10_000), max: php(10_000) },
      term: { current: 30, max: 30 },
    })
    live.actor.send({ type: 'TAB.SELECT', tab: 'repeat' })
    live.actor.send({ type: 'TERM.SET', value: 60 })
    live.actor.send({ type: 'AMOUNT.SET', value: php(25_000) })
    expect(live.context()).toMatchObject({
      tab: 'new',
      amount: { current: php(10_000) },
      term: { current: 30 },
    })
    live.elapse()
    expect(live.offerCalls.at(-1)?.input).toMatchObject({ kind: 'new', amount: php(10_000), term: 30 })
  })

  it('a visitor on the repeat tab with 60 days who logs in as a first-time client is moved to 30 days', async () => {
    const live = await readyLive()
    live.actor.send({ type: 'TAB.SELECT', tab: 'repeat' })
    live.actor.send({ type: 'TERM.SET', value: 60 })
    expect(live.context()).toMatchObject({ tab: 'repeat', term: { current: 60 } })
    live.actor.send(contextUpdate('newClient'))
    expect(live.context()).toMatchObject({ tab: 'new', term: { current: 30, max: 30 } })
  })

  it('a repeat client keeps the repeat tab and its terms whatever the amount', async () => {
    const live = await readyLive({ client: clientCases.repeatClient })
    live.actor.send({ type: 'TAB.SELECT', tab: 'new' })
    live.actor.send({ type: 'AMOUNT.SET', value: php(2000) })
    live.actor.send({ type: 'TERM.SET', value: 60 })
    expect(live.context()).toMatchObject({
      tab: 'repeat',
      amount: { current: php(2000) },
      term: { current: 60 },
    })
  })

  it("a kind's own maxTerm and minAmount bind the sliders as they bind the server", async () => {
    const tighter: CalculatorConfig = {
      ...config,
      initialStates: {
        new: { ...config.initialStates.new, maxTerm: 21, minAmount: php(2000) },
        repeated: config.initialStates.repeated,
      },
    }
    const live = await readyLive({ client: clientCases.newClient }, tighter)
    expect(live.context()).toMatchObject({ term: { max: 21 }, amount: { min: php(2000) } })
    live.actor.send({ type: 'AMOUNT.SET', value: php(1000) })
    live.actor.send({ type: 'TERM.SET', value: 30 })
    expect(live.context()).toMatchObject({ term: { current: 21 }, amount: { current: php(2000) } })
  })

  it('a refusal says why, offers no retry, and the next change of the value prices again', async () => {
    const live = await readyWithOffer({ client: clientCases.newClient })
    live.actor.send({ type: 'TERM.SET', value: 28 })
    live.elapse()
    await live.failOffer(refusedByServer)
    expect(live.snapshot().value).toEqual({ ready: 'refused' })
    expect(live.context()).toMatchObject({ offer: null, offerError: false, refusal: refusedByServer.reasons })
    // Asking again for the same request would be refused again: there is nothing to retry.
    live.actor.send({ type: 'OFFER.RETRY' })
    expect(live.snapshot().value).toEqual({ ready: 'refused' })
    expect(live.offerCalls).toHaveLength(2)
    // A change that leaves the request as it was keeps the refusal on screen.
    live.actor.send({ type: 'TERM.SET', value: 28 })
    expect(live.snapshot().value).toEqual({ ready: 'refused' })
    live.actor.send({ type: 'TERM.SET', value: 21 })
    expect(live.snapshot().value).toEqual({ ready: 'debouncing' })
    expect(live.context().refusal).toBeNull()
    live.elapse()
    await live.answerOffer()
    expect(live.snapshot().value).toEqual({ ready: 'loaded' })
    expect(live.context().offerKey).toBe(requestKeyOf(live.context()))
  })

  it('a failure that is not a refusal still offers a retry', async () => {
    const live = await readyWithOffer({ client: clientCases.newClient })
    live.actor.send({ type: 'TERM.SET', value: 28 })
    live.elapse()
    await live.failOffer(new Error('HTTP 429'))
    expect(live.snapshot().value).toEqual({ ready: 'failed' })
    expect(live.context().refusal).toBeNull()
  })
})

describe('the client changes the limits', () => {
  it('a logged-in client gets the lesser of available and configured max', async () => {
    const live = await readyLive()
    live.actor.send({ type: 'AMOUNT.SET', value: php(9000) })
    live.actor.send(contextUpdate('newClient'))
    expect(live.context().amount).toMatchObject({ max: php(8000), current: php(8000) })
  })

  it('available below min disables the calculator: amount 0, no fetch, SUBMIT ignored', async () => {
    const live = await readyLive()
    live.actor.send(contextUpdate('availableBelowMin'))
    expect(live.snapshot().value).toEqual({ ready: 'disabled' })
    expect(live.context()).toMatchObject({ disabled: true, amount: { max: 0, current: 0 } })
    live.actor.send({ type: 'AMOUNT.SET', value: php(5000) })
    live.actor.send({ type: 'SUBMIT' })
    vi.advanceTimersByTime(OFFER_DEBOUNCE_MS * 3)
    expect(live.offerCalls).toHaveLength(0)
    expect(live.context().decision).toBeNull()
    expect(live.emitted).toHaveLength(0)

    live.actor.send(contextUpdate('repeatClient'))
    expect(live.snapshot().value).toEqual({ ready: 'debouncing' })
    expect(live.context().amount.current).toBe(php(10_000))
  })

  it('a client disabled from the start never fetches', async () => {
    const live = await readyLive({ client: clientCases.availableBelowMin })
    expect(live.snapshot().value).toEqual({ ready: 'disabled' })
    vi.advanceTimersByTime(OFFER_DEBOUNCE_MS * 3)
    expect(live.offerCalls).toHaveLength(0)
  })

  it('an active loan lowers the min to the additional-loan min', async () => {
    const live = await readyLive()
    live.actor.send(contextUpdate('activeLoan'))
    live.actor.send({ type: 'AMOUNT.SET', value: 0 })
    expect(live.context().amount).toMatchObject({ min: php(500), max: php(6000), current: php(500) })
  })

  it('a pending increase offer presets the available amount and the application term', async () => {
    const live = await readyLive()
    live.actor.send(contextUpdate('increaseOffer'))
    expect(live.context()).toMatchObject({
      tab: 'repeat',
      amount: { min: php(6000), max: php(9000), current: php(9000) },
      term: { current: 21 },
    })
    // The preset happens once: the client may still move the sliders afterwards.
    live.actor.send({ type: 'AMOUNT.SET', value: php(7000) })
    live.actor.send(contextUpdate('increaseOffer'))
    expect(live.context().amount.current).toBe(php(7000))
  })
})

describe('submit', () => {
  async function decide(events: CalculatorEvent[], input?: CalculatorInput) {
    const live = await readyLive(input)
    for (const event of events) live.actor.send(event)
    live.actor.send({ type: 'SUBMIT' })
    return live
  }

  it('a visitor on the new-client tab registers', async () => {
    const live = await decide([])
    expect(live.context().decision?.target).toBe('registration')
    expect(needsLoginIn(live.context())).toBe(false)
  })

  it('a visitor on the repeat-client tab must log in', async () => {
    const live = await decide([{ type: 'TAB.SELECT', tab: 'repeat' }])
    expect(live.context().decision?.target).toBe('login')
    expect(needsLoginIn(live.context())).toBe(true)
  })

  it('a logged-in client applies', async () => {
    const live = await decide([contextUpdate('repeatClient')])
    expect(live.context().decision?.target).toBe('apply')
  })

  it('an available additional loan creates the application and goes to loading', async () => {
    const live = await decide([contextUpdate('activeLoan'), { type: 'AMOUNT.SET', value: php(2000) }])
    const decision = {
      target: 'create-application-then-loading',
      amount: php(2000),
      term: 30,
      optionalFee: true,
      promoCode: null,
    }
    expect(live.context().decision).toEqual(decision)
    expect(live.emitted).toEqual([{ type: 'calculator.submit', decision }])
  })

  it('an overdue loan falls back to apply', async () => {
    const live = await decide([
      {
        ...contextUpdate('activeLoan'),
        activeLoan: { dueDays: -2, overdue: true, hasPaymentSchedule: false },
      },
    ])
    expect(live.context().decision?.target).toBe('apply')
  })

  it('any input change clears a decision so it is not replayed stale', async () => {
    const live = await decide([])
    live.actor.send({ type: 'AMOUNT.SET', value: php(2000) })
    expect(live.context().decision).toBeNull()
  })
})
