/**
 * Maker-checker's rules (domain/back-office/approvals.ts) and the proposals list: who may decide what, a proposer
 * never decides their own, a proposal is decided once, and each user lists only the kinds their roles decide,
 * a page at a time with the x-page headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decidableKinds, decisionRefusal } from '../../domain/back-office/approvals'
import { createTestApp } from '../support/app'
import { type Staff, staffMember } from '../support/staff'

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
