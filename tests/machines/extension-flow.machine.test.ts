/**
 * The extension flow's statechart (machines/extension-flow.machine.ts): model-based paths replayed on the real
 * machine with coverage, then focused cases and the pure rules (`startOf`, `bestChoice`, `problemOf`).
 *
 * The recipe of tests/support/model-coverage.ts: `toModelMachine` turns the answers of the four actors (choose,
 * application, sign, payment intention) into plain events, `createTestModel` plans shortest paths over them from
 * several starting loans (one per way `opening` leaves: choose, resume a chosen one, resume a signed one, already
 * in effect, nothing available), and each path is replayed on the real machine with every actor a promise the
 * test settles. After every step the real snapshot must equal the model's, each call must carry what the client
 * chose, and a call is on its way exactly while the flow waits for one.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type AnyMachineSnapshot, createActor, fromPromise, type InspectionEvent } from 'xstate'
import { createTestModel } from 'xstate/graph'
import type { PaymentIntention } from '../../domain/contract/payments'
import type { Rollover, RolloverApplication } from '../../domain/contract/servicing-answers'
import type { ExtensionType } from '../../domain/loan/servicing-config'
import type { PaymentChannelCode } from '../../domain/payments/channels'
import {
  type ApplicationRef,
  bestChoice,
  type ExtensionFlowContext,
  type ExtensionFlowEvent,
  type ExtensionFlowInput,
  extensionFlowMachine,
  extensionOptions,
  isBusy,
  problemOf,
  type SignInput,
  startOf,
  stepOf,
} from '../../machines/extension-flow.machine'
import {
  APPLICATION_ID,
  applicationOf,
  applied,
  cheap,
  cheapAgain,
  chosen,
  DUE_DATE,
  documents,
  expensive,
  expensiveAgain,
  expired,
  inEffect,
  intentionOf,
  LOAN_ID,
  maxCount,
  refused,
  signed,
} from '../features/extension/fixtures'
import { type Deferred, deferred, flush } from '../support/deferred'
import { listModelEvents, toModelMachine } from '../support/model-coverage'
import { coverEveryTransition, type ModelPath, type Recorders, replayPath } from '../support/model-replay'

// ---------------------------------------------------------------------------------------------------------
// The real machine under control

interface Calls {
  choose: { input: { type: ExtensionType }; deferred: Deferred<Rollover> }[]
  apply: { input: ApplicationRef; deferred: Deferred<RolloverApplication> }[]
  sign: { input: SignInput; deferred: Deferred<RolloverApplication> }[]
  pay: { input: { channel: PaymentChannelCode }; deferred: Deferred<PaymentIntention> }[]
}
const noCalls = (): Calls => ({ choose: [], apply: [], sign: [], pay: [] })

let calls: Calls = noCalls()
function recorded<I, O>(list: (c: Calls) => { input: I; deferred: Deferred<O> }[]) {
  return fromPromise<O, I>(({ input }) => {
    const d = deferred<O>()
    list(calls).push({ input, deferred: d })
    return d.promise
  })
}
const liveMachine = extensionFlowMachine.provide({
  actors: {
    chooseRollover: recorded((c) => c.choose),
    openApplication: recorded((c) => c.apply),
    signRollover: recorded((c) => c.sign),
    createIntention: recorded((c) => c.pay),
  },
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

function startLive(input: ExtensionFlowInput, inspect?: (event: InspectionEvent) => void) {
  const own = noCalls()
  calls = own
  const actor = createActor(liveMachine, { input, inspect }).start()
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
    send: (event: ExtensionFlowEvent) => actor.send(event),
    settle,
  }
}

// ---------------------------------------------------------------------------------------------------------
// The model

const modelMachine = toModelMachine(extensionFlowMachine)
const listed = listModelEvents(extensionFlowMachine)
const typeOf = (src: string, kind: 'actor.done' | 'actor.error') => {
  const found = listed.filter((e) => e.kind === kind && e.src === src)
  if (found.length !== 1 || !found[0]) throw new Error(`expected one ${kind} event for ${src}`)
  return found[0].type
}
const CHOSEN = typeOf('chooseRollover', 'actor.done')
const CHOOSE_FAILED = typeOf('chooseRollover', 'actor.error')
const APPLIED = typeOf('openApplication', 'actor.done')
const APPLY_FAILED = typeOf('openApplication', 'actor.error')
const SIGNED = typeOf('signRollover', 'actor.done')
const SIGN_FAILED = typeOf('signRollover', 'actor.error')
const INTENDED = typeOf('createIntention', 'actor.done')
const INTENTION_FAILED = typeOf('createIntention', 'actor.error')
if (listed.length !== 8) throw new Error('expected four invokes with done and error each')

type ModelEvent = { type: string; [key: string]: unknown }

const loanUpdate = (rollovers: Rollover[]): ModelEvent => ({
  type: 'LOAN_UPDATED',
  rollovers,
  dueDate: DUE_DATE,
})

const modelEvents: ModelEvent[] = [
  { type: 'SELECT', id: 11 },
  { type: 'SELECT', id: 12 },
  { type: 'CHOOSE' },
  { type: 'AGREE' },
  { type: 'BACK' },
  { type: 'DOCUMENTS', documents },
  { type: 'SIGN', code: '123' },
  { type: 'PAY', channel: 'gcash' },
  { type: 'CHANGE_CHANNEL' },
  // The loan as it was (an answer from before the choice), the cheap extension's fee posted, both expired.
  loanUpdate([cheap(), expensive()]),
  {
    type: 'LOAN_UPDATED',
    rollovers: [inEffect(cheap), expensive(), cheapAgain()],
    dueDate: '2026-12-08',
  },
  loanUpdate([expired(cheap), expired(expensive), cheapAgain(), expensiveAgain()]),
  { type: CHOSEN, output: chosen(cheap) },
  { type: CHOSEN, output: chosen(expensive) },
  { type: CHOOSE_FAILED, error: conflict('extensionNotAvailable', 'This loan has had 3 extensions.') },
  { type: APPLIED, output: applicationOf(applied(cheap)) },
  { type: APPLIED, output: applicationOf(signed(cheap), 'signed') },
  { type: APPLY_FAILED, error: conflict('extensionExpired', 'The fee was payable until 2026-11-25.') },
  { type: SIGNED, output: applicationOf(signed(cheap), 'signed') },
  { type: SIGN_FAILED, error: wrongCode },
  { type: INTENDED, output: intentionOf('gcash') },
  { type: INTENTION_FAILED, error: conflict('purposeNotAvailable', 'No signed extension.') },
]

/** The state value and the facts that change what can happen next. */
function serializeState(state: AnyMachineSnapshot): string {
  const c = state.context as ExtensionFlowContext
  return JSON.stringify({
    value: state.value,
    selected: c.selectedId,
    rollover: c.rollover && [c.rollover.id, c.rollover.status, c.rollover.signed],
    offered: c.rollovers.map((r) => [r.id, r.status, r.available]),
    notice: c.notice?.code ?? null,
    problem: c.problem?.code ?? null,
    documents: c.documents.length,
    intention: c.intention?.id ?? null,
  })
}

/** One starting loan per way the flow opens. */
const starts: Record<string, ExtensionFlowInput> = {
  choose: { rollovers: [cheap(), expensive()], dueDate: DUE_DATE },
  resumeChosen: { rollovers: [applied(cheap), expensive()], dueDate: DUE_DATE },
  resumeSigned: { rollovers: [signed(cheap), expensive()], dueDate: DUE_DATE, requestedId: 11 },
  inEffect: {
    rollovers: [inEffect(cheap), expensive(), cheapAgain()],
    dueDate: '2026-12-08',
    requestedId: 11,
  },
  unavailable: { rollovers: [refused(cheap), refused(expensive)], dueDate: DUE_DATE },
}

function createModel(input: ExtensionFlowInput) {
  return createTestModel(modelMachine, { events: modelEvents, serializeState, input, limit: 20_000 })
}
type Model = ReturnType<typeof createModel>

const calling: Record<string, keyof Calls> = {
  saving: 'choose',
  applying: 'apply',
  verifying: 'sign',
  requestingPayment: 'pay',
}
const callKinds = Object.keys(noCalls()) as (keyof Calls)[]

/** The call the flow waits for in this snapshot, if any. */
const waitingFor = (snapshot: AnyMachineSnapshot) =>
  Object.entries(calling).find(([state]) => snapshot.matches({ flow: state }))?.[1]

/** Invariants stated from the flow's rules rather than from the machine. */
function assertInvariants(snapshot: AnyMachineSnapshot) {
  const c = snapshot.context as ExtensionFlowContext
  const s = snapshot as Parameters<typeof isBusy>[0]
  expect(isBusy(s)).toBe(waitingFor(snapshot) !== undefined)
  // The fee is asked for only once the extension is signed; in effect only once its fee posted.
  if (stepOf(s) === 'pay') expect(c.rollover?.signed).toBe(true)
  if (snapshot.matches('inEffect')) expect(c.rollover?.status).toBe('active')
  // Reviewed and signed: a chosen extension (unpaid invoice) not signed yet.
  if (stepOf(s) === 'review' || stepOf(s) === 'sign') {
    expect(c.rollover?.invoices[0]?.status).toBe('unpaid')
    expect(c.rollover?.signed).toBe(false)
  }
  if (snapshot.matches({ flow: 'awaitingPayment' })) expect(c.intention?.purpose).toBe('extension_fee')
  if (snapshot.matches('unavailable'))
    expect(extensionOptions(c.rollovers).some((r) => r.available)).toBe(false)
}

const actorEvents = new Set([
  CHOSEN,
  CHOOSE_FAILED,
  APPLIED,
  APPLY_FAILED,
  SIGNED,
  SIGN_FAILED,
  INTENDED,
  INTENTION_FAILED,
])

async function replay(
  testModel: Model,
  path: ModelPath<ModelEvent>,
  input: ExtensionFlowInput,
  recorders: Recorders,
): Promise<AnyMachineSnapshot[]> {
  const model = createActor(modelMachine, { input, inspect: recorders.model.inspect }).start()
  const live = startLive(input, recorders.live.inspect)
  const counts = () =>
    Object.fromEntries(callKinds.map((kind) => [kind, live.calls[kind].length])) as Record<
      keyof Calls,
      number
    >
  // A flow resuming a chosen extension opens with its application call on its way; any other makes none.
  const opening = waitingFor(model.getSnapshot())
  for (const kind of callKinds) expect(counts()[kind]).toBe(kind === opening ? 1 : 0)

  /**
   * One step: the model takes the event, the live actor is caused to take it; a call starts exactly when the
   * flow comes to wait for one (an answer always leaves the state that waited for it), and carries the choice.
   */
  const step = async ({ event }: { event: ModelEvent }) => {
    const before = counts()
    const waitedFor = waitingFor(model.getSnapshot())
    const context = live.snapshot().context
    model.send(event)
    if (actorEvents.has(event.type)) {
      const list = live.calls[waitedFor as keyof Calls] as { deferred: Deferred<unknown> }[]
      await live.settle(list, 'error' in event ? { error: event.error } : { output: event.output })
    } else live.send(event as ExtensionFlowEvent)
    const waiting = waitingFor(model.getSnapshot())
    const started = waiting && (actorEvents.has(event.type) || waiting !== waitedFor) ? waiting : undefined
    const after = counts()
    for (const kind of callKinds)
      expect(after[kind], `${kind} calls after ${event.type}`).toBe(before[kind] + (kind === started ? 1 : 0))
    const flow = model.getSnapshot().context as ExtensionFlowContext
    if (started === 'choose') {
      const option = extensionOptions(context.rollovers).find((r) => r.id === context.selectedId)
      expect(live.calls.choose.at(-1)?.input).toEqual({ type: option?.type })
    }
    if (started === 'apply')
      expect(live.calls.apply.at(-1)?.input).toEqual({ loanId: LOAN_ID, rolloverId: flow.rollover?.id })
    if (started === 'sign')
      expect(live.calls.sign.at(-1)?.input).toEqual({
        loanId: LOAN_ID,
        rolloverId: flow.rollover?.id,
        applicationId: APPLICATION_ID,
        code: event.code,
      })
    if (started === 'pay') expect(live.calls.pay.at(-1)?.input).toEqual({ channel: event.channel })
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

describe('extension flow model-based paths, replayed on the real machine', () => {
  it('reach every state node and take every transition', async () => {
    await coverEveryTransition('extension-flow', {
      modelMachine,
      liveMachine,
      events: modelEvents,
      runs: Object.values(starts).map((input) => {
        const testModel = createModel(input)
        return { testModel, replay: (path, recorders) => replay(testModel, path, input, recorders) }
      }),
    })
  }, 120_000)
})

// ---------------------------------------------------------------------------------------------------------

describe('where the flow opens (startOf)', () => {
  it('without an id: the cheapest available extension, to choose', () => {
    expect(startOf([expensive(), cheap()], null)).toEqual({ selectedId: 11, rollover: null, notice: null })
    expect(startOf([refused(cheap), expensive()], null).selectedId).toBe(12)
    expect(bestChoice([refused(cheap), refused(expensive)])).toBeNull()
  })

  it('without an id, an extension in progress (chosen, not paid) is resumed rather than undone', () => {
    const start = startOf([cheap(), signed(expensive)], null)
    expect(start.selectedId).toBe(12)
    expect(start.rollover?.signed).toBe(true)
  })

  it('the id asked for is taken when it is open, or shown when it is in effect', () => {
    expect(startOf([cheap(), expensive()], 12)).toEqual({ selectedId: 12, rollover: null, notice: null })
    expect(startOf([inEffect(cheap), cheapAgain()], 11).rollover?.status).toBe('active')
  })

  it('an id that is not offered, expired or refused falls back to the best choice and says why', () => {
    expect(startOf([cheap(), expensive()], 99)).toMatchObject({
      selectedId: 11,
      notice: { code: 'notOffered', message: null },
    })
    expect(startOf([expired(cheap), cheapAgain()], 11)).toMatchObject({
      selectedId: 13,
      notice: { code: 'expired', message: null },
    })
    expect(startOf([refused(expensive), cheap()], 12)).toMatchObject({ selectedId: 11, notice: maxCount })
  })
})

describe('the flow', () => {
  it('choose, review, sign and pay: the calls carry the choice, the application and the code', async () => {
    const live = startLive(starts.choose as ExtensionFlowInput)
    expect(live.snapshot().value).toEqual({ flow: 'choosing' })
    expect(stepOf(live.snapshot())).toBe('choose')
    live.send({ type: 'SELECT', id: 12 })
    live.send({ type: 'CHOOSE' })
    expect(live.calls.choose.map((c) => c.input)).toEqual([{ type: 'expensive' }])
    await live.settle(live.calls.choose, { output: chosen(expensive) })
    expect(live.calls.apply.map((c) => c.input)).toEqual([{ loanId: LOAN_ID, rolloverId: 12 }])
    await live.settle(live.calls.apply, { output: applicationOf(applied(expensive)) })
    expect(live.snapshot().value).toEqual({ flow: 'reviewing' })
    live.send({ type: 'AGREE' })
    live.send({ type: 'DOCUMENTS', documents })
    expect(live.snapshot().context.documents).toHaveLength(2)
    live.send({ type: 'SIGN', code: '456' })
    expect(live.calls.sign.map((c) => c.input)).toEqual([
      { loanId: LOAN_ID, rolloverId: 12, applicationId: APPLICATION_ID, code: '456' },
    ])
    await live.settle(live.calls.sign, { output: applicationOf(signed(expensive), 'signed') })
    expect(stepOf(live.snapshot())).toBe('pay')
    live.send({ type: 'PAY', channel: 'seven_eleven' })
    expect(live.calls.pay.map((c) => c.input)).toEqual([{ channel: 'seven_eleven' }])
    await live.settle(live.calls.pay, { output: intentionOf('seven_eleven', 150_000) })
    expect(live.snapshot().value).toEqual({ flow: 'awaitingPayment' })
    live.send({
      type: 'LOAN_UPDATED',
      rollovers: [cheap(), inEffect(expensive), expensiveAgain()],
      dueDate: '2026-12-31',
    })
    expect(live.snapshot().value).toBe('inEffect')
    expect(live.snapshot().context.rollover?.newDueDate).toBe('2026-12-31')
    expect(live.snapshot().context.dueDate).toBe('2026-12-31')
  })

  it('a refused choice comes back to choosing with the API’s 409 message', async () => {
    const live = startLive(starts.choose as ExtensionFlowInput)
    live.send({ type: 'CHOOSE' })
    await live.settle(live.calls.choose, {
      error: conflict('extensionNotAvailable', 'The total cost cap leaves no room for this fee.'),
    })
    expect(live.snapshot().value).toEqual({ flow: 'choosing' })
    expect(live.snapshot().context.problem).toEqual({
      code: 'extensionNotAvailable',
      message: 'The total cost cap leaves no room for this fee.',
    })
  })

  it('a wrong code stays on signing with its code; the message of a non-409 is not shown', async () => {
    const live = startLive(starts.resumeChosen as ExtensionFlowInput)
    await live.settle(live.calls.apply, { output: applicationOf(applied(cheap)) })
    live.send({ type: 'AGREE' })
    live.send({ type: 'SIGN', code: '999' })
    await live.settle(live.calls.sign, { error: wrongCode })
    expect(live.snapshot().value).toEqual({ flow: 'signing' })
    expect(live.snapshot().context.problem).toEqual({ code: 'codeIncorrect', message: null })
  })

  it('an extension lost on the way (its invoice expired) starts over on the loan as it is now', async () => {
    const live = startLive(starts.resumeSigned as ExtensionFlowInput)
    expect(live.snapshot().value).toEqual({ flow: 'paying' })
    live.send({
      type: 'LOAN_UPDATED',
      rollovers: [expired(cheap), expensive(), cheapAgain()],
      dueDate: DUE_DATE,
    })
    expect(live.snapshot().value).toEqual({ flow: 'choosing' })
    expect(live.snapshot().context).toMatchObject({
      selectedId: 13,
      rollover: null,
      notice: { code: 'expired', message: null },
    })
  })

  it('only a selectable extension can be selected; none available opens on unavailable', () => {
    const live = startLive({ rollovers: [cheap(), refused(expensive)], dueDate: DUE_DATE })
    live.send({ type: 'SELECT', id: 12 })
    expect(live.snapshot().context.selectedId).toBe(11)
    expect(startLive(starts.unavailable as ExtensionFlowInput).snapshot().value).toBe('unavailable')
  })

  it('reads a failure loosely', () => {
    expect(problemOf(conflict('x', 'Refused.'))).toEqual({ code: 'x', message: 'Refused.' })
    expect(problemOf(new Error('boom'))).toEqual({ code: 'error', message: null })
    expect(problemOf(null)).toEqual({ code: 'error', message: null })
  })
})
