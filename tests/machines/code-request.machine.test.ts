/**
 * The code-request statechart (machines/code-request.machine.ts): model-based paths replayed on the real machine
 * with a simulated clock, with coverage, then focused cases (the server's wait, the day limit, a throttled tab).
 *
 * The recipe of tests/support/model-coverage.ts: `toModelMachine` turns the `requestCode` actor's answers and the
 * one-second `TICK` into plain events named as XState names them, so `createTestModel` plans shortest paths over
 * the same config and implementations. The model's clock stands still (every answer arrives at NOW); the real
 * machine runs on a SimulatedClock that only the ticks advance, so each answer is shifted by the time the path
 * has spent ticking, and a tick must not fire a millisecond before its second is over.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type AnyMachineSnapshot, createActor, fromPromise, SimulatedClock } from 'xstate'
import { createTestModel } from 'xstate/graph'
import {
  type CodeRequestContext,
  type CodeRequestInput,
  type CodeSent,
  classifyCodeRequestError,
  codeRequestMachine,
  codeRequestView,
  DEFAULT_WAIT_SECONDS,
} from '../../machines/code-request.machine'
import { type Deferred, deferred, flush } from '../support/deferred'
import { listModelEvents, toModelMachine } from '../support/model-coverage'
import { coverEveryTransition, type ModelPath, type Recorders, replayPath } from '../support/model-replay'

const NOW = Date.parse('2026-11-25T06:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()

/** Failures as src/api/client.ts throws them (ApiError: status, code, and the Retry-After in seconds). */
const apiError = (status: number, code: string, retryAfterSeconds?: number) =>
  Object.assign(new Error(code), { status, code, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) })
const minuteLimit = apiError(429, 'codeMinuteLimit')
const minuteLimitWithWait = apiError(429, 'codeMinuteLimit', 2)
const addressLimitWithWait = apiError(429, 'tooManyRequests', 3)
const addressLimit = apiError(429, 'tooManyRequests')
const dayLimit = apiError(429, 'codeDayLimit', 3600)
const outdated = apiError(409, 'documentsOutdated')
const network = new Error('fetch failed')

// ---------------------------------------------------------------------------------------------------------
// The real machine under control

let requests: Deferred<CodeSent | null | undefined>[] = []
const liveMachine = codeRequestMachine.provide({
  actors: {
    requestCode: fromPromise<CodeSent | null | undefined>(() => {
      const d = deferred<CodeSent | null | undefined>()
      requests.push(d)
      return d.promise
    }),
  },
})

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

function startLive(input: Omit<CodeRequestInput, 'now'>, inspect?: Parameters<typeof createActor>[1]) {
  const own: Deferred<CodeSent | null | undefined>[] = []
  requests = own
  const clock = new SimulatedClock()
  const now = () => NOW + clock.now()
  const actor = createActor(liveMachine, { ...inspect, clock, input: { ...input, now } }).start()
  stops.push(() => actor.stop())
  return {
    actor,
    clock,
    now,
    requests: own,
    snapshot: () => actor.getSnapshot(),
    context: () => actor.getSnapshot().context,
    /**
     * Moves the clock. SimulatedClock runs a timer scheduled while it flushes only on its next move, where a
     * browser runs a 0 ms timer at once: so flush again until the catch-up ticks are done.
     */
    advance(ms: number) {
      clock.increment(ms)
      for (let i = 0; i < 100; i++) clock.increment(0)
    },
    async answer(output: CodeSent | null | undefined) {
      own.at(-1)?.resolve(output)
      await flush()
    },
    async fail(error: unknown) {
      own.at(-1)?.reject(error)
      await flush()
    },
  }
}

// ---------------------------------------------------------------------------------------------------------
// The model

const modelMachine = toModelMachine(codeRequestMachine)
const listed = listModelEvents(codeRequestMachine)
const typeOf = (kind: string) => {
  const found = listed.filter((e) => e.kind === kind)
  if (found.length !== 1 || !found[0]) throw new Error(`expected one ${kind} event`)
  return found[0].type
}
const SENT = typeOf('actor.done')
const REFUSED = typeOf('actor.error')
const TICK = typeOf('after')

type ModelEvent = { type: string; output?: CodeSent | null; error?: unknown }

const modelEvents: ModelEvent[] = [
  { type: 'SEND' },
  { type: SENT, output: { nextCodeAt: iso(NOW + 3000) } },
  { type: SENT, output: { nextCodeAt: iso(NOW - 1000) } }, // a clock behind the server's: ready at once
  // The 60-second defaults (no nextCodeAt, a minute limit without Retry-After) are focused cases below: as
  // model events they only add 60 states each.
  { type: REFUSED, error: minuteLimitWithWait },
  { type: REFUSED, error: addressLimitWithWait },
  { type: REFUSED, error: addressLimit },
  { type: REFUSED, error: dayLimit },
  { type: REFUSED, error: outdated },
  { type: REFUSED, error: network },
  { type: TICK },
]

/** What changes what may happen next; `now` and the absolute `retryAt` do not. */
function serializeState(state: AnyMachineSnapshot): string {
  const c = state.context as CodeRequestContext
  return JSON.stringify({
    value: state.value,
    secondsLeft: c.secondsLeft,
    sent: c.sent,
    sends: Math.min(c.sends, 1),
    problem: c.problem,
  })
}

const modelInput = (input: Omit<CodeRequestInput, 'now'>): CodeRequestInput => ({ ...input, now: () => NOW })
const createModel = (input: Omit<CodeRequestInput, 'now'>) =>
  createTestModel(modelMachine, {
    events: modelEvents,
    serializeState,
    input: modelInput(input),
    limit: 20_000,
  })
type Model = ReturnType<typeof createModel>

/** Stated from the product rules, not read off the machine. */
function assertInvariants(snapshot: AnyMachineSnapshot) {
  const c = snapshot.context as CodeRequestContext
  const view = codeRequestView(snapshot as never)
  // The button never asks for a code while the server would refuse it for the wait, nor while asking.
  if (view.canSend) expect(c.secondsLeft).toBe(0)
  if (snapshot.matches('waiting')) {
    expect(view.canSend).toBe(false)
    expect(c.secondsLeft).toBeGreaterThan(0)
    expect(c.secondsLeft).toBeLessThanOrEqual(DEFAULT_WAIT_SECONDS)
  }
  if (snapshot.matches('sending')) expect(view.canSend).toBe(false)
  // The day limit is never waited out on the page, and always says so.
  if (snapshot.matches('dayLimit')) {
    expect(view.canSend).toBe(false)
    expect(c.problem).toEqual({ kind: 'dayLimit' })
  }
  if (c.problem?.kind === 'minuteLimit') expect(snapshot.matches('waiting')).toBe(true)
  if (snapshot.matches('failed')) expect(c.problem?.kind).toBe('failed')
  if (snapshot.matches('idle')) expect(c.sent).toBe(false)
  // "A new code is on its way" only after this screen's own request succeeded.
  if (view.justSent) expect(c.sends).toBeGreaterThan(0)
}

/** The live context as the model sees it: no clock, and `retryAt` as if the answer had come at NOW. */
function comparable(context: CodeRequestContext, offset: number) {
  const { now: _now, ...rest } = context
  return { ...rest, retryAt: rest.retryAt === null ? null : rest.retryAt - offset }
}

async function replay(
  testModel: Model,
  path: ModelPath<ModelEvent>,
  input: Omit<CodeRequestInput, 'now'>,
  recorders: Recorders,
): Promise<AnyMachineSnapshot[]> {
  const model = createActor(modelMachine, {
    input: modelInput(input),
    inspect: recorders.model.inspect,
  }).start()
  const live = startLive(input, { inspect: recorders.live.inspect })
  const offset = () => live.clock.now()
  // How late on the real clock the last answer came (the model's answers all come at NOW): its retryAt is as late.
  let shift = 0
  return replayPath({
    testModel,
    path,
    model,
    live: live.actor,
    invariants: assertInvariants,
    expectSameContext: (actual, expected) =>
      expect(comparable(actual, shift)).toEqual(comparable(expected, 0)),
    events: {
      SEND: ({ event }: { event: ModelEvent }) => {
        const before = live.requests.length
        model.send(event)
        live.actor.send({ type: 'SEND' })
        // SEND makes exactly one request, and only when the button is there.
        expect(live.requests.length).toBe(before + (model.getSnapshot().matches('sending') ? 1 : 0))
      },
      [SENT]: async ({ event }: { event: ModelEvent }) => {
        model.send(event)
        shift = offset()
        const output = event.output?.nextCodeAt
          ? { nextCodeAt: iso(Date.parse(event.output.nextCodeAt) + offset()) }
          : event.output
        await live.answer(output)
      },
      [REFUSED]: async ({ event }: { event: ModelEvent }) => {
        model.send(event)
        shift = offset()
        await live.fail(event.error)
      },
      [TICK]: () => {
        const before = live.context()
        model.send(event(TICK))
        // A tick comes when the shown second is over: one second after the last, never a millisecond early.
        const due = (before.retryAt ?? 0) - live.now() - (before.secondsLeft - 1) * 1000
        expect(due).toBe(1000)
        live.clock.increment(due - 1)
        expect(live.context().secondsLeft).toBe(before.secondsLeft)
        expect(live.snapshot().value).toBe('waiting')
        live.clock.increment(1)
      },
    },
  })
}

const event = (type: string): ModelEvent => ({ type })

const inputs: Omit<CodeRequestInput, 'now'>[] = [
  {}, // the agreement: nothing sent yet
  { sent: true, retryAt: NOW + 2000 }, // sign-up, login, the change forms: sent, wait for the server's time
  { sent: true, retryAt: null }, // sent, no time given (a login whose code the limit held back)
  { sent: true, retryAt: NOW - 1 }, // sent, the wait already over
  { retryAt: NOW + 2000, limited: true }, // a change form's first request refused for the wait
  { retryAt: NOW - 1, limited: true }, // ... whose wait is already over
]

describe('code request model-based paths, replayed on the real machine', () => {
  it('reach every state node and take every transition', async () => {
    await coverEveryTransition('code-request', {
      modelMachine,
      liveMachine,
      events: modelEvents,
      runs: inputs.map((input) => {
        const testModel = createModel(input)
        return { testModel, replay: (path, recorders) => replay(testModel, path, input, recorders) }
      }),
    })
  })
})

// ---------------------------------------------------------------------------------------------------------

describe('asking for a code', () => {
  it('starts idle when nothing was sent; SEND asks once; the answer starts the countdown from nextCodeAt', async () => {
    const live = startLive({})
    expect(live.snapshot().value).toBe('idle')
    expect(codeRequestView(live.snapshot())).toMatchObject({ canSend: true, sent: false })
    live.actor.send({ type: 'SEND' })
    live.actor.send({ type: 'SEND' })
    expect(live.requests).toHaveLength(1)
    expect(codeRequestView(live.snapshot())).toMatchObject({ canSend: false, sending: true })
    await live.answer({ nextCodeAt: iso(NOW + 60_000) })
    expect(codeRequestView(live.snapshot())).toMatchObject({
      canSend: false,
      waiting: true,
      secondsLeft: 60,
      sent: true,
      justSent: true,
    })
    live.advance(59_999)
    expect(live.context().secondsLeft).toBe(1)
    live.advance(1)
    expect(live.snapshot().value).toBe('ready')
    expect(codeRequestView(live.snapshot())).toMatchObject({ canSend: true, secondsLeft: 0 })
  })

  it('a step whose code was already sent waits for the time the server gave, then offers a new one', () => {
    const live = startLive({ sent: true, retryAt: NOW + 42_500 })
    expect(codeRequestView(live.snapshot())).toMatchObject({ waiting: true, secondsLeft: 43, sent: true })
    expect(codeRequestView(live.snapshot()).justSent).toBe(false)
    live.advance(499)
    expect(live.context().secondsLeft).toBe(43)
    live.advance(1)
    expect(live.context().secondsLeft).toBe(42)
    live.advance(42_000)
    expect(live.snapshot().value).toBe('ready')
  })

  it('a 429 minute limit (the signing code right after the sign-up SMS) counts down, then offers the button', async () => {
    const live = startLive({})
    live.actor.send({ type: 'SEND' })
    await live.fail(apiError(429, 'codeMinuteLimit', 37))
    expect(codeRequestView(live.snapshot())).toMatchObject({
      waiting: true,
      secondsLeft: 37,
      sent: false,
      justSent: false,
      problem: { kind: 'minuteLimit' },
    })
    live.advance(37_000)
    expect(codeRequestView(live.snapshot())).toMatchObject({ canSend: true, problem: null, sent: false })
    live.actor.send({ type: 'SEND' })
    await live.answer({ nextCodeAt: iso(live.now() + 60_000) })
    expect(codeRequestView(live.snapshot())).toMatchObject({ secondsLeft: 60, sent: true, justSent: true })
  })

  it('without a Retry-After, the minute limit waits the server’s minute', async () => {
    const live = startLive({})
    live.actor.send({ type: 'SEND' })
    await live.fail(minuteLimit)
    expect(live.context().secondsLeft).toBe(DEFAULT_WAIT_SECONDS)
  })

  it('the day limit says so and offers no button, whatever Retry-After says', async () => {
    const live = startLive({ sent: true })
    live.actor.send({ type: 'SEND' })
    await live.fail(dayLimit)
    expect(live.snapshot().value).toBe('dayLimit')
    expect(codeRequestView(live.snapshot())).toMatchObject({ canSend: false, problem: { kind: 'dayLimit' } })
    live.advance(7_200_000)
    live.actor.send({ type: 'SEND' })
    expect(live.requests).toHaveLength(1)
  })

  it('any other failure keeps the button and names the error', async () => {
    const live = startLive({})
    live.actor.send({ type: 'SEND' })
    await live.fail(outdated)
    expect(codeRequestView(live.snapshot())).toMatchObject({
      canSend: true,
      problem: { kind: 'failed', key: 'documentsOutdated' },
    })
    live.actor.send({ type: 'SEND' })
    expect(live.requests).toHaveLength(2)
    expect(live.context().problem).toBeNull()
  })

  it('a tab the browser throttled catches up with the clock instead of counting slow', async () => {
    const live = startLive({})
    live.actor.send({ type: 'SEND' })
    await live.answer({ nextCodeAt: iso(NOW + 60_000) })
    // The first tick is scheduled for +1 s; the tab sleeps and the clock jumps 40 s before it runs.
    live.advance(40_000)
    expect(live.context().secondsLeft).toBe(20)
    live.advance(20_000)
    expect(live.snapshot().value).toBe('ready')
  })

  it('reads the API client’s failures', () => {
    expect(classifyCodeRequestError(apiError(429, 'codeMinuteLimit', 12), NOW)).toEqual({
      problem: { kind: 'minuteLimit' },
      retryAt: NOW + 12_000,
    })
    expect(classifyCodeRequestError(apiError(429, 'tooManyRequests', 5), NOW).retryAt).toBe(NOW + 5000)
    expect(classifyCodeRequestError(apiError(429, 'tooManyRequests'), NOW).problem).toEqual({
      kind: 'failed',
      key: 'tooManyRequests',
    })
    // A Retry-After on anything but a 429 is not a wait the code screen can count.
    expect(classifyCodeRequestError(apiError(503, 'serviceUnavailable', 5), NOW).problem.kind).toBe('failed')
    expect(classifyCodeRequestError('boom', NOW).problem).toEqual({ kind: 'failed', key: 'error' })
  })
})
