/**
 * The payment-watch statechart (machines/payment-watch.machine.ts): model-based paths replayed on the real
 * machine with a simulated clock, with coverage, then focused cases and `changesOf`.
 *
 * The recipe of tests/support/model-coverage.ts: `toModelMachine` turns the `fetchLoanFacts` answers and the POLL
 * delay into plain events, `createTestModel` plans shortest paths over them, and each path is replayed on the
 * real machine (an answer settles the pending call, POLL advances the clock to the delay's end and not a
 * millisecond less). After every step the real snapshot must equal the model's, and `reportChanges` must have
 * run with exactly the payments the page should announce.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type AnyMachineSnapshot, createActor, fromPromise, SimulatedClock } from 'xstate'
import { createTestModel } from 'xstate/graph'
import {
  changesOf,
  type LoanChanges,
  type LoanFacts,
  PAYMENT_POLL_INTERVAL_MS,
  type PaymentWatchContext,
  type PaymentWatchInput,
  paymentWatchMachine,
  watchErrorCodeOf,
} from '../../machines/payment-watch.machine'
import { type Deferred, deferred, flush } from '../support/deferred'
import { listModelEvents, toModelMachine } from '../support/model-coverage'
import { coverEveryTransition, type ModelPath, type Recorders, replayPath } from '../support/model-replay'

// Three moments of one loan: owed in full; after a partial payment of ₱2 250; repaid by a second payment.
const owing: LoanFacts = { loan: { id: 9, amountDue: 525_000, credit: 0 }, payments: [] }
const partlyPaid: LoanFacts = {
  loan: { id: 9, amountDue: 300_000, credit: 0 },
  payments: [{ id: 31, amount: 225_000, status: 'posted' }],
}
const repaid: LoanFacts = {
  loan: null,
  payments: [
    { id: 32, amount: 300_000, status: 'posted' },
    { id: 31, amount: 225_000, status: 'posted' },
  ],
}

let calls: { fetches: Deferred<LoanFacts>[]; reports: LoanChanges[] } = { fetches: [], reports: [] }
const liveMachine = paymentWatchMachine.provide({
  actors: {
    fetchLoanFacts: fromPromise<LoanFacts>(() => {
      const d = deferred<LoanFacts>()
      calls.fetches.push(d)
      return d.promise
    }),
  },
  actions: {
    reportChanges: (_, changes: LoanChanges) => {
      calls.reports.push(changes)
    },
  },
})

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

const POLL = 1_000

function startLive(input: PaymentWatchInput = {}, inspect?: Parameters<typeof createActor>[1]) {
  const own = { fetches: [] as Deferred<LoanFacts>[], reports: [] as LoanChanges[] }
  calls = own
  const clock = new SimulatedClock()
  const actor = createActor(liveMachine, { ...inspect, clock, input }).start()
  stops.push(() => actor.stop())
  return {
    actor,
    clock,
    calls: own,
    snapshot: () => actor.getSnapshot(),
    async answer(answer: LoanFacts) {
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

const modelMachine = toModelMachine(paymentWatchMachine)
const listed = listModelEvents(paymentWatchMachine)
const typeOf = (kind: string) => {
  const found = listed.filter((e) => e.kind === kind)
  if (found.length !== 1 || !found[0]) throw new Error(`expected one ${kind} event`)
  return found[0].type
}
const ANSWERED = typeOf('actor.done')
const FAILED = typeOf('actor.error')
const POLL_DUE = typeOf('after')
if (listed.length !== 3) throw new Error('expected one invoke (done + error) and one delay')

type ModelEvent = { type: string; output?: LoanFacts; error?: unknown }

const apiError = Object.assign(new Error('HTTP 503'), { status: 503, code: 'serviceUnavailable' })
const modelEvents: ModelEvent[] = [
  { type: 'REFRESH' },
  { type: ANSWERED, output: owing },
  { type: ANSWERED, output: partlyPaid },
  { type: ANSWERED, output: repaid },
  { type: FAILED, error: apiError },
  { type: POLL_DUE },
]

function serializeState(state: AnyMachineSnapshot): string {
  const c = state.context as PaymentWatchContext
  return JSON.stringify({ value: state.value, facts: c.facts, error: c.errorCode })
}

const input: PaymentWatchInput = { pollInterval: POLL }
const testModel = createTestModel(modelMachine, { events: modelEvents, serializeState, input, limit: 10_000 })

async function replay(path: ModelPath<ModelEvent>, recorders: Recorders) {
  const model = createActor(modelMachine, { input, inspect: recorders.model.inspect }).start()
  const live = startLive(input, { inspect: recorders.live.inspect })
  let pending = 1
  const settle = async (event: ModelEvent, act: () => Promise<void>) => {
    const before = (model.getSnapshot().context as PaymentWatchContext).facts
    const reports = live.calls.reports.length
    model.send(event)
    await act()
    pending = 0
    if (event.type === ANSWERED && event.output) {
      // Every answer is compared with the one before; the first is the baseline and announces nothing.
      expect(live.calls.reports.slice(reports)).toEqual([changesOf(before, event.output)])
    } else expect(live.calls.reports).toHaveLength(reports)
  }
  return replayPath({
    testModel,
    path,
    model,
    live: live.actor,
    invariants: (snapshot) => {
      // Asking exactly while fetching; never once closed.
      expect(pending).toBe(snapshot.matches({ watching: 'fetching' }) ? 1 : 0)
      if (snapshot.matches('closed')) expect((snapshot.context as PaymentWatchContext).facts?.loan).toBeNull()
    },
    events: {
      REFRESH: async ({ event }) => {
        const fetches = live.calls.fetches.length
        model.send(event)
        live.actor.send({ type: 'REFRESH' })
        expect(live.calls.fetches.length).toBe(fetches + 1)
        pending = 1
      },
      [ANSWERED]: ({ event }) => settle(event, () => live.answer(event.output as LoanFacts)),
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
    },
  })
}

describe('payment watch model-based paths, replayed on the real machine', () => {
  it('reach every state node and take every transition', async () => {
    await coverEveryTransition('payment-watch', {
      modelMachine,
      liveMachine,
      events: modelEvents,
      runs: [{ testModel, replay }],
    })
  })
})

describe('the watch', () => {
  it('asks every 5 s by default', () => {
    expect(PAYMENT_POLL_INTERVAL_MS).toBe(5_000)
    expect(startLive().snapshot().context.pollInterval).toBe(PAYMENT_POLL_INTERVAL_MS)
  })

  it('announces each payment once, as it posts, and stops asking when the loan is repaid', async () => {
    const live = startLive({ pollInterval: POLL })
    await live.answer(owing)
    expect(live.calls.reports).toEqual([{ received: [], figuresChanged: false }])
    live.clock.increment(POLL)
    await live.answer(owing)
    live.clock.increment(POLL)
    await live.answer(partlyPaid)
    live.clock.increment(POLL)
    await live.answer(partlyPaid)
    live.clock.increment(POLL)
    await live.answer(repaid)
    expect(live.calls.reports.filter((r) => r.received.length).map((r) => r.received)).toEqual([
      [{ id: 31, amount: 225_000, status: 'posted' }],
      [{ id: 32, amount: 300_000, status: 'posted' }],
    ])
    expect(live.snapshot().value).toBe('closed')
    const asked = live.calls.fetches.length
    live.clock.increment(POLL * 10)
    expect(live.calls.fetches).toHaveLength(asked)
  })

  it('a failed ask keeps the last answer, says why, and tries again on the next tick', async () => {
    const live = startLive({ pollInterval: POLL })
    await live.answer(owing)
    live.clock.increment(POLL)
    await live.fail(apiError)
    expect(live.snapshot().context).toMatchObject({ facts: owing, errorCode: 'serviceUnavailable' })
    live.clock.increment(POLL)
    await live.answer(partlyPaid)
    expect(live.snapshot().context.errorCode).toBeNull()
    expect(live.calls.reports.at(-1)?.received.map((p) => p.id)).toEqual([31])
  })
})

describe('changesOf', () => {
  const payment = (id: number, status = 'posted', amount = 10_000) => ({ id, amount, status })
  const facts = (payments: LoanFacts['payments'], amountDue = 100_000, credit = 0): LoanFacts => ({
    loan: { id: 1, amountDue, credit },
    payments,
  })

  it('the first answer is the baseline', () => {
    expect(changesOf(null, facts([payment(1)]))).toEqual({ received: [], figuresChanged: false })
  })

  it('new posted payments, oldest first; unmatched and reversed ones are not received', () => {
    const changes = changesOf(
      facts([payment(1)]),
      facts([payment(4), payment(3, 'unmatched'), payment(2), payment(1)], 80_000),
    )
    expect(changes.received.map((p) => p.id)).toEqual([2, 4])
    expect(changes.figuresChanged).toBe(true)
  })

  it('an unmatched payment the back office assigned counts when it posts', () => {
    const changes = changesOf(facts([payment(3, 'unmatched')]), facts([payment(3)], 90_000))
    expect(changes.received.map((p) => p.id)).toEqual([3])
  })

  it('a payment that only fell off the previous page is not news', () => {
    const before = facts([payment(9), payment(8)])
    expect(changesOf(before, facts([payment(9), payment(8), payment(7)])).received).toEqual([])
  })

  it('a change of the figures without a payment (interest booked, a credit refunded) refreshes only', () => {
    expect(changesOf(facts([]), facts([], 100_500))).toEqual({ received: [], figuresChanged: true })
    expect(changesOf(facts([], 0, 500), facts([], 0, 0))).toEqual({ received: [], figuresChanged: true })
    expect(changesOf(facts([]), facts([]))).toEqual({ received: [], figuresChanged: false })
  })

  it('reads an error code loosely', () => {
    expect(watchErrorCodeOf(apiError)).toBe('serviceUnavailable')
    expect(watchErrorCodeOf(new Error('x'))).toBe('error')
    expect(watchErrorCodeOf(null)).toBe('error')
  })
})
