/**
 * Accepting a payment-schedule special offer (machines/schedule-offer.machine.ts): model-based paths replayed on
 * the real machine with coverage of every state node and transition, then focused cases.
 *
 * The recipe of tests/support/model-coverage.ts: `toModelMachine` turns the answers of the two actors (load the
 * offer, accept it with the code) into plain events, `createTestModel` plans shortest paths over them, and each
 * path is replayed on the real machine with every actor a promise the test settles. After every step the real
 * snapshot must equal the model's, each call must carry the offer opened (and the code typed), and a call is on its
 * way exactly while the flow waits for one.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type AnyMachineSnapshot, createActor, fromPromise, type InspectionEvent } from 'xstate'
import { createTestModel } from 'xstate/graph'
import type { PaymentSchedule, ScheduleOffer } from '../../domain/contract/servicing-answers'
import {
  type AcceptInput,
  isBusy,
  problemOf,
  type ScheduleOfferContext,
  type ScheduleOfferEvent,
  scheduleOfferMachine,
  stepOf,
} from '../../machines/schedule-offer.machine'
import {
  MONTHLY_ID,
  monthlyOffer,
  SEMI_MONTHLY_ID,
  scheduleDocuments,
  scheduleInForce,
} from '../features/repayment/schedule-fixtures'
import { type Deferred, deferred, flush } from '../support/deferred'
import { listModelEvents, toModelMachine } from '../support/model-coverage'
import { coverEveryTransition, type ModelPath, type Recorders, replayPath } from '../support/model-replay'

// ---------------------------------------------------------------------------------------------------------
// The real machine under control

interface Calls {
  load: { input: { offerId: number }; deferred: Deferred<ScheduleOffer> }[]
  accept: { input: AcceptInput; deferred: Deferred<PaymentSchedule> }[]
}
const noCalls = (): Calls => ({ load: [], accept: [] })

let calls: Calls = noCalls()
function recorded<I, O>(list: (c: Calls) => { input: I; deferred: Deferred<O> }[]) {
  return fromPromise<O, I>(({ input }) => {
    const d = deferred<O>()
    list(calls).push({ input, deferred: d })
    return d.promise
  })
}
const liveMachine = scheduleOfferMachine.provide({
  actors: { loadOffer: recorded((c) => c.load), acceptOffer: recorded((c) => c.accept) },
})

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

const conflict = (code: string, message: string) =>
  Object.assign(new Error(message), { status: 409, code, path: '/web/x', violations: [] })
const wrongCode = Object.assign(new Error('Phone verification not passed'), {
  status: 422,
  code: 'codeIncorrect',
})
const serverDown = Object.assign(new Error('Bad gateway'), { status: 502, code: 'error' })

function startLive(inspect?: (event: InspectionEvent) => void) {
  const own = noCalls()
  calls = own
  const actor = createActor(liveMachine, { inspect }).start()
  stops.push(() => actor.stop())
  const settle = async <O>(list: { deferred: Deferred<O> }[], outcome: { output?: O; error?: unknown }) => {
    const last = list.at(-1)
    if (!last) throw new Error('no call to settle')
    if ('error' in outcome) last.deferred.reject(outcome.error)
    else last.deferred.resolve(outcome.output as O)
    await flush()
  }
  return {
    actor,
    calls: own,
    snapshot: () => actor.getSnapshot(),
    send: (event: ScheduleOfferEvent) => actor.send(event),
    settle,
  }
}

// ---------------------------------------------------------------------------------------------------------
// The model

const modelMachine = toModelMachine(scheduleOfferMachine)
const listed = listModelEvents(scheduleOfferMachine)
const typeOf = (src: string, kind: 'actor.done' | 'actor.error') => {
  const found = listed.filter((e) => e.kind === kind && e.src === src)
  if (found.length !== 1 || !found[0]) throw new Error(`expected one ${kind} event for ${src}`)
  return found[0].type
}
const LOADED = typeOf('loadOffer', 'actor.done')
const LOAD_FAILED = typeOf('loadOffer', 'actor.error')
const ACCEPTED = typeOf('acceptOffer', 'actor.done')
const ACCEPT_FAILED = typeOf('acceptOffer', 'actor.error')
if (listed.length !== 4) throw new Error('expected two invokes with done and error each')

type ModelEvent = { type: string; [key: string]: unknown }

const refusedToday = monthlyOffer({ available: false, reason: 'The schedule would break the legal cap.' })

const modelEvents: ModelEvent[] = [
  { type: 'OPEN', offerId: MONTHLY_ID },
  { type: 'RETRY' },
  { type: 'CANCEL' },
  { type: 'CONTINUE' },
  { type: 'BACK' },
  { type: 'DOCUMENTS', documents: scheduleDocuments },
  { type: 'SIGN', code: '123' },
  { type: LOADED, output: monthlyOffer() },
  { type: LOADED, output: refusedToday },
  { type: LOAD_FAILED, error: serverDown },
  { type: ACCEPTED, output: scheduleInForce() },
  { type: ACCEPT_FAILED, error: wrongCode },
  { type: ACCEPT_FAILED, error: conflict('documentsChanged', 'The figures changed since the documents.') },
]

/** The state value and the facts that change what can happen next. */
function serializeState(state: AnyMachineSnapshot): string {
  const c = state.context as ScheduleOfferContext
  return JSON.stringify({
    value: state.value,
    offerId: c.offerId,
    available: c.offer?.available ?? null,
    documents: c.documents.length,
    problem: c.problem?.code ?? null,
    schedule: c.schedule?.id ?? null,
  })
}

const testModel = createTestModel(modelMachine, { events: modelEvents, serializeState, limit: 20_000 })

const calling: Record<string, keyof Calls> = { loading: 'load', verifying: 'accept' }
const callKinds = Object.keys(noCalls()) as (keyof Calls)[]

/** The call the flow waits for in this snapshot, if any. */
const waitingFor = (snapshot: AnyMachineSnapshot) =>
  Object.entries(calling).find(([state]) => snapshot.matches(state))?.[1]

/** Invariants stated from the flow's rules rather than from the machine. */
function assertInvariants(snapshot: AnyMachineSnapshot) {
  const c = snapshot.context as ScheduleOfferContext
  const s = snapshot as Parameters<typeof isBusy>[0]
  expect(isBusy(s)).toBe(waitingFor(snapshot) !== undefined)
  // Only an offer the decision allows today is signed; closed forgets everything.
  if (stepOf(s) === 'sign') expect(c.offer?.available).toBe(true)
  if (stepOf(s) !== null) expect(c.offer?.id).toBe(c.offerId)
  if (snapshot.matches('closed'))
    expect(c).toEqual({ offerId: null, offer: null, documents: [], schedule: null, problem: null })
  if (snapshot.matches('accepted')) expect(c.schedule?.status).toBe('active')
  else expect(c.schedule).toBeNull()
  if (snapshot.matches('loadFailed')) expect(c.problem).not.toBeNull()
}

const actorEvents = new Set([LOADED, LOAD_FAILED, ACCEPTED, ACCEPT_FAILED])

async function replay(path: ModelPath<ModelEvent>, recorders: Recorders): Promise<AnyMachineSnapshot[]> {
  const model = createActor(modelMachine, { inspect: recorders.model.inspect }).start()
  const live = startLive(recorders.live.inspect)
  const counts = () =>
    Object.fromEntries(callKinds.map((kind) => [kind, live.calls[kind].length])) as Record<
      keyof Calls,
      number
    >
  for (const kind of callKinds) expect(counts()[kind]).toBe(0)

  /**
   * One step: the model takes the event, the live actor is caused to take it; a call starts exactly when the
   * flow comes to wait for one, and carries the offer opened and the code typed.
   */
  const step = async ({ event }: { event: ModelEvent }) => {
    const before = counts()
    const waitedFor = waitingFor(model.getSnapshot())
    model.send(event)
    if (actorEvents.has(event.type)) {
      const list = live.calls[waitedFor as keyof Calls] as { deferred: Deferred<unknown> }[]
      await live.settle(list, 'error' in event ? { error: event.error } : { output: event.output })
    } else live.send(event as ScheduleOfferEvent)
    const waiting = waitingFor(model.getSnapshot())
    const started = waiting && (actorEvents.has(event.type) || waiting !== waitedFor) ? waiting : undefined
    const after = counts()
    for (const kind of callKinds)
      expect(after[kind], `${kind} calls after ${event.type}`).toBe(before[kind] + (kind === started ? 1 : 0))
    const flow = model.getSnapshot().context as ScheduleOfferContext
    if (started === 'load') expect(live.calls.load.at(-1)?.input).toEqual({ offerId: flow.offerId })
    if (started === 'accept')
      expect(live.calls.accept.at(-1)?.input).toEqual({ offerId: flow.offerId, code: event.code })
  }

  const types = [...new Set(modelEvents.map((e) => e.type))]
  return replayPath({
    testModel,
    path,
    model,
    live: live.actor,
    invariants: assertInvariants,
    events: Object.fromEntries(types.map((type) => [type, step])),
  })
}

describe('schedule offer model-based paths, replayed on the real machine', () => {
  it('reach every state node and take every transition', async () => {
    await coverEveryTransition('schedule-offer', {
      modelMachine,
      liveMachine,
      events: modelEvents,
      runs: [{ testModel, replay }],
    })
  }, 60_000)
})

// ---------------------------------------------------------------------------------------------------------

describe('accepting an offer', () => {
  it('open, review, send the code, sign: the calls carry the offer and the code', async () => {
    const live = startLive()
    expect(live.snapshot().value).toBe('closed')
    live.send({ type: 'OPEN', offerId: MONTHLY_ID })
    expect(live.calls.load.map((c) => c.input)).toEqual([{ offerId: MONTHLY_ID }])
    expect(isBusy(live.snapshot())).toBe(true)
    await live.settle(live.calls.load, { output: monthlyOffer() })
    expect(stepOf(live.snapshot())).toBe('review')
    live.send({ type: 'CONTINUE' })
    expect(stepOf(live.snapshot())).toBe('sign')
    live.send({ type: 'DOCUMENTS', documents: scheduleDocuments })
    expect(live.snapshot().context.documents).toHaveLength(2)
    live.send({ type: 'SIGN', code: '456' })
    expect(live.calls.accept.map((c) => c.input)).toEqual([{ offerId: MONTHLY_ID, code: '456' }])
    await live.settle(live.calls.accept, { output: scheduleInForce() })
    expect(live.snapshot().value).toBe('accepted')
    expect(live.snapshot().status).toBe('done')
    expect(live.snapshot().context.schedule?.payments).toHaveLength(2)
  })

  it('documents rendered before are shown on the review', async () => {
    const live = startLive()
    live.send({ type: 'OPEN', offerId: MONTHLY_ID })
    await live.settle(live.calls.load, { output: monthlyOffer({ documents: scheduleDocuments }) })
    expect(live.snapshot().context.documents.map((d) => d.id)).toEqual([601, 602])
  })

  it('an offer the decision refuses today is reviewed but cannot be signed', async () => {
    const live = startLive()
    live.send({ type: 'OPEN', offerId: MONTHLY_ID })
    await live.settle(live.calls.load, { output: refusedToday })
    live.send({ type: 'CONTINUE' })
    expect(live.snapshot().value).toBe('reviewing')
    expect(live.snapshot().context.offer?.reason).toBe('The schedule would break the legal cap.')
  })

  it('a wrong code stays on signing with its code; a 409 keeps its message', async () => {
    const live = startLive()
    live.send({ type: 'OPEN', offerId: MONTHLY_ID })
    await live.settle(live.calls.load, { output: monthlyOffer() })
    live.send({ type: 'CONTINUE' })
    live.send({ type: 'SIGN', code: '999' })
    await live.settle(live.calls.accept, { error: wrongCode })
    expect(live.snapshot().value).toBe('signing')
    expect(live.snapshot().context.problem).toEqual({ code: 'codeIncorrect', message: null })
    live.send({ type: 'SIGN', code: '123' })
    expect(live.snapshot().context.problem).toBeNull()
    await live.settle(live.calls.accept, {
      error: conflict('scheduleNotAvailable', 'This offer is no longer open.'),
    })
    expect(live.snapshot().context.problem).toEqual({
      code: 'scheduleNotAvailable',
      message: 'This offer is no longer open.',
    })
  })

  it('a failed load can be retried or closed; closing forgets the offer', async () => {
    const live = startLive()
    live.send({ type: 'OPEN', offerId: SEMI_MONTHLY_ID })
    await live.settle(live.calls.load, { error: serverDown })
    expect(live.snapshot().value).toBe('loadFailed')
    live.send({ type: 'RETRY' })
    expect(live.calls.load.map((c) => c.input)).toEqual([
      { offerId: SEMI_MONTHLY_ID },
      { offerId: SEMI_MONTHLY_ID },
    ])
    await live.settle(live.calls.load, { error: serverDown })
    live.send({ type: 'CANCEL' })
    expect(live.snapshot().value).toBe('closed')
    expect(live.snapshot().context.offerId).toBeNull()
  })

  it('reads a failure loosely', () => {
    expect(problemOf(conflict('x', 'Refused.'))).toEqual({ code: 'x', message: 'Refused.' })
    expect(problemOf(wrongCode)).toEqual({ code: 'codeIncorrect', message: null })
    expect(problemOf(null)).toEqual({ code: 'error', message: null })
  })
})
