/**
 * The phone / e-mail change statechart (machines/credential-change.machine.ts): model-based paths replayed on
 * the real machine, with coverage of its states and transitions, then focused cases.
 *
 * `toModelMachine` (tests/support/model-coverage.ts) turns the answers of `sendCode` and `save` into plain
 * events named as XState names them; paths are planned on that model and replayed on the REAL machine, where a
 * done/error event settles the pending promise of that actor. After every step the real snapshot must equal
 * the model's and satisfy the product's rules.
 */
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { createTestModel } from 'xstate/graph'
import type { CodeSent } from '../../machines/code-request.machine'
import {
  type CredentialChangeEvent,
  type CredentialChangeSnapshot,
  credentialChangeMachine,
  credentialChangeView,
  type SaveInput,
  type SendCodeInput,
} from '../../machines/credential-change.machine'
import { type Deferred, deferred, flush } from '../support/deferred'
import {
  type CoverageRecorder,
  createCoverageRecorder,
  formatCoverage,
  listModelEvents,
  listTransitions,
  toModelMachine,
} from '../support/model-coverage'

const NOW = Date.parse('2026-11-25T06:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()
const apiError = (status: number, code: string, retryAfterSeconds?: number) =>
  Object.assign(new Error(code), { status, code, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) })
const tooSoon = apiError(429, 'codeMinuteLimit', 30)
const taken = apiError(400, 'phone-error-taken')
const wrongCode = apiError(400, 'error-verification-code')
const saved = { client: { id: 7, email: 'juan@example.ph' } }

const modelEvents = listModelEvents(credentialChangeMachine)
const typeOf = (kind: string, src: string) => {
  const found = modelEvents.find((e) => e.kind === kind && e.src === src)
  if (!found) throw new Error(`no ${kind} event for ${src}`)
  return found.type
}
const CODE_SENT = typeOf('actor.done', 'sendCode')
const CODE_REFUSED = typeOf('actor.error', 'sendCode')
const SAVED = typeOf('actor.done', 'save')
const SAVE_REFUSED = typeOf('actor.error', 'save')

type ModelEvent = CredentialChangeEvent | { type: string; output?: unknown; error?: unknown }

const cases: ModelEvent[] = [
  { type: 'SEND_CODE', value: '09181234567' },
  { type: 'SUBMIT', code: '123' },
  { type: CODE_SENT, output: { nextCodeAt: iso(NOW + 60_000) } },
  { type: CODE_REFUSED, error: tooSoon },
  { type: CODE_REFUSED, error: taken },
  { type: SAVED, output: saved },
  { type: SAVE_REFUSED, error: wrongCode },
]

const input = { now: () => NOW }
const observable = (s: CredentialChangeSnapshot) => {
  const { now: _now, error, ...rest } = s.context
  return { state: s.value, ...rest, error: error ? String(error) : null }
}
const model = createTestModel(toModelMachine(credentialChangeMachine), {
  input,
  events: cases as never,
  // Vertex = "state + the step that led to it": a path for every transition, not only for every state.
  serializeState: ((s: CredentialChangeSnapshot, e?: ModelEvent, previous?: CredentialChangeSnapshot) =>
    e && previous
      ? `${JSON.stringify(observable(previous))} --${e.type}:${JSON.stringify(e)}--> ${JSON.stringify(observable(s))}`
      : JSON.stringify(observable(s))) as never,
  filterEvents: ((s: CredentialChangeSnapshot, e: ModelEvent) => s.can(e as CredentialChangeEvent)) as never,
})
const paths = model.getShortestPaths()

// The real machine, with promises the test settles.
let pending: {
  sendCode: Deferred<unknown>[]
  save: Deferred<unknown>[]
  inputs: unknown[]
  stored: unknown[]
}
const fresh = () => ({ sendCode: [], save: [], inputs: [], stored: [] })
pending = fresh()
const liveMachine = credentialChangeMachine.provide({
  actors: {
    sendCode: fromPromise<CodeSent | null | undefined, SendCodeInput>(({ input }) => {
      const d = deferred<unknown>()
      pending.sendCode.push(d)
      pending.inputs.push(input)
      return d.promise as Promise<CodeSent | null | undefined>
    }),
    save: fromPromise<unknown, SaveInput>(({ input }) => {
      const d = deferred<unknown>()
      pending.save.push(d)
      pending.inputs.push(input)
      return d.promise
    }),
  },
  actions: { storeSaved: (_, { output }) => void pending.stored.push(output) },
})

function startLive(recorder?: CoverageRecorder) {
  pending = fresh()
  const own = pending
  const actor = createActor(liveMachine, { input, ...(recorder ? { inspect: recorder.inspect } : {}) })
  actor.start()
  return { actor, pending: own }
}

/** The product's rules, whatever path led here. */
function checkInvariants(s: CredentialChangeSnapshot) {
  const view = credentialChangeView(s)
  // The code step always names the new value the code went to.
  if (view.codeStep) expect(view.value).toBeTruthy()
  // A refusal for the wait counts down to when a new code may be asked for.
  if (s.context.limited) expect(s.context.nextCodeAt).not.toBeNull()
  // Done leaves nothing of the saved change behind but the success.
  if (view.done) expect([s.context.value, s.context.error]).toEqual([null, null])
  if (s.matches('sendingCode') || s.matches('saving')) expect(s.context.error).toBeNull()
}

async function execute(live: ReturnType<typeof startLive>, event: ModelEvent) {
  const settle = (list: Deferred<unknown>[]) => {
    const d = list.at(-1)
    if (!d) throw new Error(`nothing pending for ${event.type}`)
    if ('error' in event) d.reject(event.error)
    else d.resolve((event as { output?: unknown }).output)
  }
  if (event.type === CODE_SENT || event.type === CODE_REFUSED) settle(live.pending.sendCode)
  else if (event.type === SAVED || event.type === SAVE_REFUSED) settle(live.pending.save)
  else live.actor.send(event as CredentialChangeEvent)
  await flush()
}

describe('credential change model', () => {
  it('replays every planned path on the real machine, and visits every state and transition', async () => {
    expect(paths.length).toBeGreaterThan(2)
    const recorder = createCoverageRecorder(liveMachine)
    for (const path of paths) {
      const live = startLive(recorder)
      const exec = async (step: { event: { type: string } }) => execute(live, step.event as ModelEvent)
      const types = new Set(path.steps.map((s) => s.event.type))
      await path.test({
        events: Object.fromEntries([...types].filter((t) => t !== 'xstate.init').map((t) => [t, exec])),
        states: {
          '*': (expected: CredentialChangeSnapshot) => {
            const real = live.actor.getSnapshot()
            expect(observable(real)).toEqual(observable(expected))
            checkInvariants(real)
          },
        },
      })
      live.actor.stop()
    }
    const report = recorder.report()
    console.info(`${formatCoverage('credential-change', report)} (${paths.length} paths)`)
    expect(report.states.missing).toEqual([])
    expect(report.transitions.missing).toEqual([])
    expect(report.transitions.covered).toBe(listTransitions(liveMachine).length)
  })
})

describe('credential change', () => {
  it('sends the code to the new value, saves with it, and hands the saved client to the app', async () => {
    const live = startLive()
    live.actor.send({ type: 'SEND_CODE', value: 'new@example.ph' })
    expect(live.pending.inputs).toEqual([{ value: 'new@example.ph' }])
    live.pending.sendCode[0]!.resolve({ nextCodeAt: iso(NOW + 60_000) })
    await flush()
    expect(credentialChangeView(live.actor.getSnapshot())).toMatchObject({
      codeStep: true,
      value: 'new@example.ph',
      nextCodeAt: iso(NOW + 60_000),
      limited: false,
    })
    live.actor.send({ type: 'SUBMIT', code: '123' })
    expect(live.pending.inputs[1]).toEqual({ value: 'new@example.ph', code: '123' })
    live.pending.save[0]!.resolve(saved)
    await flush()
    expect(credentialChangeView(live.actor.getSnapshot()).done).toBe(true)
    expect(live.pending.stored).toEqual([saved])
    live.actor.stop()
  })

  it('asked again too soon: the code step opens counting down to the wait the server gave', async () => {
    const live = startLive()
    live.actor.send({ type: 'SEND_CODE', value: '09181234567' })
    live.pending.sendCode[0]!.reject(tooSoon)
    await flush()
    expect(credentialChangeView(live.actor.getSnapshot())).toMatchObject({
      codeStep: true,
      limited: true,
      nextCodeAt: iso(NOW + 30_000),
    })
    live.actor.stop()
  })

  it('a refused value goes back to the form with the error; a wrong code stays on the code step', async () => {
    const live = startLive()
    live.actor.send({ type: 'SEND_CODE', value: '09181234567' })
    live.pending.sendCode[0]!.reject(taken)
    await flush()
    expect(live.actor.getSnapshot().value).toBe('editing')
    expect(live.actor.getSnapshot().context.error).toBe(taken)
    live.actor.send({ type: 'SEND_CODE', value: '09181234568' })
    expect(live.actor.getSnapshot().context.error).toBeNull()
    live.pending.sendCode[1]!.resolve({})
    await flush()
    live.actor.send({ type: 'SUBMIT', code: '000' })
    live.pending.save[0]!.reject(wrongCode)
    await flush()
    expect(live.actor.getSnapshot().value).toBe('codeStep')
    expect(live.actor.getSnapshot().context.error).toBe(wrongCode)
    live.actor.stop()
  })
})
