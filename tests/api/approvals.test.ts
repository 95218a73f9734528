/**
 * Maker-checker's rules (domain/back-office/approvals.ts) and the proposals list: who may decide what, a proposer
 * never decides their own, a proposal is decided once, and each user lists only the kinds their roles decide,
 * a page at a time with the x-page headers.
 */
import { and, asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decidableKinds, decisionRefusal } from '../../domain/back-office/approvals'
import { auditEntry } from '../../server/db/schema-audit'
import { payment } from '../../server/db/schema-payments'
import { createTestApp } from '../support/app'
import { type Staff, staffMember } from '../support/staff'
import { call, type TestApp } from './identity-helpers'
import { clientAt, seedSmallPsgc } from './journey-helpers'
import { backOffice } from './servicing-helpers'

describe('maker-checker rules', () => {
  const pending = { kind: 'config.change', status: 'pending', proposedBy: 1 }
  it('needs the permission of the proposed action', () => {
    expect(decisionRefusal(pending, { id: 2, roles: ['administrator'] }, 'approve')).toBeNull()
    expect(decisionRefusal(pending, { id: 2, roles: ['underwriter'] }, 'approve')).toBe('roleNotAllowed')
    const reversal = { ...pending, kind: 'payments.reverse' }
    expect(decisionRefusal(reversal, { id: 2, roles: ['collections'] }, 'approve')).toBeNull()
    expect(decisionRefusal(reversal, { id: 2, roles: ['support'] }, 'reject')).toBe('roleNotAllowed')
    expect(
      decisionRefusal({ ...pending, kind: 'sandbox' }, { id: 2, roles: ['administrator'] }, 'approve'),
    ).toBe('roleNotAllowed')
  })
  it('never lets a proposer decide their own, and decides once', () => {
    expect(decisionRefusal(pending, { id: 1, roles: ['administrator'] }, 'approve')).toBe('ownProposal')
    expect(decisionRefusal(pending, { id: 1, roles: ['administrator'] }, 'reject')).toBe('ownProposal')
    const approved = { ...pending, status: 'approved' }
    expect(decisionRefusal(approved, { id: 2, roles: ['administrator'] }, 'approve')).toBe('sameDecision')
    expect(decisionRefusal(approved, { id: 2, roles: ['administrator'] }, 'reject')).toBe('alreadyDecided')
  })
  it('lists the kinds a role decides', () => {
    expect(decidableKinds(['administrator'])).toEqual([
      'config.change',
      'payments.reverse',
      'loans.write-off',
      'debt.sell',
      'promo_code',
    ])
    expect(decidableKinds(['collections'])).toEqual(['payments.reverse', 'loans.write-off', 'debt.sell'])
    expect(decidableKinds(['auditor', 'support', 'underwriter'])).toEqual([])
  })
})

describe('the proposals list', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>
  let admin: Staff
  let collections: Staff
  beforeAll(async () => {
    t = await createTestApp()
    admin = await staffMember(t, 'administrator')
    collections = await staffMember(t, 'collections')
  })
  afterAll(() => t.close())

  const get = (path: string, who: Staff) =>
    t.request(`/web/private/back-office${path}`, { headers: { authorization: `Bearer ${who.token}` } })

  it('pages the pending proposals oldest first, of the kinds the user decides', async () => {
    for (const note of ['one', 'two', 'three']) {
      const res = await t.request('/web/private/back-office/config/servicing', {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          value: (await (await get('/config/lending', admin)).json()).data.servicing,
          note,
        }),
      })
      expect(res.status).toBe(202)
    }
    const first = await get('/approvals?perPage=2', admin)
    expect(first.status).toBe(200)
    expect(first.headers.get('x-total-count')).toBe('3')
    expect(first.headers.get('x-count')).toBe('2')
    expect((await first.json()).data.map((p: { note: string }) => p.note)).toEqual(['one', 'two'])
    const second = await get('/approvals?perPage=2&page=2', admin)
    expect((await second.json()).data.map((p: { note: string }) => p.note)).toEqual(['three'])
    // Collections decides reversals, write-offs and sales, not configuration: none of these for them.
    const theirs = await get('/approvals', collections)
    expect(theirs.status).toBe(200)
    expect((await theirs.json()).data).toEqual([])
    expect((await get('/approvals?kind=config.change', collections)).headers.get('x-total-count')).toBe('0')
    expect((await get('/approvals?status=bogus', admin)).status).toBe(400)
  })

  it('answers 404 for a proposal that does not exist', async () => {
    const res = await t.request('/web/private/back-office/approvals/999999/approve', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(404)
  })
})

/**
 * Issue 19 item 5: a reversal (like a write-off and a debt sale) is approved in two phases (docs/decisions/0035):
 * proposed by one user, decided by another holding the same permission; approving runs the reversal service as
 * the direct call did, and every phase leaves an audit entry.
 */
describe('a reversal through maker-checker', () => {
  let t: TestApp
  let maker: Staff
  let checker: Staff
  let support: Staff
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    maker = await staffMember(t, 'collections')
    checker = await staffMember(t, 'collections')
    support = await staffMember(t, 'support')
  })
  afterAll(() => t.close())

  const post = <T = Record<string, unknown>>(path: string, who: Staff, body: unknown = {}) =>
    call<T>(t, 'POST', `/private/back-office${path}`, body, { token: who.token })

  it('is proposed, refused to the proposer, rejected, proposed again and executed once', async () => {
    const c = await clientAt(t, 'loan_page')
    const paid = await backOffice(t, (await staffMember(t, 'administrator')).token).pay(
      c,
      100_00,
      `maker-checker-${c.clientId}`,
    )
    expect(paid.status).toBe(201)
    const paymentId = paid.body.data.id
    const reversal = `/payments/${paymentId}/reversal`
    const reason = { reason: 'Bounced deposit' }
    expect((await post(reversal, support, reason)).status).toBe(403)

    const first = await post<{ id: number; status: string }>(reversal, maker, reason)
    expect([first.status, first.body.data.status]).toEqual([202, 'pending'])
    const twice = await post(reversal, maker, reason)
    expect([twice.status, twice.body.response.code]).toEqual([409, 'proposalPending'])
    const own = await post(`/approvals/${first.body.data.id}/approve`, maker)
    expect([own.status, own.body.response.code]).toEqual([403, 'ownProposal'])
    const notTheirs = await post(`/approvals/${first.body.data.id}/approve`, support)
    expect([notTheirs.status, notTheirs.body.response.code]).toEqual([403, 'roleNotAllowed'])
    const rejected = await post<{ status: string }>(`/approvals/${first.body.data.id}/reject`, checker, {
      reason: 'Deposit cleared after all',
    })
    expect([rejected.status, rejected.body.data.status]).toEqual([200, 'rejected'])
    const [still] = await t.database.db.select().from(payment).where(eq(payment.id, paymentId))
    expect(still!.status).toBe('posted')

    const second = await post<{ id: number }>(reversal, maker, reason)
    expect(second.status).toBe(202)
    const approved = await post<{
      status: string
      decidedBy: { id: number }
      result: { status: string; reversalReason: string }
    }>(`/approvals/${second.body.data.id}/approve`, checker)
    expect(approved.status).toBe(200)
    expect(approved.body.data).toMatchObject({
      status: 'approved',
      decidedBy: { id: checker.id },
      result: { status: 'reversed', reversalReason: 'Bounced deposit' },
    })
    // Done in the proposer's name; the proposal records who approved.
    const [reversed] = await t.database.db.select().from(payment).where(eq(payment.id, paymentId))
    expect(reversed).toMatchObject({ status: 'reversed', reversedBy: maker.id })
    // Approved once: approving again answers it, rejecting it is too late.
    expect((await post(`/approvals/${second.body.data.id}/approve`, checker)).status).toBe(200)
    const late = await post(`/approvals/${second.body.data.id}/reject`, checker, { reason: 'Too late now' })
    expect([late.status, late.body.response.code]).toEqual([409, 'proposalDecided'])
    // A reversed payment cannot be proposed again.
    const gone = await post(reversal, maker, reason)
    expect([gone.status, gone.body.response.code]).toEqual([409, 'paymentNotPosted'])

    // Audited: the proposal, the claim (executing), the reversal and the outcome.
    const entries = await t.database.db
      .select()
      .from(auditEntry)
      .where(and(eq(auditEntry.entity, 'approval'), eq(auditEntry.entityId, String(second.body.data.id))))
      .orderBy(asc(auditEntry.id))
    expect(entries.map((e) => (e.after as { status: string }).status)).toEqual([
      'pending',
      'executing',
      'approved',
    ])
    const paymentEntries = await t.database.db
      .select()
      .from(auditEntry)
      .where(and(eq(auditEntry.entity, 'payment'), eq(auditEntry.entityId, String(paymentId))))
    expect(paymentEntries.filter((e) => e.userId === checker.id)).toEqual([
      expect.objectContaining({
        before: expect.objectContaining({ status: 'posted' }),
        after: expect.objectContaining({ status: 'reversed' }),
      }),
    ])
  })
})
