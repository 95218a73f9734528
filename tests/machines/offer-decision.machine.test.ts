/**
 * The offer-decision statechart: model-based paths replayed on the real machine, with coverage, then the
 * decision table of spec section 4 ("Offer decisions") as focused cases.
 *
 * As for the calculator (tests/machines/calculator.machine.test.ts): `toModelMachine` turns the answers of the
 * `sendDecision` and `reloadApplication` actors into plain events named as XState names them internally, so
 * `createTestModel` can plan paths over the same config and implementations. Each path is replayed on the REAL
 * machine with both actors replaced by promises the test settles; after every step the real snapshot must
 * equal the model's, and every call made must be exactly the one `decideOffer` names. Transitions that return
 * to a state already known lie on no shortest path: each gets a replayed prefix extended by one event.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type AnyMachineSnapshot, createActor, fromPromise, type InspectionEvent } from 'xstate'
import { createTestModel } from 'xstate/graph'
import {
  type ApplicationConsentUpdate,
  applicationStatus,
  type DecisionApplication,
  decideOffer,
  type OfferCall,
} from '../../domain/offer-decision'
import {
  errorCodeOf,
  isBusy,
  type OfferDecisionContext,
  type OfferDecisionEvent,
  type OfferDecisionInput,
  offerDecisionMachine,
} from '../../machines/offer-decision.machine'
import { type Deferred, deferred, flush } from '../support/deferred'
import { listModelEvents, toModelMachine } from '../support/model-coverage'
import { coverEveryTransition, type ModelPath, type Recorders, replayPath } from '../support/model-replay'

const php = (pesos: number) => pesos * 100

function applicationWith(status: number): DecisionApplication {
  const increase = status === applicationStatus.yhatIncrease
  return {
    id: 42,
    status,
    desired: { amount: php(8000), term: 30 },
    offered: increase ? { amount: php(12_000), term: 30 } : { amount: php(5000), term: 21 },
    principal: php(8000),
    feeConsent: true,
  }
}

const decrease = applicationWith(applicationStatus.yhatDecrease)
const special = applicationWith(applicationStatus.specialOffer)
const increase = applicationWith(applicationStatus.yhatIncrease)
const noOffer = applicationWith(applicationStatus.accepted)
const reloaded: DecisionApplication = { ...decrease, status: applicationStatus.signing }

// ---------------------------------------------------------------------------------------------------------
// The real machine under control

interface Calls {
  sent: { call: OfferCall; deferred: Deferred<void> }[]
  updates: { update: ApplicationConsentUpdate; deferred: Deferred<void> }[]
  reloads: { id: number; deferred: Deferred<DecisionApplication> }[]
}

let calls: Calls = { sent: [], updates: [], reloads: [] }
const liveMachine = offerDecisionMachine.provide({
  actors: {
    sendDecision: fromPromise<void, OfferCall>(({ input }) => {
      const d = deferred<void>()
      calls.sent.push({ call: input, deferred: d })
      return d.promise
    }),
    reloadApplication: fromPromise<DecisionApplication, { id: number }>(({ input }) => {
      const d = deferred<DecisionApplication>()
      calls.reloads.push({ id: input.id, deferred: d })
      return d.promise
    }),
    updateApplication: fromPromise<void, ApplicationConsentUpdate>(({ input }) => {
      const d = deferred<void>()
      calls.updates.push({ update: input, deferred: d })
      return d.promise
    }),
  },
})

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

function startLive(input: OfferDecisionInput, inspect?: (event: InspectionEvent) => void) {
  const own: Calls = { sent: [], updates: [], reloads: [] }
  calls = own
  const actor = createActor(liveMachine, { input, inspect }).start()
  stops.push(() => actor.stop())
  return {
    actor,
    calls: own,
    snapshot: () => actor.getSnapshot(),
    async answerSend() {
      own.sent.at(-1)?.deferred.resolve()
      await flush()
    },
    async failSend(code = 'offerExpired') {
      own.sent.at(-1)?.deferred.reject(Object.assign(new Error('409'), { code }))
      await flush()
    },
    async answerUpdate() {
      own.updates.at(-1)?.deferred.resolve()
      await flush()
    },
    async failUpdate() {
      own.updates.at(-1)?.deferred.reject(Object.assign(new Error('400'), { code: 'invalid' }))
      await flush()
    },
    async answerReload(application: DecisionApplication = reloaded) {
      own.reloads.at(-1)?.deferred.resolve(application)
      await flush()
    },
    async failReload() {
      own.reloads.at(-1)?.deferred.reject(new Error('HTTP 404'))
      await flush()
    },
  }
}

// ---------------------------------------------------------------------------------------------------------
// The model

const modelMachine = toModelMachine(offerDecisionMachine)
const modelEventsListed = listModelEvents(offerDecisionMachine)
function modelEventType(src: string, kind: 'actor.done' | 'actor.error'): string {
  const found = modelEventsListed.filter((e) => e.kind === kind && e.src === src)
  if (found.length !== 1 || !found[0]) throw new Error(`expected one ${kind} event for ${src}`)
  return found[0].type
}
const SENT = modelEventType('sendDecision', 'actor.done')
const SEND_FAILED = modelEventType('sendDecision', 'actor.error')
const RELOADED = modelEventType('reloadApplication', 'actor.done')
const RELOAD_FAILED = modelEventType('reloadApplication', 'actor.error')
const UPDATED = modelEventType('updateApplication', 'actor.done')
const UPDATE_FAILED = modelEventType('updateApplication', 'actor.error')
if (modelEventsListed.length !== 6) throw new Error('expected three invokes with done and error each')

type ModelEvent = { type: string; [key: string]: unknown }

const modelEvents: ModelEvent[] = [
  { type: 'APPROVE' },
  { type: 'APPROVE', choice: { amount: php(10_000), term: 25 } }, // a valid increase
  { type: 'APPROVE', choice: { amount: php(15_000), term: 25 } }, // above the offered amount
  { type: 'REFUSE' },
  { type: 'RETRY' },
  { type: 'BACK' },
  { type: SENT },
  { type: SEND_FAILED, error: Object.assign(new Error('409'), { code: 'offerExpired' }) },
  { type: RELOADED, output: reloaded },
  { type: RELOAD_FAILED, error: new Error('HTTP 404') },
  { type: 'FEE_CONSENT.SET', enabled: false },
  { type: 'FEE_CONSENT.SET', enabled: true },
  { type: UPDATED },
  { type: UPDATE_FAILED, error: Object.assign(new Error('400'), { code: 'invalid' }) },
]

/** The state value and the facts that change what can happen next (the refusal reason shows a message). */
function serializeState(state: AnyMachineSnapshot): string {
  const context = state.context as OfferDecisionContext
  return JSON.stringify({
    value: state.value,
    refused: context.refused,
    call: context.call?.name ?? null,
    feeConsent: context.feeConsent,
  })
}

function createModel(input: OfferDecisionInput) {
  return createTestModel(modelMachine, { events: modelEvents, serializeState, input, limit: 10_000 })
}
type Model = ReturnType<typeof createModel>

/** Invariants stated from the spec rather than from the machine. */
function assertInvariants(snapshot: AnyMachineSnapshot, input: OfferDecisionInput) {
  const c = snapshot.context as OfferDecisionContext
  if (snapshot.matches('noOffer')) expect(decideOffer(input.application, { type: 'refuse' }).ok).toBe(false)
  if (snapshot.matches('submitting') || snapshot.matches('failed')) expect(c.call).not.toBeNull()
  if (snapshot.matches('failed') || snapshot.matches('reloadFailed') || snapshot.matches('updateFailed'))
    expect(c.errorCode).not.toBeNull()
  // The update is made only after an answer that keeps the application, for a consent the client changed.
  if (snapshot.matches('updating') || snapshot.matches('updateFailed')) {
    expect(c.feeConsent).not.toBe(input.application.feeConsent)
    expect(c.call?.name).not.toBe('cancelApplication')
  }
  if (snapshot.matches('deciding')) expect(c.errorCode).toBeNull()
  if (snapshot.matches('done')) expect(c.application).toEqual(reloaded)
  if (c.call?.name === 'specialOfferApprove')
    expect(input.application.status).toBe(applicationStatus.specialOffer)
  if (c.call?.name === 'yhatDecreaseApprove')
    expect(input.application.status).toBe(applicationStatus.yhatDecrease)
  if (c.call?.name === 'yhatIncreaseApprove')
    expect(input.application.status).toBe(applicationStatus.yhatIncrease)
}

async function replay(
  testModel: Model,
  path: ModelPath<ModelEvent>,
  input: OfferDecisionInput,
  recorders: Recorders,
): Promise<AnyMachineSnapshot[]> {
  const model = createActor(modelMachine, { input, inspect: recorders.model.inspect }).start()
  const live = startLive(input, recorders.live.inspect)
  const userEvent = ({ event }: { event: ModelEvent }) => {
    const before = live.calls.sent.length
    model.send(event)
    live.actor.send(event as OfferDecisionEvent)
    const expected = model.getSnapshot()
    // A user event makes a call exactly when it enters submitting, and it is the call decideOffer names.
    if (expected.matches('submitting')) {
      expect(live.calls.sent.length).toBe(before + 1)
      const answer =
        event.type === 'REFUSE'
          ? ({ type: 'refuse' } as const)
          : event.type === 'APPROVE'
            ? { type: 'approve' as const, choice: event.choice as never }
            : null
      if (answer) {
        const decision = decideOffer(input.application, answer)
        expect(decision.ok && decision.call).toEqual(live.calls.sent.at(-1)?.call)
      } else {
        expect(live.calls.sent.at(-1)?.call).toEqual(live.calls.sent.at(-2)?.call) // RETRY: the same call
      }
    } else {
      expect(live.calls.sent.length).toBe(before)
    }
  }
  return replayPath({
    testModel,
    path,
    model,
    live: live.actor,
    invariants: (snapshot) => assertInvariants(snapshot, input),
    events: {
      APPROVE: userEvent,
      REFUSE: userEvent,
      RETRY: async ({ event }: { event: ModelEvent }) => {
        const reloadsBefore = live.calls.reloads.length
        const updatesBefore = live.calls.updates.length
        userEvent({ event })
        if (model.getSnapshot().matches('reloading'))
          expect(live.calls.reloads.length).toBe(reloadsBefore + 1)
        // RETRY after a failed update sends the update again, never the answer.
        if (model.getSnapshot().matches('updating')) expect(live.calls.updates.length).toBe(updatesBefore + 1)
      },
      BACK: userEvent,
      'FEE_CONSENT.SET': userEvent,
      [SENT]: async ({ event }: { event: ModelEvent }) => {
        const updatesBefore = live.calls.updates.length
        model.send(event)
        await live.answerSend()
        if (model.getSnapshot().matches('updating')) {
          // The changed consent, and nothing else, goes in the application update.
          expect(live.calls.updates.length).toBe(updatesBefore + 1)
          expect(live.calls.updates.at(-1)?.update).toEqual({
            id: input.application.id,
            body: { consents: { acceptBorrowersAdvantagePackageFee: !input.application.feeConsent } },
          })
        } else {
          expect(live.calls.updates.length).toBe(updatesBefore)
          expect(live.calls.reloads.at(-1)?.id).toBe(input.application.id)
        }
      },
      [UPDATED]: async ({ event }: { event: ModelEvent }) => {
        model.send(event)
        await live.answerUpdate()
        expect(live.calls.reloads.at(-1)?.id).toBe(input.application.id)
      },
      [UPDATE_FAILED]: async ({ event }: { event: ModelEvent }) => {
        model.send(event)
        await live.failUpdate()
      },
      [SEND_FAILED]: async ({ event }: { event: ModelEvent }) => {
        model.send(event)
        await live.failSend()
      },
      [RELOADED]: async ({ event }: { event: ModelEvent }) => {
        model.send(event)
        await live.answerReload(event.output as DecisionApplication)
      },
      [RELOAD_FAILED]: async ({ event }: { event: ModelEvent }) => {
        model.send(event)
        await live.failReload()
      },
    },
  })
}

describe('offer decision model-based paths, replayed on the real machine', () => {
  it('reach every state node and take every transition', async () => {
    await coverEveryTransition('offer-decision', {
      modelMachine,
      liveMachine,
      events: modelEvents,
      runs: [decrease, special, increase, noOffer].map((application) => {
        const input = { application }
        const testModel = createModel(input)
        return { testModel, replay: (path, recorders) => replay(testModel, path, input, recorders) }
      }),
    })
  })
})

// ---------------------------------------------------------------------------------------------------------

describe('offer decisions (spec section 4)', () => {
  it('approving a yhat decrease calls yhat decrease approve, then reloads the application', async () => {
    const live = startLive({ application: decrease })
    expect(live.snapshot().value).toBe('deciding')
    live.actor.send({ type: 'APPROVE' })
    expect(live.calls.sent.map((s) => s.call)).toEqual([
      {
        name: 'yhatDecreaseApprove',
        method: 'PUT',
        path: '/private/client/yhat/offer/approve/decrease',
        body: null,
      },
    ])
    expect(isBusy(live.snapshot())).toBe(true)
    await live.answerSend()
    expect(live.snapshot().value).toBe('reloading')
    expect(live.calls.reloads.map((r) => r.id)).toEqual([42])
    await live.answerReload()
    expect(live.snapshot().status).toBe('done')
    expect(live.snapshot().context.application.status).toBe(applicationStatus.signing)
  })

  it('approving a special offer calls special offer approve (one call, no yhat call)', async () => {
    const live = startLive({ application: special })
    live.actor.send({ type: 'APPROVE' })
    await live.answerSend()
    expect(live.calls.sent.map((s) => s.call.path)).toEqual(['/private/client/special/offer/approve'])
  })

  it('approving an increase sends the chosen amount and term', () => {
    const live = startLive({ application: increase })
    live.actor.send({ type: 'APPROVE', choice: { amount: php(11_000), term: 14 } })
    expect(live.calls.sent[0]?.call).toEqual({
      name: 'yhatIncreaseApprove',
      method: 'PUT',
      path: '/private/client/yhat/offer/approve/increase',
      body: { amount: { amount: 1_100_000, currency: 'PHP' }, term: { value: 14, unit: 'day' } },
    })
  })

  it('refusing an increase sends the original desired amount and term; refusing a decrease cancels', () => {
    const up = startLive({ application: increase })
    up.actor.send({ type: 'REFUSE' })
    expect(up.calls.sent[0]?.call.body).toEqual({
      amount: { amount: 800_000, currency: 'PHP' },
      term: { value: 30, unit: 'day' },
    })
    const down = startLive({ application: decrease })
    down.actor.send({ type: 'REFUSE' })
    expect(down.calls.sent[0]?.call).toMatchObject({
      method: 'POST',
      path: '/private/client/application/42/cancel',
    })
  })

  it('an increase without a choice, or outside principal..offered, makes no call and says why', () => {
    const live = startLive({ application: increase })
    live.actor.send({ type: 'APPROVE' })
    expect(live.snapshot().context.refused).toBe('choice-required')
    live.actor.send({ type: 'APPROVE', choice: { amount: php(7000), term: 14 } })
    expect(live.snapshot().context.refused).toBe('choice-out-of-range')
    live.actor.send({ type: 'APPROVE', choice: { amount: php(12_000.01), term: 14 } })
    expect(live.snapshot().context.refused).toBe('choice-out-of-range')
    expect(live.calls.sent).toEqual([])
    live.actor.send({ type: 'APPROVE', choice: { amount: php(12_000), term: 30 } })
    expect(live.calls.sent).toHaveLength(1)
    expect(live.snapshot().context.refused).toBeNull()
  })

  it('a failed answer keeps its error code; RETRY re-sends the same call; BACK answers again', async () => {
    const live = startLive({ application: decrease })
    live.actor.send({ type: 'APPROVE' })
    await live.failSend('offerExpired')
    expect(live.snapshot().value).toBe('failed')
    expect(live.snapshot().context.errorCode).toBe('offerExpired')
    live.actor.send({ type: 'RETRY' })
    expect(live.calls.sent).toHaveLength(2)
    expect(live.calls.sent[1]?.call).toEqual(live.calls.sent[0]?.call)
    await live.failSend()
    live.actor.send({ type: 'BACK' })
    expect(live.snapshot().value).toBe('deciding')
    expect(live.snapshot().context.call).toBeNull()
  })

  it('a failed reload retries the reload only, never the answer', async () => {
    const live = startLive({ application: decrease })
    live.actor.send({ type: 'APPROVE' })
    await live.answerSend()
    await live.failReload()
    expect(live.snapshot().value).toBe('reloadFailed')
    live.actor.send({ type: 'RETRY' })
    expect(live.calls.sent).toHaveLength(1)
    expect(live.calls.reloads).toHaveLength(2)
    await live.answerReload()
    expect(live.snapshot().value).toBe('done')
  })

  it('an application without an offer has nothing to answer', () => {
    const live = startLive({ application: noOffer })
    expect(live.snapshot().value).toBe('noOffer')
    live.actor.send({ type: 'APPROVE' })
    live.actor.send({ type: 'REFUSE' })
    expect(live.calls.sent).toEqual([])
  })

  it('errorCodeOf reads an API error code, or says error', () => {
    expect(errorCodeOf(Object.assign(new Error('x'), { code: 'offerExpired' }))).toBe('offerExpired')
    expect(errorCodeOf(new Error('x'))).toBe('error')
    expect(errorCodeOf('boom')).toBe('error')
  })
})
