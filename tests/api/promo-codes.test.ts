/**
 * Promo codes edited through proposals (issue 19 item 6): listed with their uses, a new code or a change proposed
 * (202, kind promo_code), refused at once when unlawful, applied only when another administrator approves, audited
 * with before and after, and the decided proposals are the codes' history.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { promoCode, promoRedemption } from '../../server/db/schema'
import { auditEntry } from '../../server/db/schema-audit'
import { createTestApp } from '../support/app'
import { type Staff, staffMember } from '../support/staff'

type T = Awaited<ReturnType<typeof createTestApp>>

describe('promo codes with approval', () => {
  let t: T
  let maker: Staff
  let checker: Staff
  let underwriter: Staff
  beforeAll(async () => {
    t = await createTestApp()
    t.setClock(() => new Date('2026-11-22T03:00:00Z'))
    maker = await staffMember(t, 'administrator')
    checker = await staffMember(t, 'administrator')
    underwriter = await staffMember(t, 'underwriter')
  })
  afterAll(() => t.close())

  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever fields they check
  const send = async (method: string, path: string, who: Staff, body?: unknown): Promise<any> => {
    const res = await t.request(`/web/private/back-office${path}`, {
      method,
      headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: await res.json(), res }
  }
  const terms = {
    validFrom: '2026-11-01T00:00:00Z',
    validTo: '2027-01-01T00:00:00Z',
    clientKinds: ['guest', 'new', 'repeat'],
    maxUses: 100,
    usesPerClient: 1,
    interestDiscountBps: 2_500,
    serviceFeeDiscountBps: 0,
    description: 'Christmas',
  }
  const promoStatus = async (code: string) =>
    (await (await t.request(`/web/public/arithmetic/offer/stl/first/500000/30?promo_name=${code}`)).json())
      .data.promo?.status

  it('creates a code only when another administrator approves the proposal', async () => {
    const proposed = await send('POST', '/promo-codes', maker, { code: 'xmas26', ...terms, note: 'season' })
    expect(proposed.status).toBe(202)
    const proposal = proposed.body.data
    expect(proposal).toMatchObject({
      kind: 'promo_code',
      subject: 'XMAS26',
      status: 'pending',
      note: 'season',
    })
    expect(await t.database.db.select().from(promoCode).where(eq(promoCode.code, 'XMAS26'))).toEqual([])

    expect((await send('POST', `/approvals/${proposal.id}/approve`, maker, {})).body.response.code).toBe(
      'ownProposal',
    )
    const refused = await send('POST', `/approvals/${proposal.id}/approve`, underwriter, {})
    expect(refused.status).toBe(403)
    expect((await send('POST', '/promo-codes', underwriter, { code: 'NOPE1', ...terms })).status).toBe(403)

    const pending = await send('GET', '/approvals?kind=promo_code', checker)
    expect(pending.body.data.map((p: { id: number }) => p.id)).toContain(proposal.id)

    const approved = await send('POST', `/approvals/${proposal.id}/approve`, checker, {})
    expect(approved.status).toBe(200)
    expect(approved.body.data).toMatchObject({
      status: 'approved',
      result: { code: 'XMAS26', action: 'create' },
    })
    const [row] = await t.database.db.select().from(promoCode).where(eq(promoCode.code, 'XMAS26'))
    expect(row).toMatchObject({ interestDiscountBps: 2_500, maxUses: 100, description: 'Christmas' })

    const audit = await t.database.db
      .select()
      .from(auditEntry)
      .where(and(eq(auditEntry.entity, 'promo_code'), eq(auditEntry.entityId, 'XMAS26')))
    expect(audit).toHaveLength(1)
    expect(audit[0]).toMatchObject({ userId: checker.id, before: null })

    // A second proposal for an existing code is a change, not a new code.
    const again = await send('POST', '/promo-codes', maker, { code: 'XMAS26', ...terms })
    expect(again.status).toBe(409)
    expect(again.body.response.code).toBe('promoCodeExists')
  })

  it('lists the codes with their uses, paged', async () => {
    await t.database.db.insert(promoRedemption).values([
      { code: 'XMAS26', clientId: 1 },
      { code: 'XMAS26', clientId: 2 },
    ])
    const list = await send('GET', '/promo-codes?perPage=10', underwriter)
    expect(list.status).toBe(200)
    expect(list.res.headers.get('x-page')).toBe('1')
    expect(Number(list.res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(1)
    const xmas = list.body.data.find((p: { code: string }) => p.code === 'XMAS26')
    expect(xmas).toMatchObject({ uses: 2, state: 'active', validTo: '2027-01-01T00:00:00.000Z' })
  })

  it('changes and ends a code early through an approved change', async () => {
    expect(await promoStatus('XMAS26')).toBe('valid')
    const proposed = await send('PUT', '/promo-codes/xmas26', maker, {
      ...terms,
      validTo: '2026-11-22T03:00:00Z',
      note: 'stop it',
    })
    expect(proposed.status).toBe(202)
    expect(await promoStatus('XMAS26')).toBe('valid')
    const approved = await send('POST', `/approvals/${proposed.body.data.id}/approve`, checker, {})
    expect(approved.body.data.result).toMatchObject({ action: 'change' })
    expect(await promoStatus('XMAS26')).toBe('expired')
    const audit = await t.database.db
      .select()
      .from(auditEntry)
      .where(and(eq(auditEntry.entity, 'promo_code'), eq(auditEntry.entityId, 'XMAS26')))
    expect(audit).toHaveLength(2)
    expect(audit.find((e) => e.before !== null)?.before).toMatchObject({ code: 'XMAS26' })

    // The decided proposals are the history.
    const history = await send('GET', '/approvals?status=decided&kind=promo_code', maker)
    expect(history.body.data.map((p: { subject: string }) => p.subject)).toEqual(['XMAS26', 'XMAS26'])
  })

  it('refuses unlawful values at once, with the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ code: 'AB', ...terms }, 'code'],
      [{ code: 'TOOLONGCODE1', ...terms }, 'code'],
      [{ code: 'BAD-1', ...terms }, 'code'],
      [{ code: 'GOOD1', ...terms, interestDiscountBps: 10_001 }, 'interestDiscountBps'],
      [{ code: 'GOOD1', ...terms, serviceFeeDiscountBps: -1 }, 'serviceFeeDiscountBps'],
      [{ code: 'GOOD1', ...terms, validTo: terms.validFrom }, 'validTo'],
      [{ code: 'GOOD1', ...terms, clientKinds: [] }, 'clientKinds'],
      [{ code: 'GOOD1', ...terms, maxUses: 0 }, 'maxUses'],
    ]
    for (const [body, field] of cases) {
      const answer = await send('POST', '/promo-codes', maker, body)
      expect(answer.status, field).toBe(400)
      expect(
        answer.body.response.violations.map((v: { propertyPath: string }) => v.propertyPath),
        field,
      ).toContain(field)
    }
    const missing = await send('PUT', '/promo-codes/NOSUCH', maker, terms)
    expect(missing.status).toBe(404)
  })

  it('rejecting a proposal changes nothing', async () => {
    const proposed = await send('PUT', '/promo-codes/XMAS26', maker, { ...terms, interestDiscountBps: 9_000 })
    const rejected = await send('POST', `/approvals/${proposed.body.data.id}/reject`, checker, {
      reason: 'too generous',
    })
    expect(rejected.body.data.status).toBe('rejected')
    const [row] = await t.database.db.select().from(promoCode).where(eq(promoCode.code, 'XMAS26'))
    expect(row?.interestDiscountBps).toBe(2_500)
  })
})
