/**
 * Properties under concurrency (issue 6): whatever the order in which create, update, cancel, decide and sign
 * start and interleave (fast-check's scheduler picks it), a client has at most one active application, an
 * application at most one disbursement and one loan, nothing answers 500, and the journey step agrees with the
 * application. On PGlite, and on PostgreSQL (a real connection pool) when DATABASE_URL is set.
 */
import { and, count, eq, notInArray } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventsAcceptedAt, journeySteps } from '../../domain/journey/client-journey.machine'
import { clientJourney } from '../../server/db/schema-journey'
import {
  application,
  disbursement,
  INACTIVE_APPLICATION_STATUSES,
  loan,
} from '../../server/db/schema-lending'
import { failureOf } from '../../server/http/errors'
import { type Actor, journeyTransaction } from '../../server/services/journey/journey'
import { renderApplicationDocuments } from '../../server/services/lending/documents'
import { runDueJobs } from '../../server/services/lending/jobs'
import { signInTransaction } from '../../server/services/lending/payout'
import { createTestApp } from '../support/app'
import { usingPostgres } from '../support/database'
import { call, type SignedUp, type TestApp } from './identity-helpers'
import { seedSmallPsgc } from './journey-helpers'
import { actual, apply, applyBody, readyClient } from './lending-helpers'

type Op = 'create' | 'update' | 'cancel' | 'decide' | 'sign'

/** Which journey steps may go with the client's active application's status (none: null). */
const stepsFor = (status: number | null): string[] => {
  switch (status) {
    case null:
      // Where the client may apply, or where the journey stands with a loan (only the loan's events move it).
      return journeySteps.filter(
        (s) =>
          eventsAcceptedAt(s).includes('APPLY') || eventsAcceptedAt(s).every((e) => e.startsWith('LOAN_')),
      )
    case 1:
      return ['application_processing']
    case 2:
      return ['otp_agreement']
    case 3:
      return ['payout_processing', 'disbursement_type']
    case 13:
    case 17:
      return ['offer_decrease']
    case 18:
      return ['offer_increase']
    case 14:
    case 401:
      return ['manual_page']
    default:
      return []
  }
}

describe('lending under concurrency', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
  })
  afterAll(() => t.close())

  const db = () => t.database.db

  /** The client as the actor of the calls this test makes without HTTP. */
  const asClient = (c: SignedUp, what: 'render' | 'sign'): Actor => ({
    kind: 'client',
    id: c.clientId,
    call:
      what === 'render'
        ? 'POST /web/private/client/render/document'
        : 'POST /web/private/client/application/agreement/{id}',
  })

  /** Signing as the API does after the code check (the code itself is single-use and tested elsewhere). */
  async function signDirect(c: SignedUp) {
    const row = await actual(t, c)
    if (!row) return 'none'
    try {
      await renderApplicationDocuments(t.deps, c.clientId, new Date(), 'bank transfer', asClient(c, 'render'))
      await journeyTransaction(t.deps, c.clientId, { type: 'SIGN' }, asClient(c, 'sign'), new Date(), (tx) =>
        signInTransaction(tx, c.clientId, row.id, new Date()),
      )
      return 'signed'
    } catch (error) {
      const failure = failureOf(error)
      if (failure && failure.status < 500) return `refused ${failure.status}`
      throw error
    }
  }

  async function runOp(op: Op, c: SignedUp): Promise<string> {
    const token = { token: c.token }
    switch (op) {
      case 'create':
        return String((await apply(t, c, applyBody(4_000_00, 14))).status)
      case 'update': {
        const row = await actual(t, c)
        if (!row) return 'none'
        return String(
          (
            await call(
              t,
              'PUT',
              `/private/client/application/${row.id}`,
              { amount: { amount: 3_000_00 } },
              token,
            )
          ).status,
        )
      }
      case 'cancel': {
        const row = await actual(t, c)
        if (!row) return 'none'
        return String(
          (await call(t, 'POST', `/private/client/application/${row.id}/cancel`, {}, token)).status,
        )
      }
      case 'decide':
        return `ran ${await runDueJobs(t.deps)}`
      case 'sign':
        return signDirect(c)
    }
  }

  async function invariants(c: SignedUp, results: string[]) {
    expect(results.filter((r) => /^5\d\d$/.test(r))).toEqual([])
    const active = await db()
      .select()
      .from(application)
      .where(
        and(
          eq(application.clientId, c.clientId),
          notInArray(application.status, [...INACTIVE_APPLICATION_STATUSES]),
        ),
      )
    expect(active.length).toBeLessThanOrEqual(1)
    const apps = await db().select().from(application).where(eq(application.clientId, c.clientId))
    for (const app of apps) {
      const [d] = await db()
        .select({ n: count() })
        .from(disbursement)
        .where(eq(disbursement.applicationId, app.id))
      const [l] = await db().select({ n: count() }).from(loan).where(eq(loan.applicationId, app.id))
      expect(d!.n).toBeLessThanOrEqual(1)
      expect(l!.n).toBeLessThanOrEqual(1)
      // Money goes out only for a signed application.
      if (d!.n > 0) expect([3, 4]).toContain(app.status)
    }
    const [journey] = await db().select().from(clientJourney).where(eq(clientJourney.clientId, c.clientId))
    expect(stepsFor(active[0]?.status ?? null)).toContain(journey!.step)
  }

  const opsArb = fc.array(fc.constantFrom<Op>('create', 'update', 'cancel', 'decide', 'sign'), {
    minLength: 2,
    maxLength: 6,
  })

  it('any interleaving of create, update, cancel, decide and sign keeps one active application and one disbursement', async () => {
    // Not vacuous: some runs must reach a signature and some a refusal. The random runs may all cancel or
    // change their application before it is signed (seen once in 15 runs on PostgreSQL), so the plain path is
    // always one of the runs: two creates race, the worker decides, the signature goes alone.
    const seen = new Set<string>()
    const scenario = async (s: fc.Scheduler, first: Op[], second: Op[]) => {
      const c = await readyClient(t, 'Juan')
      const scheduled = s.scheduleFunction((op: Op) => runOp(op, c))
      const round = async (ops: Op[]) => {
        const all = ops.map((op) => scheduled(op))
        await s.waitAll()
        const results = await Promise.all(all)
        for (const r of results) seen.add(r)
        return results
      }
      // Round 1 races creates against the rest; the worker then decides what is pending, and round 2 races
      // the signature (now possible) against updates, cancels, creates and the worker.
      const r1 = await round(['create', 'create', ...first])
      await invariants(c, r1)
      await runDueJobs(t.deps)
      const r2 = await round(['sign', ...second])
      for (let i = 0; i < 3; i++) await runDueJobs(t.deps)
      await invariants(c, r2)
    }
    await scenario(fc.sample(fc.scheduler(), { numRuns: 1, seed: 1 })[0]!, [], [])
    await fc.assert(fc.asyncProperty(fc.scheduler(), opsArb, opsArb, scenario), {
      numRuns: usingPostgres ? 15 : 25,
    })
    expect(seen).toContain('signed')
    expect(seen).toContain('409')
    expect(seen).toContain('201')
  }, 240_000)

  it('50 concurrent sign-and-pay attempts: one signature, one disbursement, one loan', async () => {
    const c = await readyClient(t, 'Juan')
    expect((await apply(t, c)).status).toBe(201)
    await runDueJobs(t.deps)
    const row = await actual(t, c)
    expect(row.status).toBe(2)
    await renderApplicationDocuments(t.deps, c.clientId, new Date(), 'bank transfer', asClient(c, 'render'))
    const attempts = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        journeyTransaction(t.deps, c.clientId, { type: 'SIGN' }, asClient(c, 'sign'), new Date(), (tx) =>
          signInTransaction(tx, c.clientId, row.id, new Date()),
        ).then(() => runDueJobs(t.deps)),
      ),
    )
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1)
    for (const a of attempts) if (a.status === 'rejected') expect(failureOf(a.reason)?.status).toBe(409)
    await Promise.all(Array.from({ length: 5 }, () => runDueJobs(t.deps)))
    const [d] = await db()
      .select({ n: count() })
      .from(disbursement)
      .where(eq(disbursement.clientId, c.clientId))
    const [l] = await db().select({ n: count() }).from(loan).where(eq(loan.clientId, c.clientId))
    expect([d!.n, l!.n]).toEqual([1, 1])
    expect((await actual(t, c)).status).toBe(4)
  })
})
