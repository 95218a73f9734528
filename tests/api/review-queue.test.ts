/**
 * Issue 19 item 4 over the API (docs/decisions/0036-review-queue.md): the review queue a page at a time with its
 * filters, assignment to an underwriter, and the four-eyes rule on approvals above the configured amount, with
 * two approvals at once never completing twice. Every write leaves its audit entry. Runs on PGlite, and on
 * PostgreSQL when DATABASE_URL is set.
 */
import { and, asc, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { config } from '../../server/db/schema'
import { auditEntry } from '../../server/db/schema-audit'
import { application, applicationDecision } from '../../server/db/schema-lending'
import { createTestApp } from '../support/app'
import { type Staff, staffMember } from '../support/staff'
import { call, type TestApp } from './identity-helpers'
import { seedSmallPsgc } from './journey-helpers'
import { apply, applyBody, expectStatus, readyClient, runJobs } from './lending-helpers'

type Item = {
  id: number
  status: number
  amount: number
  assignment: { to: { id: number; name: string }; at: string } | null
  fourEyes: boolean
  firstApproval: { by: { id: number; name: string }; at: string } | null
}

const QUEUE = '/private/back-office/review-queue'

describe('review queue', () => {
  let t: TestApp
  let admin: Staff
  let ana: Staff
  let ben: Staff
  let cai: Staff
  let support: Staff
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await staffMember(t, 'administrator')
    ana = await staffMember(t, 'underwriter')
    ben = await staffMember(t, 'underwriter')
    cai = await staffMember(t, 'underwriter')
    support = await staffMember(t, 'support')
  })
  afterAll(() => t.close())

  /** A client named "Manual" (sandbox scoring: manual verification 14) applies for `amount` centavos. */
  async function waiting(amount = 5_000_00): Promise<number> {
    const c = await readyClient(t, 'Manual')
    const app = (await expectStatus(apply(t, c, { ...applyBody(), loanAmount: { amount } }), 201)).body.data
    await runJobs(t)
    const [row] = await t.database.db.select().from(application).where(eq(application.id, app.id))
    expect(row?.status).toBe(14)
    return app.id
  }

  const threshold = (fourEyesAboveCentavos: number) =>
    t.database.db.update(config).set({ value: { fourEyesAboveCentavos } }).where(eq(config.key, 'review'))

  const queue = (who: Staff, query = '') =>
    call<Item[]>(t, 'GET', `${QUEUE}${query}`, undefined, { token: who.token })
  const itemOf = async (who: Staff, id: number) =>
    (await queue(who, '?perPage=200')).body.data.find((i) => i.id === id)
  const decide = (
    who: Staff,
    id: number,
    decision: 'approve' | 'reject',
    reason = 'Payslip checked by phone.',
  ) =>
    call<{ id: number; status: number }>(
      t,
      'PUT',
      `/private/back-office/application/${id}/decision`,
      { decision, reason },
      { token: who.token },
    )
  const assign = (who: Staff, id: number, body: Record<string, unknown> = {}) =>
    call<Item>(t, 'POST', `/private/back-office/application/${id}/assign`, body, { token: who.token })
  const auditOf = (id: number) =>
    t.database.db
      .select()
      .from(auditEntry)
      .where(and(eq(auditEntry.entity, 'application'), eq(auditEntry.entityId, String(id))))
      .orderBy(asc(auditEntry.id))

  it('seeds the four-eyes threshold at PHP 10 000.00', async () => {
    const [row] = await t.database.db.select().from(config).where(eq(config.key, 'review'))
    expect(row?.value).toEqual({ fourEyesAboveCentavos: 1_000_000 })
  })

  it('answers a page at a time with the x-page headers, oldest first', async () => {
    const ids = [await waiting(), await waiting(), await waiting()]
    const first = await queue(ana, '?perPage=2&page=1')
    expect(first.status).toBe(200)
    expect(first.res.headers.get('x-page')).toBe('1')
    expect(first.res.headers.get('x-per-page')).toBe('2')
    expect(Number(first.res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(3)
    expect(first.body.data).toHaveLength(2)
    const all = (await queue(ana, '?perPage=200')).body.data.map((i) => i.id)
    expect(all.filter((id) => ids.includes(id))).toEqual(ids)
    const second = await queue(ana, '?perPage=2&page=2')
    expect(second.body.data[0]?.id).toBe(all[2])
    // Below the threshold, no second signature is needed.
    expect((await itemOf(ana, ids[0]!))?.fourEyes).toBe(false)
  })

  it('filters by kind, assignee, amount and the Manila day received; refuses a bad filter with 400', async () => {
    const small = await waiting(3_000_00)
    const large = await waiting(7_000_00)
    await t.database.db
      .update(application)
      .set({ status: 401, createdAt: new Date('2026-03-09T16:30:00Z') }) // 10 March, 00:30 in Manila
      .where(eq(application.id, large))
    await expectStatus(assign(ana, small), 200)

    const ids = async (query: string) => (await queue(ana, query)).body.data.map((i) => i.id)
    expect(await ids('?kind=error&perPage=200')).toContain(large)
    expect(await ids('?kind=error&perPage=200')).not.toContain(small)
    expect(await ids('?kind=manual&perPage=200')).toContain(small)
    expect(await ids('?assignee=me&perPage=200')).toEqual([small])
    expect(await ids('?assignee=unassigned&perPage=200')).not.toContain(small)
    expect((await queue(ben, '?assignee=me')).body.data).toEqual([])
    expect(await ids('?minAmount=600000&maxAmount=700000&perPage=200')).toEqual([large])
    expect(await ids('?maxAmount=300000&perPage=200')).toContain(small)
    expect(await ids('?from=2026-03-10&to=2026-03-10')).toEqual([large])
    expect(await ids('?to=2026-03-09')).toEqual([])

    for (const bad of [
      '?minAmount=5&maxAmount=4',
      '?from=2026-02-30',
      '?from=2026-03-11&to=2026-03-10',
      '?kind=everything',
      '?assignee=you',
      '?minAmount=-1',
      '?perPage=201',
    ])
      expect((await queue(ana, bad)).status, bad).toBe(400)
  })

  it('assigns: to oneself, released, to a named underwriter by an administrator only; every change audited', async () => {
    const id = await waiting()
    const taken = await expectStatus(assign(ana, id), 200)
    expect(taken.body.data.assignment?.to.id).toBe(ana.id)
    // Another underwriter may not give it away or release it; only an administrator may.
    expect((await assign(ben, id, { userId: ben.id })).status).toBe(403)
    expect((await assign(ben, id, { userId: null })).status).toBe(403)
    const given = await expectStatus(assign(admin, id, { userId: cai.id }), 200)
    expect(given.body.data.assignment?.to).toEqual({ id: cai.id, name: expect.any(String) })
    // Only to a user who may decide applications.
    const toSupport = await assign(admin, id, { userId: support.id })
    expect(toSupport.status).toBe(409)
    expect(toSupport.body.response.violations?.map((v) => v.propertyPath)).toEqual(['userId'])
    expect((await assign(admin, id, { userId: 9_999_999 })).status).toBe(409)
    // Support reads the queue but may not assign.
    expect((await queue(support)).status).toBe(200)
    expect((await assign(support, id)).status).toBe(403)
    const released = await expectStatus(assign(cai, id, { userId: null }), 200)
    expect(released.body.data.assignment).toBeNull()
    expect((await assign(ana, id, { userId: 'me' })).status).toBe(400)

    const entries = (await auditOf(id)).filter((e) => e.outcome === 'done')
    const assigned = entries.map(
      (e) => (e.after as { review: { assignedTo: number | null } }).review.assignedTo,
    )
    expect(assigned).toEqual([ana.id, cai.id, null])
    expect(entries[0]?.userId).toBe(ana.id)
    expect(entries[1]?.userId).toBe(admin.id)
  })

  it('an application not in the queue cannot be assigned (404 / 409)', async () => {
    expect((await assign(ana, 9_999_999)).status).toBe(404)
    const id = await waiting()
    await expectStatus(decide(ana, id, 'reject'), 200)
    expect((await assign(ana, id)).status).toBe(409)
  })

  describe('four eyes', () => {
    beforeAll(() => threshold(400_000))
    afterAll(() => threshold(1_000_000))

    it('above the threshold: the first approval waits for a second, different underwriter', async () => {
      const id = await waiting(5_000_00)
      expect((await itemOf(ana, id))?.fourEyes).toBe(true)
      const first = await expectStatus(decide(ana, id, 'approve', 'Employer confirmed.'), 200)
      expect(first.body.data.status).toBe(14)
      const marked = await itemOf(ben, id)
      expect(marked?.firstApproval?.by.id).toBe(ana.id)
      expect((await queue(ben, '?kind=second&perPage=200')).body.data.map((i) => i.id)).toContain(id)

      // The same underwriter cannot give the second signature.
      const again = await decide(ana, id, 'approve')
      expect(again.status).toBe(409)
      expect(again.body.response.code).toBe('secondApprovalSameUser')

      const second = await expectStatus(decide(ben, id, 'approve', 'Payslip checked by phone.'), 200)
      expect(second.body.data.status).toBe(2)
      expect(await itemOf(ana, id)).toBeUndefined()
      const decisions = await t.database.db
        .select()
        .from(applicationDecision)
        .where(and(eq(applicationDecision.applicationId, id), eq(applicationDecision.source, 'back_office')))
      expect(decisions).toHaveLength(1)
      expect(decisions[0]).toMatchObject({ outcome: 'approve', decidedBy: ben.id })
      expect(decisions[0]?.reasons).toEqual(['Employer confirmed.', 'Payslip checked by phone.'])

      // Both signatures are in the trail, with the values before and after.
      const entries = (await auditOf(id)).filter((e) => e.outcome === 'done')
      expect(entries.map((e) => e.userId)).toEqual([ana.id, ben.id])
      expect(entries[0]?.after).toMatchObject({ status: 14, review: { firstApprovedBy: ana.id } })
      expect(entries[1]?.after).toMatchObject({ status: 2, decision: 'approve', decidedBy: ben.id })
    })

    it('a rejection needs one person, even after a first approval', async () => {
      const id = await waiting(5_000_00)
      await expectStatus(decide(ana, id, 'approve'), 200)
      const rejected = await expectStatus(decide(ana, id, 'reject', 'Payslip does not match.'), 200)
      expect(rejected.body.data.status).toBe(6)
    })

    it('at or below the threshold one approval completes', async () => {
      const id = await waiting(4_000_00)
      expect((await itemOf(ana, id))?.fourEyes).toBe(false)
      expect((await expectStatus(decide(ana, id, 'approve'), 200)).body.data.status).toBe(2)
    })

    it('two second approvals at once complete once: one 200, one 409', async () => {
      const id = await waiting(5_000_00)
      await expectStatus(decide(ana, id, 'approve'), 200)
      const answers = await Promise.all([decide(ben, id, 'approve'), decide(cai, id, 'approve')])
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
      const decisions = await t.database.db
        .select()
        .from(applicationDecision)
        .where(and(eq(applicationDecision.applicationId, id), eq(applicationDecision.source, 'back_office')))
      expect(decisions).toHaveLength(1)
    })

    it('two first approvals at once by different underwriters: one signs first, the other completes', async () => {
      const id = await waiting(5_000_00)
      const answers = await Promise.all([decide(ana, id, 'approve'), decide(ben, id, 'approve')])
      expect(answers.map((a) => a.status)).toEqual([200, 200])
      expect(answers.map((a) => a.body.data.status).sort()).toEqual([14, 2])
      const [row] = await t.database.db.select().from(application).where(eq(application.id, id))
      expect(row?.status).toBe(2)
    })

    it('the same underwriter approving twice at once signs once and is refused once', async () => {
      const id = await waiting(5_000_00)
      const answers = await Promise.all([decide(ana, id, 'approve'), decide(ana, id, 'approve')])
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
      const [row] = await t.database.db.select().from(application).where(eq(application.id, id))
      expect(row?.status).toBe(14)
    })

    it('a first approval on older figures does not count', async () => {
      const id = await waiting(5_000_00)
      await expectStatus(decide(ana, id, 'approve'), 200)
      // The figures change (as a client's change would): the first signature was for the old version.
      const [row] = await t.database.db.select().from(application).where(eq(application.id, id))
      await t.database.db
        .update(application)
        .set({ version: row!.version + 1 })
        .where(inArray(application.id, [id]))
      expect((await itemOf(ben, id))?.firstApproval).toBeNull()
      const answer = await expectStatus(decide(ben, id, 'approve'), 200)
      expect(answer.body.data.status).toBe(14)
      expect((await itemOf(ana, id))?.firstApproval?.by.id).toBe(ben.id)
    })
  })
})
