/**
 * The calculator-submit statechart (machines/calculator-submit.machine.ts): model-based paths replayed on the
 * real machine, with coverage, then the spec's table (section 4 "Submit from the calculator") as focused cases.
 *
 * The recipe of tests/support/model-coverage.ts: `toModelMachine` turns the `createApplication` answers into
 * plain events named as XState names them, so `createTestModel` plans paths over the same config and
 * implementations. Each path is replayed on the REAL machine with `createApplication` a promise the test
 * settles; after every step the real snapshot must equal the model's, the page its state names must be the
 * spec's page for the decision, and an application is made exactly when the decision says so.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type AnyMachineSnapshot, createActor, fromPromise } from 'xstate'
import { createTestModel } from 'xstate/graph'
import type { SubmitTarget } from '../../domain/calculator-rules'
import type { SubmitDecision } from '../../machines/calculator.machine'
import {
  type ApplicationFigures,
  type CalculatorSubmitContext,
  type CalculatorSubmitEvent,
  type CalculatorSubmitSnapshot,
  calculatorSubmitMachine,
  isSubmitting,
  type SubmitRoute,
  submitErrorCodeOf,
  submitRedirect,
  submitRoute,
} from '../../machines/calculator-submit.machine'
import { type Deferred, deferred, flush } from '../support/deferred'
import { listModelEvents, toModelMachine } from '../support/model-coverage'
import { coverEveryTransition, type ModelPath, type Recorders, replayPath } from '../support/model-replay'

/** Spec section 4, stated here rather than read from the machine. */
const pageOf: Record<SubmitTarget, SubmitRoute> = {
  'create-application-then-loading': '/application/loading',
  apply: '/application/apply',
  login: '/login',
  registration: '/registration',
}
const targets = Object.keys(pageOf) as SubmitTarget[]
const decisionFor = (target: SubmitTarget): SubmitDecision => ({
  target,
  amount: 700_000,
  term: 21,
  optionalFee: false,
  promoCode: target === 'apply' ? 'HIRAM10' : null,
})

// The real machine: createApplication is a promise the test settles; applicationCreated a counter.
let calls = { creates: [] as { figures: ApplicationFigures; deferred: Deferred<unknown> }[], created: 0 }
const liveMachine = calculatorSubmitMachine.provide({
  actors: {
    createApplication: fromPromise<unknown, ApplicationFigures>(({ input }) => {
      const d = deferred<unknown>()
      calls.creates.push({ figures: input, deferred: d })
      return d.promise
    }),
  },
  actions: {
    applicationCreated: () => {
      calls.created++
    },
  },
})

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

function startLive(inspect?: Parameters<typeof createActor>[1]) {
  const own = { creates: [] as typeof calls.creates, created: 0 }
  calls = own
  const actor = createActor(liveMachine, inspect).start()
  stops.push(() => actor.stop())
  return {
    actor,
    calls: own,
    snapshot: () => actor.getSnapshot(),
    async created() {
      own.creates.at(-1)?.deferred.resolve({ id: 7 })
      await flush()
    },
    async failed(error: unknown) {
      own.creates.at(-1)?.deferred.reject(error)
      await flush()
    },
  }
}

// ---------------------------------------------------------------------------------------------------------
// The model

const modelMachine = toModelMachine(calculatorSubmitMachine)
const listed = listModelEvents(calculatorSubmitMachine)
const typeOf = (kind: string) => {
  const found = listed.filter((e) => e.kind === kind)
  if (found.length !== 1 || !found[0]) throw new Error(`expected one ${kind} event`)
  return found[0].type
}
const CREATED = typeOf('actor.done')
const CREATE_FAILED = typeOf('actor.error')
if (listed.length !== 2) throw new Error('expected one invoke with done and error')

type ModelEvent = { type: string; decision?: SubmitDecision; output?: unknown; error?: unknown }
const serverError = Object.assign(new Error('HTTP 500'), { status: 500, code: 'erpFailed' })

const modelEvents: ModelEvent[] = [
  ...targets.map((target) => ({ type: 'SUBMIT', decision: decisionFor(target) })),
  { type: 'ROUTED' },
  { type: 'DISMISS' },
  { type: CREATED, output: { id: 7 } },
  { type: CREATE_FAILED, error: serverError },
]

function serializeState(state: AnyMachineSnapshot): string {
  const c = state.context as CalculatorSubmitContext
  return JSON.stringify({ value: state.value, target: c.decision?.target ?? null, error: c.errorCode })
}

const testModel = createTestModel(modelMachine, { events: modelEvents, serializeState, limit: 10_000 })

/** The spec's promise in every state: the page named is the decision's page, and only while leaving. */
function assertInvariants(snapshot: CalculatorSubmitSnapshot) {
  const { decision, errorCode } = snapshot.context
  const route = submitRoute(snapshot)
  if (snapshot.matches('leaving')) {
    expect(decision).not.toBeNull()
    expect(route).toBe(pageOf[decision!.target])
    // Not sent to the page they are on; sent from anywhere else.
    expect(submitRedirect(snapshot, route!)).toBeNull()
    expect(submitRedirect(snapshot, '/')).toBe(route)
  } else {
    expect(route).toBeNull()
    expect(submitRedirect(snapshot, '/')).toBeNull()
  }
  if (snapshot.matches('creating')) expect(decision?.target).toBe('create-application-then-loading')
  expect(errorCode !== null).toBe(snapshot.matches('failed'))
  expect(isSubmitting(snapshot)).toBe(snapshot.matches('creating') || snapshot.matches('leaving'))
}

async function replay(path: ModelPath<ModelEvent>, recorders: Recorders) {
  const model = createActor(modelMachine, { inspect: recorders.model.inspect }).start()
  const live = startLive({ inspect: recorders.live.inspect })
  const userEvent = async ({ event }: { event: ModelEvent }) => {
    const creates = live.calls.creates.length
    model.send(event)
    live.actor.send(event as CalculatorSubmitEvent)
    // An application is asked for exactly when a decision enters creating, with the decision's figures.
    if (model.getSnapshot().matches('creating') && event.type === 'SUBMIT') {
      expect(live.calls.creates).toHaveLength(creates + 1)
      const { target: _, ...figures } = event.decision as SubmitDecision
      expect(live.calls.creates.at(-1)?.figures).toEqual(figures)
    } else {
      expect(live.calls.creates).toHaveLength(creates)
    }
  }
  return replayPath({
    testModel,
    path,
    model,
    live: live.actor,
    events: {
      SUBMIT: userEvent,
      ROUTED: userEvent,
      DISMISS: userEvent,
      [CREATED]: async ({ event }: { event: ModelEvent }) => {
        const created = live.calls.created
        model.send(event)
        await live.created()
        expect(live.calls.created).toBe(created + 1)
      },
      [CREATE_FAILED]: async ({ event }: { event: ModelEvent }) => {
        const created = live.calls.created
        model.send(event)
        await live.failed(event.error)
        expect(live.calls.created).toBe(created)
      },
    },
    invariants: (snapshot) => assertInvariants(snapshot as CalculatorSubmitSnapshot),
  })
}

describe('calculator submit model-based paths, replayed on the real machine', () => {
  it('reach every state node and take every transition', async () => {
    await coverEveryTransition('calculator-submit', {
      modelMachine,
      liveMachine,
      events: modelEvents,
      runs: [{ testModel, replay }],
    })
  })
})

describe('submit from the calculator (spec section 4)', () => {
  it.each(
    targets.filter((t) => t !== 'create-application-then-loading'),
  )('%s: straight to its page, without making an application', (target) => {
    const live = startLive()
    live.actor.send({ type: 'SUBMIT', decision: decisionFor(target) })
    expect(submitRedirect(live.snapshot(), '/')).toBe(pageOf[target])
    expect(live.calls.creates).toHaveLength(0)
    live.actor.send({ type: 'ROUTED' })
    expect(live.snapshot().value).toBe('idle')
    expect(live.snapshot().context.decision).toBeNull()
  })

  it('the additional loan: the application first, the journey told, then the loading page', async () => {
    const live = startLive()
    live.actor.send({ type: 'SUBMIT', decision: decisionFor('create-application-then-loading') })
    expect(isSubmitting(live.snapshot())).toBe(true)
    expect(submitRedirect(live.snapshot(), '/')).toBeNull()
    // A second click while the first is on its way makes nothing.
    live.actor.send({ type: 'SUBMIT', decision: decisionFor('create-application-then-loading') })
    expect(live.calls.creates).toHaveLength(1)
    await live.created()
    expect(live.calls.created).toBe(1)
    expect(submitRedirect(live.snapshot(), '/')).toBe('/application/loading')
    expect(submitRedirect(live.snapshot(), '/application/loading')).toBeNull()
  })

  it('a failed application stays on the calculator with its code; SUBMIT tries again, DISMISS forgets', async () => {
    const live = startLive()
    live.actor.send({ type: 'SUBMIT', decision: decisionFor('create-application-then-loading') })
    await live.failed(serverError)
    expect(live.snapshot().value).toBe('failed')
    expect(live.snapshot().context.errorCode).toBe('erpFailed')
    expect(submitRedirect(live.snapshot(), '/')).toBeNull()
    live.actor.send({ type: 'SUBMIT', decision: decisionFor('create-application-then-loading') })
    expect(live.calls.creates).toHaveLength(2)
    await live.failed(new Error('network'))
    expect(live.snapshot().context.errorCode).toBe('error')
    live.actor.send({ type: 'DISMISS' })
    expect(live.snapshot().value).toBe('idle')
    expect(live.snapshot().context).toEqual({ decision: null, errorCode: null })
  })

  it('reads an error code loosely', () => {
    expect(submitErrorCodeOf(serverError)).toBe('erpFailed')
    expect(submitErrorCodeOf('boom')).toBe('error')
  })
})
