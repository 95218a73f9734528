/**
 * Issue 20, item 2: every sandbox scenario (domain/sandbox/scenarios.ts) run once over
 * POST /web/private/back-office/sandbox/scenarios/{name}, and the state it claims checked through what the
 * client reads (logging in with the answered password: GET /flow, the loan and the schedule) and the database
 * (the journey, the newest application and loan). Plus: the list, an unknown name (404), a role without
 * 'sandbox' (403), and a server without sandbox adapters (404, like the sandbox clock).
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ReviewQueueItem } from '../../domain/back-office/review'
import type { ActiveLoan, ApplicationStatusAnswer } from '../../domain/contract/lending-answers'
import type { ScenarioOutcome, ScenarioSummary } from '../../domain/contract/sandbox-scenarios'
import type { PaymentSchedule } from '../../domain/contract/servicing-answers'
import {
  type LoanPlan,
  type LoanStanding,
  type LoanState,
  leafOf,
} from '../../domain/loan/loan-lifecycle.machine'
import {
  DEFAULT_OVERDUE_DAYS,
  type ScenarioDefinition,
  type ScenarioName,
  scenarioNames,
  scenarios,
} from '../../domain/sandbox/scenarios'
import { auditEntry } from '../../server/db/schema-audit'
import { clientJourney } from '../../server/db/schema-journey'
import { application, applicationDecision, lendingJob, loan } from '../../server/db/schema-lending'
import { drainJobs, SCORING_PENDING_MAX_MS, SCORING_RECHECK_MS } from '../../server/services/lending/jobs'
import { createTestApp } from '../support/app'
import { useRealProviders } from '../support/real-providers'
import { staffMember } from '../support/staff'
import { type Answer, call, login, type TestApp, tokenOf } from './identity-helpers'
import { adminToken, seedSmallPsgc } from './journey-helpers'

const path = (name: string) => `/private/back-office/sandbox/scenarios/${name}`

describe('sandbox scenarios', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await adminToken(t)
  })
  afterAll(() => t.close())

  const run = (name: string, body: Record<string, unknown> = {}, token = admin) =>
    call<ScenarioOutcome>(t, 'POST', path(name), body, { token })

  /** Logs in as the scenario's client with the answered password (the first device needs no second factor). */
  async function clientToken(outcome: ScenarioOutcome) {
    const answer = await login(t, outcome.login.phone, outcome.login.password!, {
      deviceId: randomUUID(),
    })
    expect(answer.status, JSON.stringify(answer.body.response)).toBe(200)
    expect(answer.body.data.mfa).toBe(false)
    return tokenOf(answer)
  }
  const get = async <T>(token: string, route: string) => {
    const answer: Answer<T> = await call<T>(t, 'GET', route, undefined, { token })
    expect(answer.status, `${route}: ${JSON.stringify(answer.body.response)}`).toBe(200)
    return answer.body.data
  }

  /** What the database holds for the client: journey step, newest application's status, newest loan's leaf. */
  async function stored(clientId: number) {
    const db = t.database.db
    const [journey] = await db.select().from(clientJourney).where(eq(clientJourney.clientId, clientId))
    const [app] = await db
      .select()
      .from(application)
      .where(eq(application.clientId, clientId))
      .orderBy(desc(application.id))
      .limit(1)
    const [row] = await db
      .select()
      .from(loan)
      .where(eq(loan.clientId, clientId))
      .orderBy(desc(loan.id))
      .limit(1)
    return {
      step: journey?.step ?? 'new_client_created',
      applicationStatus: app?.status,
      loanLeaf: row
        ? leafOf(row.state as LoanState, row.plan as LoanPlan, row.standing as LoanStanding | null)
        : undefined,
    }
  }

  /** The application's decide job and the decisions taken on it. */
  async function decisionTrail(applicationId: number) {
    const db = t.database.db
    const [job] = await db
      .select()
      .from(lendingJob)
      .where(and(eq(lendingJob.applicationId, applicationId), eq(lendingJob.kind, 'decide')))
    const decisions = await db
      .select()
      .from(applicationDecision)
      .where(eq(applicationDecision.applicationId, applicationId))
    return { job: job!, decisions }
  }

  /** Scenario-specific checks through the client's own reads. */
  const checks: Partial<Record<ScenarioName, (token: string, outcome: ScenarioOutcome) => Promise<void>>> = {
    'application-processing': async (token, outcome) => {
      // The loading page: the flow is completed, the status polled is verification (7): the provider is checking.
      expect(await get(token, '/private/client/flow')).toMatchObject({ status: 'completed' })
      const polled = await get<ApplicationStatusAnswer>(token, '/private/client/application/actual/status')
      expect(polled?.status).toBe(7)
      // The provider was asked and answered "still evaluating": no decision, the job asks again in a minute, and
      // the answer did not count as a failed attempt.
      const { job, decisions } = await decisionTrail(outcome.applicationId!)
      expect(decisions).toEqual([])
      expect(job).toMatchObject({ doneAt: null, lockedUntil: null, attempts: 0 })
      const [app] = await t.database.db
        .select()
        .from(application)
        .where(eq(application.id, outcome.applicationId!))
      expect(job.runAt.getTime()).toBeGreaterThanOrEqual(app!.createdAt.getTime() + SCORING_RECHECK_MS)
    },
    'application-decision-error': async (_token, outcome) => {
      // One attempt, no retry: the refusal is final.
      const { job, decisions } = await decisionTrail(outcome.applicationId!)
      expect(job.doneAt).not.toBeNull()
      expect(job.attempts).toBe(1)
      expect(decisions).toMatchObject([
        { source: 'engine', outcome: 'error', reasons: ['scoring failed: ScoringRefusedError'] },
      ])
      // In the back office's review queue, as a decision error.
      const queue = await get<ReviewQueueItem[]>(
        admin,
        '/private/back-office/review-queue?kind=error&perPage=200',
      )
      expect(queue.find((item) => item.id === outcome.applicationId)).toMatchObject({ status: 401 })
    },
    'application-canceled': async (token, outcome) => {
      const polled = await get<ApplicationStatusAnswer>(token, '/private/client/application/actual/status')
      expect(polled?.status).toBe(5)
      // Approved before the client cancelled; the job is done.
      const { job, decisions } = await decisionTrail(outcome.applicationId!)
      expect(job.doneAt).not.toBeNull()
      expect(decisions.map((d) => d.outcome)).toEqual(['approve'])
    },
    'loan-due-tomorrow': async (token) => {
      const l = await get<ActiveLoan>(token, '/private/client/loan/active')
      expect(l.repaymentInvoice.dueDays).toBe(1)
    },
    'loan-overdue-10': async (token) => {
      const l = await get<ActiveLoan>(token, '/private/client/loan/active')
      expect(l.overdueDays).toBe(DEFAULT_OVERDUE_DAYS)
      expect(l.amountDue.parts?.penalties?.amount).toBeGreaterThan(0)
    },
    'loan-extension-available': async (token) => {
      const l = await get<ActiveLoan>(token, '/private/client/loan/active')
      expect(
        l.rollovers
          .filter((r) => r.available)
          .map((r) => r.type)
          .sort(),
      ).toEqual(['cheap', 'expensive'])
    },
    'loan-extension-taken': async (token) => {
      const l = await get<ActiveLoan>(token, '/private/client/loan/active')
      expect(l.extensions!.taken).toBe(1)
    },
    'loan-schedule-overdue-instalment': async (token) => {
      const s = await get<PaymentSchedule>(token, '/private/client/loan/active/payment-schedule')
      expect(s.payments.some((p) => p.overdue && p.status === 'unpaid')).toBe(true)
    },
    'loan-paid-repeat': async (token) => {
      expect(await get(token, '/private/client/loan/active')).toBeNull()
    },
    'loan-additional-available': async (token) => {
      const me = await get<{
        availableLoanAmount: { amount: number }
        additionalLoan?: { openLoans: number }
      }>(token, '/private/client')
      expect(me.availableLoanAmount.amount).toBeGreaterThan(0)
      expect(me.additionalLoan?.openLoans).toBe(1)
    },
    'loan-sold-debt': async (token) => {
      const sold = await get<unknown[]>(token, '/private/client/loan/sold-debt')
      expect(sold).toHaveLength(1)
    },
  }

  it('lists every scenario with the state it claims', async () => {
    const list = await get<ScenarioSummary[]>(admin, '/private/back-office/sandbox/scenarios')
    expect(list.map((s) => s.name)).toEqual(scenarioNames)
    const overdue = list.find((s) => s.name === 'loan-overdue-10')!
    expect(overdue).toMatchObject({ loanState: 'active.on_terms.overdue', loanStatus: 4, takesDays: true })
    expect(overdue.defaultDays).toBe(DEFAULT_OVERDUE_DAYS)
  })

  it.each(scenarioNames)('%s reaches the state it claims', async (name) => {
    const answer = await run(name)
    expect(answer.status, JSON.stringify(answer.body.response)).toBe(201)
    const outcome = answer.body.data
    const claim: ScenarioDefinition = scenarios[name]
    expect(outcome).toMatchObject({ scenario: name, journeyStep: claim.journeyStep })
    const db = await stored(outcome.clientId)
    expect(db.step).toBe(claim.journeyStep)
    expect(db.applicationStatus).toBe(claim.applicationStatus)
    expect(db.loanLeaf).toBe(claim.loanLeaf)
    expect(outcome.loanState).toBe(claim.loanLeaf ?? null)
    const token = await clientToken(outcome)
    expect((await get<{ step: string }>(token, '/private/client/flow')).step).toBe(claim.journeyStep)
    await checks[name]?.(token, outcome)
    // The run is audited, without the generated password.
    const [entry] = await t.database.db
      .select()
      .from(auditEntry)
      .where(and(eq(auditEntry.entity, 'sandbox-scenario'), eq(auditEntry.clientId, outcome.clientId)))
    expect(entry).toMatchObject({
      call: 'POST /web/private/back-office/sandbox/scenarios/{name}',
      outcome: 'done',
    })
    expect(JSON.stringify(entry)).not.toContain(outcome.login.password!)
  })

  it('takes the days overdue, and an existing client from where they stand', async () => {
    const first = await run('loan-active')
    const overdue = await run('loan-overdue-10', { clientId: first.body.data.clientId, days: 4 })
    expect(overdue.status, JSON.stringify(overdue.body.response)).toBe(201)
    expect(overdue.body.data).toMatchObject({
      clientId: first.body.data.clientId,
      loanState: 'active.on_terms.overdue',
    })
    expect(overdue.body.data.login.password).toBeNull()
    const token = await clientToken(first.body.data)
    expect((await get<ActiveLoan>(token, '/private/client/loan/active')).overdueDays).toBe(4)
    // Back to registration is not a step forward: refused, nothing changed.
    const back = await run('journey-details', { clientId: first.body.data.clientId })
    expect([back.status, back.body.response.code]).toEqual([409, 'scenarioUnreachable'])
  })

  it('puts an existing client in the application states from where they stand, when their name allows it', async () => {
    // A client who only signed up has no name yet: the scenario's own name decides the scoring.
    const signedUp = await run('journey-details')
    const failed = await run('application-decision-error', { clientId: signedUp.body.data.clientId })
    expect(failed.status, JSON.stringify(failed.body.response)).toBe(201)
    expect(failed.body.data).toMatchObject({ journeyStep: 'manual_page', applicationStatus: 401 })
    const waiting = (await run('journey-details')).body.data.clientId
    const pending = await run('application-processing', { clientId: waiting })
    expect(pending.status, JSON.stringify(pending.body.response)).toBe(201)
    expect(pending.body.data).toMatchObject({ journeyStep: 'application_processing', applicationStatus: 7 })
    // While the decision is pending, no walk starts.
    const busy = await run('application-canceled', { clientId: waiting })
    expect([busy.status, busy.body.response.code]).toEqual([409, 'scenarioUnreachable'])
    // Juan (registered, no application) cancels an approved application, then may apply again.
    const juan = (await run('journey-ready-to-apply')).body.data.clientId
    const canceled = await run('application-canceled', { clientId: juan })
    expect(canceled.status, JSON.stringify(canceled.body.response)).toBe(201)
    expect(canceled.body.data).toMatchObject({ journeyStep: 'no_loan_page', applicationStatus: 5 })
    // His own name is scored, and Juan is approved: a decision error is out of his reach.
    const notHim = await run('application-decision-error', { clientId: juan })
    expect([notHim.status, notHim.body.response.code]).toEqual([409, 'scenarioUnreachable'])
    const again = await run('application-approved', { clientId: juan })
    expect(again.status, JSON.stringify(again.body.response)).toBe(201)
    expect(again.body.data).toMatchObject({ journeyStep: 'otp_agreement', applicationStatus: 2 })
  })

  it('a pending decision is asked again each minute, and after a day without an answer is a decision error', async () => {
    const answer = await run('application-processing')
    const { applicationId } = answer.body.data
    const start = Date.now()
    try {
      t.setClock(() => new Date(start + SCORING_RECHECK_MS + 1_000))
      await drainJobs(t.deps)
      let trail = await decisionTrail(applicationId!)
      expect(trail.decisions).toEqual([])
      expect(trail.job).toMatchObject({ doneAt: null, attempts: 0 })
      expect((await stored(answer.body.data.clientId)).applicationStatus).toBe(7)
      t.setClock(() => new Date(start + SCORING_PENDING_MAX_MS + 1_000))
      await drainJobs(t.deps)
      trail = await decisionTrail(applicationId!)
      expect(trail.decisions).toMatchObject([
        { outcome: 'error', reasons: ['scoring failed: ScoringPendingError'] },
      ])
      expect(await stored(answer.body.data.clientId)).toMatchObject({
        step: 'manual_page',
        applicationStatus: 401,
      })
    } finally {
      t.setClock(() => new Date())
    }
  })

  it('refuses an unknown name (404), a bad body (400), an unknown client (404) and a role without sandbox (403)', async () => {
    const unknown = await run('loan-on-mars')
    expect([unknown.status, unknown.body.response.code]).toEqual([404, 'scenarioNotFound'])
    expect((await run('loan-overdue-10', { days: 0 })).status).toBe(400)
    expect((await run('loan-active', { clientId: 987654321 })).status).toBe(404)
    const underwriter = await staffMember(t, 'underwriter')
    expect((await run('loan-active', {}, underwriter.token)).status).toBe(403)
    expect(
      (
        await call(t, 'GET', '/private/back-office/sandbox/scenarios', undefined, {
          token: underwriter.token,
        })
      ).status,
    ).toBe(403)
  })

  it('is absent on a server without sandbox adapters, like the sandbox clock', async () => {
    const d = t.deps
    const restore = useRealProviders(d)
    try {
      expect((await run('loan-active')).status).toBe(404)
      expect(
        (await call(t, 'GET', '/private/back-office/sandbox/scenarios', undefined, { token: admin })).status,
      ).toBe(404)
    } finally {
      restore()
    }
  })
})
