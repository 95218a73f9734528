/**
 * The server's journey statechart (domain/journey/client-journey.machine.ts) driven through the real HTTP API on a
 * real database (issue 20 item 4): the few shortest paths that together reach every step and take every transition
 * (tests/support/model-api.ts plans them with `createTestModel`), each replayed on a fresh client, every event
 * caused by its real call (tests/api/journey-helpers.ts `eventSenders`: the same table the journey tests walk with),
 * the step read back from GET /flow after every event and the history rows checked; at each step reached once, every
 * call of an event the step does not accept must answer 409. Coverage is counted from the `state_transition` rows.
 *
 * Events without a call are caused the way the server causes them: the decision and payout jobs by `drainJobs` (the
 * lending worker's loop, `runJobs`); RETURN_TO_LOAN is sent by the server itself within the cancel or the
 * rejection of an additional application.
 *
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { and, asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  clientJourneyMachine,
  eventsAcceptedAt,
  type JourneyEventType,
  type JourneyStep,
  journeyEventDefinitions,
  journeyEventTypes,
} from '../../domain/journey/client-journey.machine'
import { stateTransition } from '../../server/db/schema-journey'
import { loan } from '../../server/db/schema-lending'
import { drainJobs } from '../../server/services/lending/jobs'
import { createTestApp } from '../support/app'
import { proposeAndApprove } from '../support/maker-checker'
import {
  type ApiReplay,
  coverageFromHistory,
  formatApiCoverage,
  planCoverage,
  replayPlan,
} from '../support/model-api'
import { type JourneyFacts, journeyPlanRules, sandboxDataOf } from '../support/model-rules'
import { type Staff, staffMember } from '../support/staff'
import { type Answer, call, lastCode, later, type TestApp, verifiedClient } from './identity-helpers'
import {
  addBankAccountWithCode,
  applyBody,
  clientStepCalls,
  eventSenders,
  expectOk,
  flow,
  seedSmallPsgc,
  type Walk,
  type WalkFacts,
} from './journey-helpers'

/** The sandbox data that makes the providers answer as the path needs (README, Sandbox). */
function walkFacts(f: JourneyFacts): WalkFacts {
  const data = sandboxDataOf(f)
  const payouts: Record<typeof data.payout, NonNullable<WalkFacts['payout']>> = {
    cash_pickup: { type: 'cash_pickup' },
    failing_bank: { type: 'bank_transfer', accountNumber: '001234560000' },
    bank: { type: 'bank_transfer' },
  }
  return { firstName: data.firstName, lastName: data.lastName, payout: payouts[data.payout] }
}

let t: TestApp
let admin: Staff

beforeAll(async () => {
  t = await createTestApp()
  await seedSmallPsgc(t)
  admin = await staffMember(t, 'administrator')
})
afterAll(async () => {
  await t?.close()
})

const loanIdOf = async (w: Walk) => {
  const [row] = await t.database.db
    .select({ id: loan.id })
    .from(loan)
    .where(eq(loan.clientId, w.c.clientId))
    .orderBy(asc(loan.id))
  return row?.id
}

/** Every call that sends a journey event, keyed as `journeyEventDefinitions` names it; null: not applicable yet. */
const refusalCalls: Record<string, (w: Walk) => Promise<Answer | null>> = {
  ...clientStepCalls,
  'GET /web/private/client/veriff/decision/{id}': async (w) =>
    w.sessionId
      ? call(t, 'GET', `/private/client/veriff/decision/${w.sessionId}`, undefined, { token: w.c.token })
      : null,
  'PUT /web/private/client/disbursement-type/select/{id}': async () => null,
  'POST /web/private/client/application': (w) =>
    call(t, 'POST', '/private/client/application', applyBody(1_000_00), { token: w.c.token }),
  'PUT /web/private/client/application/{id}': async (w) =>
    w.applicationId
      ? call(
          t,
          'PUT',
          `/private/client/application/${w.applicationId}`,
          { term: { value: 15 } },
          { token: w.c.token },
        )
      : null,
  'POST /web/private/client/application/{applicationId}/promocode': async (w) =>
    w.applicationId
      ? call(
          t,
          'POST',
          `/private/client/application/${w.applicationId}/promocode`,
          { promoCode: 'HIRAM10' },
          { token: w.c.token },
        )
      : null,
  'POST /web/private/client/application/{id}/cancel': async (w) =>
    w.applicationId
      ? call(t, 'POST', `/private/client/application/${w.applicationId}/cancel`, {}, { token: w.c.token })
      : null,
  'POST /web/private/client/application/agreement/{id}': async (w) =>
    w.applicationId
      ? call(t, 'POST', `/private/client/application/agreement/${w.applicationId}`, {}, { token: w.c.token })
      : null,
  'PUT /web/private/back-office/application/{id}/decision': async (w) =>
    w.applicationId
      ? call(
          t,
          'PUT',
          `/private/back-office/application/${w.applicationId}/decision`,
          { decision: 'approve', reason: 'Out of step (model test)' },
          { token: admin.token },
        )
      : null,
  'POST /web/private/back-office/loan/{id}/cancel': async (w) => {
    const id = await loanIdOf(w)
    return id
      ? call(
          t,
          'POST',
          `/private/back-office/loan/${id}/cancel`,
          { reason: 'Out of step' },
          { token: admin.token },
        )
      : null
  },
  // A payment is never refused for the journey's sake (an unknown or closed loan's payment is kept unmatched or as
  // credit), and a reversal is the loan's business: tests/api/model-loan.api.test.ts refuses them by loan state.
  'POST /web/private/back-office/payments': async () => null,
  'POST /web/private/back-office/payments/{id}/assign': async () => null,
  'POST /web/private/back-office/payments/{id}/reversal': async () => null,
}

/**
 * The back office's events, sent as this file's administrator (journey-helpers' `adminToken` logs the default
 * administrator in anew each time, and a second login code within a minute is refused).
 */
const backOfficeSenders: Partial<Record<JourneyEventType, (w: Walk, step: JourneyStep) => Promise<void>>> = {
  DECISION_APPROVED: (w) => decide(w, 'approve'),
  DECISION_REJECTED: (w) => decide(w, 'reject'),
  LOAN_REPAID: async (w) => {
    const active = await call<{ paymentReference: string; amountDue: { amount: number } }>(
      t,
      'GET',
      '/private/client/loan/active',
      undefined,
      { token: w.c.token },
    )
    const paid = await expectOk(
      call(
        t,
        'POST',
        '/private/back-office/payments',
        {
          reference: active.body.data.paymentReference,
          amount: active.body.data.amountDue.amount,
          channel: 'bayad',
          idempotencyKey: `model-repaid-${w.c.clientId}-${w.sent.length}`,
        },
        { token: admin.token },
      ),
      201,
    )
    w.paymentId = (paid.body.data as { id: number }).id
  },
  LOAN_REOPENED: async (w) => {
    // Maker-checker (issue 19 item 5): proposed by this file's administrator, approved by a second one.
    const reversed = await proposeAndApprove(
      t,
      admin.token,
      `/private/back-office/payments/${w.paymentId}/reversal`,
      {
        reason: 'Chargeback (model test)',
      },
    )
    expect(reversed.status, JSON.stringify(reversed.body.response)).toBe(200)
  },
  LOAN_CANCELLED: async (w) => {
    const cancelled = await refusalCalls['POST /web/private/back-office/loan/{id}/cancel']!(w)
    expect(cancelled?.status, JSON.stringify(cancelled?.body.response)).toBe(200)
  },
}

/** Each walk asks for SMS codes further in the future: one code a minute per phone, whatever it is for. */
const codeOffsets = new Map<number, number>()
function codeLater<T>(w: Walk, fn: () => Promise<T>): Promise<T> {
  const offset = (codeOffsets.get(w.c.clientId) ?? 0) + 2 * 61_000
  codeOffsets.set(w.c.clientId, offset)
  return later(t, offset, fn)
}

/** Client events whose calls need an SMS code once registration is finished (or a second time). */
const codeSenders: Partial<Record<JourneyEventType, (w: Walk) => Promise<void>>> = {
  SIGN: async (w) => {
    if (!w.documentsRendered)
      await expectOk(call(t, 'POST', '/private/client/render/document', {}, { token: w.c.token }), 201)
    w.documentsRendered = true
    const agreement = `/private/client/application/agreement/${w.applicationId}`
    await codeLater(w, async () => {
      await expectOk(call(t, 'POST', agreement, {}, { token: w.c.token }))
      const code = await lastCode(t, w.c.phone, 'agreement')
      await expectOk(call(t, 'POST', agreement, { code }, { token: w.c.token }))
    })
  },
  SAVE_PAYOUT: async (w) => {
    // Before registration is finished the first account needs no code (the walk's own sender).
    if (!finished.has(w.c.clientId)) return void (await eventSenders.SAVE_PAYOUT(w))
    await codeLater(w, async () => {
      const accountNumber =
        w.facts.payout.type === 'bank_transfer' && w.facts.payout.accountNumber
          ? '009876540000'
          : '009876543210'
      await addBankAccountWithCode(t, w.c, accountNumber)
    })
  },
}
const finished = new Set<number>()

/**
 * Events of the lending worker's jobs (the decision engine, the payout): caused by running its loop, `drainJobs`,
 * as the worker would, past the walk's latest signature (taken minutes ahead, see `codeLater`).
 */
const jobEvents = new Set<JourneyEventType>([
  'DECISION_APPROVED',
  'DECISION_REJECTED',
  'DECISION_MANUAL',
  'DECISION_DECREASE',
  'DECISION_INCREASE',
  'PAYOUT_SUCCEEDED',
  'PAYOUT_CASH_PICKUP_READY',
  'PAYOUT_FAILED',
])
const runJobsFor = (w: Walk) => {
  const ahead = (codeOffsets.get(w.c.clientId) ?? 0) + 120_000
  return drainJobs({ ...t.deps, now: () => new Date(Date.now() + ahead) })
}

async function decide(w: Walk, decision: 'approve' | 'reject') {
  await expectOk(
    call(
      t,
      'PUT',
      `/private/back-office/application/${w.applicationId}/decision`,
      { decision, reason: 'Checked by the model test' },
      { token: admin.token },
    ),
  )
}

/**
 * Calls answered 409 with a code of their own rather than journeyStepMismatch: their own precondition is checked
 * before the step (an offer to answer, documents to render, one open application, a decision only on a manual
 * review, a loan cancelled only after its payout failed).
 */
const ownCodes: Record<string, string[]> = {
  'PUT /web/private/client/special/offer/approve': ['noPendingOffer'],
  'PUT /web/private/client/yhat/offer/approve/decrease': ['noPendingOffer'],
  'PUT /web/private/client/yhat/offer/approve/increase': ['noPendingOffer'],
  'POST /web/private/client/render/document': ['applicationStatus'],
  'POST /web/private/client/application': ['applicationExist', 'loanNotAvailable'],
  'PUT /web/private/back-office/application/{id}/decision': ['applicationStatus'],
  'POST /web/private/back-office/loan/{id}/cancel': ['payoutInProgress', 'loanStateMismatch'],
}
/** The veriff decision of a session already decided is read again (200, nothing written). */
const replays = new Set(['GET /web/private/client/veriff/decision/{id}'])
let refusalCount = 0

const callsOf = new Map<string, JourneyEventType[]>()
for (const type of journeyEventTypes)
  for (const name of journeyEventDefinitions[type].calls)
    callsOf.set(name, [...(callsOf.get(name) ?? []), type])

const replay: ApiReplay<JourneyFacts, Walk> = {
  rules: journeyPlanRules,
  start: async (path) => {
    const c = await verifiedClient(t)
    return { t, c, facts: walkFacts(path.facts), step: 'new_client_created', sent: [] }
  },
  send: async (w, event, step) => {
    w.step = step as JourneyStep
    if (event === 'APPLY' && step === 'loan_page') {
      // An additional loan: within what the first loan leaves of the limit (domain/loan/additional-loan.ts).
      const answer = await expectOk(
        call(t, 'POST', '/private/client/application', applyBody(1_000_00), { token: w.c.token }),
        201,
      )
      w.applicationId = (answer.body.data as { id: number }).id
      w.documentsRendered = false
      return
    }
    if (event === 'APPLY') w.documentsRendered = false
    if (event === 'CHANGE_APPLICATION' && step === 'otp_agreement') {
      // After the decision the term may only shrink (within the approved one).
      await expectOk(
        call(
          t,
          'PUT',
          `/private/client/application/${w.applicationId}`,
          { term: { value: 13 } },
          { token: w.c.token },
        ),
      )
      w.documentsRendered = false
      return
    }
    const own = backOfficeSenders[event as JourneyEventType]
    const withCode = codeSenders[event as JourneyEventType]
    if (jobEvents.has(event as JourneyEventType) && step !== 'manual_page') await runJobsFor(w)
    else if (own) await own(w, step as JourneyStep)
    else if (withCode) await withCode(w)
    else await eventSenders[event as JourneyEventType](w)
    if (event === 'FINISH') finished.add(w.c.clientId)
  },
  persisted: async (w) => (await flow(t, w.c.token)).step,
  history: (w) =>
    t.database.db
      .select({
        fromState: stateTransition.fromState,
        toState: stateTransition.toState,
        event: stateTransition.event,
      })
      .from(stateTransition)
      .where(
        and(eq(stateTransition.clientId, w.c.clientId), eq(stateTransition.machine, clientJourneyMachine.id)),
      )
      .orderBy(asc(stateTransition.id)),
  refusals: async (w, step) => {
    const accepted = eventsAcceptedAt(step as JourneyStep)
    const refused = [...callsOf].filter(([, events]) => !events.some((e) => accepted.includes(e)))
    const answers = await Promise.all(
      refused.map(async ([name]) => ({ name, answer: await refusalCalls[name]!(w) })),
    )
    const wrong: string[] = []
    for (const { name, answer } of answers) {
      if (!answer) continue
      refusalCount++
      if (answer.status === 200 && replays.has(name)) continue
      if (answer.status !== 409) {
        wrong.push(`${name}: ${answer.status} ${answer.body.response.code}`)
        continue
      }
      const code = String(answer.body.response.code)
      if (code !== 'journeyStepMismatch' && !ownCodes[name]?.includes(code))
        wrong.push(`${name}: 409 ${code}`)
      else if (code === 'journeyStepMismatch' && !String(answer.body.response.message).includes(`(${step})`))
        wrong.push(`${name}: 409 not naming the step: ${answer.body.response.message}`)
    }
    expect(wrong.join('\n'), `refused at ${step}`).toBe('')
  },
}

describe('the journey statechart through the API', () => {
  it('the planned paths reach every step and take every transition through real calls; out-of-step calls are 409', async () => {
    const started = Date.now()
    const plan = planCoverage(journeyPlanRules)
    // Every transition of the model is on a planned path (100%, or the test fails).
    expect(plan.uncovered).toEqual([])
    const result = await replayPlan(replay, plan.paths)
    const report = coverageFromHistory(clientJourneyMachine, (leaf) => leaf, result)
    const missing = report.transitions.missing
    console.info(
      formatApiCoverage(
        'journey',
        report,
        `; ${result.paths} paths, ${result.steps} steps, ${refusalCount} refused calls, ${((Date.now() - started) / 1000).toFixed(1)} s${
          missing.length ? `; not reachable through the API: ${missing.join('; ')}` : ''
        }`,
      ),
    )
    expect(report.states.missing).toEqual([])
    expect(missing).toEqual([])
  }, 120_000)

  it('no cancel while the payout is queued: the model has no such transition and the server refuses it (409)', async () => {
    const c = await verifiedClient(t)
    const w: Walk = {
      t,
      c,
      facts: walkFacts(journeyPlanRules.initialFacts),
      step: 'new_client_created',
      sent: [],
    }
    const path: JourneyEventType[] = [
      'SUBMIT_DETAILS',
      'SUBMIT_EMPLOYMENT',
      'SUBMIT_REFERENCE',
      'SUBMIT_ADDRESS',
      'FINISH_ID_DOCUMENT',
      'VERIFICATION_APPROVED',
      'SKIP_BANK_DATA',
      'FINISH',
      'APPLY',
      'DECISION_APPROVED',
      'SIGN',
    ]
    for (const event of path) await eventSenders[event](w)
    expect((await flow(t, c.token)).step).toBe('payout_processing')
    const cancel = await refusalCalls['POST /web/private/back-office/loan/{id}/cancel']!(w)
    expect(cancel?.status).toBe(409)
    expect(cancel?.body.response.code).toBe('payoutInProgress')
    expect((await flow(t, c.token)).step).toBe('payout_processing')
  })
})
