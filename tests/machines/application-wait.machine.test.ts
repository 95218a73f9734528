/**
 * The application-wait statechart (machines/application-wait.machine.ts): model-based paths replayed on the real
 * machine with a simulated clock, with coverage, then focused cases.
 *
 * The recipe of tests/support/model-coverage.ts: `toModelMachine` turns the `fetchStatus` answers and the two
 * named delays (STATUS_POLL, WAIT_TIMEOUT) into plain events named as XState names them, so `createTestModel`
 * plans shortest paths over the same config and implementations. The real machine runs on a SimulatedClock: a
 * delay event becomes "advance the clock to the delay's end" (and the test checks it had not fired a millisecond
 * earlier), an answer settles the pending promise. After every step the real snapshot must equal the model's,
 * and `statusChanged` (the journey refresh) must have run exactly when the status answered something new.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type AnyMachineSnapshot, createActor, fromPromise, SimulatedClock } from 'xstate'
import { createTestModel } from 'xstate/graph'
import {
  type ApplicationStatusFacts,
  type ApplicationWaitContext,
  type ApplicationWaitInput,
  applicationWaitMachine,
  STATUS_POLL_INTERVAL_MS,
  WAIT_TIMEOUT_MS,
  waitErrorCodeOf,
} from '../../machines/application-wait.machine'
import { type Deferred, deferred, flush } from '../support/deferred'
import { listModelEvents, toModelMachine } from '../support/model-coverage'
import { coverEveryTransition, type ModelPath, type Recorders, replayPath } from '../support/model-replay'

type Answer = ApplicationStatusFacts | null

// The real machine: the status call is a promise the test settles, the journey refresh a counter.
let calls: { fetches: Deferred<Answer>[]; refreshes: number } = { fetches: [], refreshes: 0 }
const liveMachine = applicationWaitMachine.provide({
  actors: {
    fetchStatus: fromPromise<Answer>(() => {
      const d = deferred<Answer>()
      calls.fetches.push(d)
      return d.promise
    }),
  },
  actions: {
    statusChanged: () => {
      calls.refreshes++
    },
  },
})

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

const POLL = 1_000
const TIMEOUT = 100_000

function startLive(input: ApplicationWaitInput = {}, inspect?: Parameters<typeof createActor>[1]) {
  const own = { fetches: [] as Deferred<Answer>[], refreshes: 0 }
  calls = own
  const clock = new SimulatedClock()
  const actor = createActor(liveMachine, { ...inspect, clock, input }).start()
  stops.push(() => actor.stop())
  return {
    actor,
    clock,
    calls: own,
    snapshot: () => actor.getSnapshot(),
    async answer(answer: Answer) {
      own.fetches.at(-1)?.resolve(answer)
      await flush()
    },
    async fail(error: unknown) {
      own.fetches.at(-1)?.reject(error)
      await flush()
    },
  }
}

// ---------------------------------------------------------------------------------------------------------
// The model

const modelMachine = toModelMachine(applicationWaitMachine)
const listed = listModelEvents(applicationWaitMachine)
const typeOf = (kind: string, delay?: string) => {
  const found = listed.filter((e) => e.kind === kind && (delay === undefined || e.delay === delay))
  if (found.length !== 1 || !found[0]) throw new Error(`expected one ${kind} event ${delay ?? ''}`)
  return found[0].type
}
const ANSWERED = typeOf('actor.done')
const FAILED = typeOf('actor.error')
const POLL_DUE = typeOf('after', 'STATUS_POLL')
const TIMED_OUT = typeOf('after', 'WAIT_TIMEOUT')
if (listed.length !== 4) throw new Error('expected one invoke (done + error) and two delays')

type ModelEvent = { type: string; output?: Answer; error?: unknown }

const apiError = Object.assign(new Error('HTTP 503'), { status: 503, code: 'serviceUnavailable' })
const modelEvents: ModelEvent[] = [
  { type: 'KEEP_WAITING' },
  { type: ANSWERED, output: { status: 1, id: 42 } }, // new
  { type: ANSWERED, output: { status: 7, id: 42 } }, // verification
  { type: ANSWERED, output: null }, // no application (yet)
  { type: FAILED, error: apiError },
  { type: FAILED, error: new Error('fetch failed') },
  { type: POLL_DUE },
  { type: TIMED_OUT },
]

function serializeState(state: AnyMachineSnapshot): string {
  const c = state.context as ApplicationWaitContext
  return JSON.stringify({ value: state.value, status: c.status, answered: c.answered, error: c.errorCode })
}

const input: ApplicationWaitInput = { pollInterval: POLL, timeout: TIMEOUT }
const testModel = createTestModel(modelMachine, { events: modelEvents, serializeState, input, limit: 10_000 })

/** Invariants stated from the page's promise rather than from the machine. */
function assertInvariants(snapshot: AnyMachineSnapshot, fetchesPending: number) {
  const c = snapshot.context as ApplicationWaitContext
  // Asking exactly while fetching; never after the time-out.
  expect(fetchesPending).toBe(snapshot.matches({ waiting: 'fetching' }) ? 1 : 0)
  if (!c.answered) expect(c.status).toBeNull()
}

async function replay(path: ModelPath<ModelEvent>, recorders: Recorders) {
  const model = createActor(modelMachine, { input, inspect: recorders.model.inspect }).start()
  const live = startLive(input, { inspect: recorders.live.inspect })
  let waitStarted = 0
  let pending = 1
  const settle = async (event: ModelEvent, act: () => Promise<void>) => {
    const before = model.getSnapshot().context as ApplicationWaitContext
    const refreshes = live.calls.refreshes
    model.send(event)
    await act()
    pending = 0
    // The journey is asked to refetch exactly when the status answered something new.
    const changed =
      event.type === ANSWERED && (!before.answered || before.status !== (event.output?.status ?? null))
    expect(live.calls.refreshes).toBe(refreshes + (changed ? 1 : 0))
  }
  return replayPath({
    testModel,
    path,
    model,
    live: live.actor,
    invariants: (snapshot) => assertInvariants(snapshot, pending),
    events: {
      KEEP_WAITING: async ({ event }) => {
        const fetches = live.calls.fetches.length
        model.send(event)
        live.actor.send({ type: 'KEEP_WAITING' })
        waitStarted = live.clock.now()
        // A new wait asks at once.
        expect(live.calls.fetches.length).toBe(fetches + 1)
        pending = 1
      },
      [ANSWERED]: ({ event }) => settle(event, () => live.answer(event.output ?? null)),
      [FAILED]: ({ event }) => settle(event, () => live.fail(event.error)),
      [POLL_DUE]: async ({ event }) => {
        model.send(event)
        const fetches = live.calls.fetches.length
        live.clock.increment(POLL - 1)
        expect(live.calls.fetches.length).toBe(fetches)
        live.clock.increment(1)
        expect(live.calls.fetches.length).toBe(fetches + 1)
        pending = 1
      },
      [TIMED_OUT]: async ({ event }) => {
        model.send(event)
        const left = waitStarted + TIMEOUT - live.clock.now()
        live.clock.increment(left - 1)
        expect(live.snapshot().matches('waiting')).toBe(true)
        live.clock.increment(1)
        // Polls that fell due on the way were asked and are dropped with the wait.
        pending = 0
        const fetches = live.calls.fetches.length
        live.clock.increment(TIMEOUT * 2)
        expect(live.calls.fetches.length).toBe(fetches)
      },
    },
  })
}

describe('application wait model-based paths, replayed on the real machine', () => {
  it('reach every state node and take every transition', async () => {
    await coverEveryTransition('application-wait', {
      modelMachine,
      liveMachine,
      events: modelEvents,
      runs: [{ testModel, replay }],
    })
  })
})

describe('the wait', () => {
  it('uses the page defaults: a status every 2.5 s, a minute in all', () => {
    const live = startLive()
    expect(live.snapshot().context.pollInterval).toBe(STATUS_POLL_INTERVAL_MS)
    expect(live.snapshot().context.timeout).toBe(WAIT_TIMEOUT_MS)
    expect(WAIT_TIMEOUT_MS).toBe(60_000)
  })

  it('asks at once, then every poll interval; refreshes the journey only on a new status', async () => {
    const live = startLive({ pollInterval: POLL, timeout: TIMEOUT })
    const statuses = [1, 1, 7, 7, 3]
    for (const status of statuses) {
      expect(live.snapshot().value).toEqual({ waiting: 'fetching' })
      await live.answer({ status, id: 42 })
      expect(live.snapshot().value).toEqual({ waiting: 'pausing' })
      live.clock.increment(POLL)
    }
    expect(live.calls.fetches).toHaveLength(statuses.length + 1)
    expect(live.calls.refreshes).toBe(3)
    expect(live.snapshot().context.status).toBe(3)
  })

  it('a failed ask keeps the last status, shows its code and tries again on the next tick', async () => {
    const live = startLive({ pollInterval: POLL, timeout: TIMEOUT })
    await live.answer({ status: 7 })
    live.clock.increment(POLL)
    await live.fail(apiError)
    expect(live.snapshot().context).toMatchObject({ status: 7, errorCode: 'serviceUnavailable' })
    live.clock.increment(POLL)
    await live.answer({ status: 7 })
    expect(live.snapshot().context.errorCode).toBeNull()
    expect(live.calls.refreshes).toBe(1)
  })

  it('times out a whole wait after the timeout, however the asks go, and KEEP_WAITING waits again', async () => {
    const live = startLive({ pollInterval: POLL, timeout: 10_000 })
    for (let t = 0; t < 9; t++) {
      await live.answer({ status: 1 })
      live.clock.increment(POLL)
    }
    // 9 s in, fetching the tenth answer: the time-out drops the ask on its way.
    live.clock.increment(999)
    expect(live.snapshot().matches('waiting')).toBe(true)
    live.clock.increment(1)
    expect(live.snapshot().value).toBe('timedOut')
    await live.answer({ status: 3 })
    expect(live.calls.refreshes).toBe(1)
    const asked = live.calls.fetches.length
    live.clock.increment(60_000)
    expect(live.calls.fetches).toHaveLength(asked)

    live.actor.send({ type: 'KEEP_WAITING' })
    expect(live.snapshot().value).toEqual({ waiting: 'fetching' })
    expect(live.calls.fetches).toHaveLength(asked + 1)
    await live.answer({ status: 3 })
    expect(live.calls.refreshes).toBe(2)
  })

  it('reads an error code loosely', () => {
    expect(waitErrorCodeOf(apiError)).toBe('serviceUnavailable')
    expect(waitErrorCodeOf(new Error('x'))).toBe('error')
    expect(waitErrorCodeOf(null)).toBe('error')
  })
})
