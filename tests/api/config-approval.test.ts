/**
 * Configuration changes need a second administrator (issue 19 item 6): proposed (202), refused at proposal time
 * when unlawful, approved by another administrator only, applied at the chosen time without a restart, kept as
 * versions, and every offer says which versions priced it.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultPricingConfig } from '../../domain/pricing/config'
import { configVersion } from '../../server/db/schema-approval'
import { auditEntry } from '../../server/db/schema-audit'
import { createTestApp } from '../support/app'
import { type Staff, staffMember } from '../support/staff'

type T = Awaited<ReturnType<typeof createTestApp>>

describe('configuration changes with approval', () => {
  let t: T
  let maker: Staff
  let checker: Staff
  let underwriter: Staff
  beforeAll(async () => {
    t = await createTestApp()
    maker = await staffMember(t, 'administrator')
    checker = await staffMember(t, 'administrator')
    underwriter = await staffMember(t, 'underwriter')
  })
  afterAll(() => t.close())

  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever fields they check
  const send = async (
    method: string,
    path: string,
    who: Staff,
    body?: unknown,
  ): Promise<{ status: number; body: any; res: Response }> => {
    const res = await t.request(`/web/private/back-office${path}`, {
      method,
      headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: await res.json(), res }
  }
  const guestOffer = async () =>
    (await (await t.request('/web/public/arithmetic/offer/stl/first/500000/30')).json()).data as {
      interest_without_discount: { amount: number }
      configVersion: { calculator: number; pricing: number }
    }
  const pricingWith = (interest: number) => ({
    ...defaultPricingConfig,
    interestPpmPerDay: { new: interest, repeat: interest },
  })

  it('takes a change as a proposal that only another administrator may approve', async () => {
    const before = await guestOffer()
    const proposed = await send('PUT', '/config/pricing', maker, {
      value: pricingWith(1_500),
      note: 'cheaper',
    })
    expect(proposed.status).toBe(202)
    const proposal = proposed.body.data
    expect(proposal).toMatchObject({
      kind: 'config.change',
      subject: 'pricing',
      status: 'pending',
      note: 'cheaper',
    })
    expect(proposal.proposedBy.id).toBe(maker.id)
    // Nothing changed yet.
    expect((await guestOffer()).interest_without_discount).toEqual(before.interest_without_discount)

    // The proposer may not approve their own; an underwriter may neither propose nor approve nor see it.
    const own = await send('POST', `/approvals/${proposal.id}/approve`, maker, {})
    expect(own.status).toBe(403)
    expect(own.body.response.code).toBe('ownProposal')
    expect((await send('PUT', '/config/pricing', underwriter, { value: pricingWith(1_400) })).status).toBe(
      403,
    )
    const refused = await send('POST', `/approvals/${proposal.id}/approve`, underwriter, {})
    expect(refused.status).toBe(403)
    expect(refused.body.response.code).toBe('roleNotAllowed')
    const uwList = await send('GET', '/approvals', underwriter)
    expect(uwList.status).toBe(200)
    expect(uwList.body.data).toEqual([])

    const pending = await send('GET', '/approvals?status=pending', checker)
    expect(pending.body.data.map((p: { id: number }) => p.id)).toContain(proposal.id)
    expect(pending.res.headers.get('x-total-count')).toBe(String(pending.body.data.length))

    const approved = await send('POST', `/approvals/${proposal.id}/approve`, checker, {})
    expect(approved.status).toBe(200)
    expect(approved.body.data).toMatchObject({ status: 'approved', decidedBy: { id: checker.id } })
    const after = await guestOffer()
    expect(after.interest_without_discount.amount).toBe(22_500)
    expect(after.configVersion.pricing).toBe(before.configVersion.pricing + 1)

    // Approving again answers the same approval and applies nothing more; rejecting it now is a conflict.
    const again = await send('POST', `/approvals/${proposal.id}/approve`, checker, {})
    expect(again.status).toBe(200)
    expect(again.body.data.decidedAt).toBe(approved.body.data.decidedAt)
    expect(
      (await send('POST', `/approvals/${proposal.id}/reject`, checker, { reason: 'too late' })).status,
    ).toBe(409)

    const versions = await send('GET', '/config/versions?key=pricing', maker)
    expect(versions.status).toBe(200)
    const [newest] = versions.body.data
    expect(newest).toMatchObject({
      key: 'pricing',
      version: after.configVersion.pricing,
      proposedBy: maker.id,
      approvedBy: checker.id,
      approvalId: proposal.id,
      state: 'inForce',
    })
    expect(versions.body.data[1].state).toBe('superseded')
    expect(newest.proposedByName).toMatch(/^Staff /)
    expect(newest.approvedByName).toMatch(/^Staff /)

    // The audit trail holds the proposal, the decision and the version applied, each in its transaction.
    const entries = await t.database.db.select().from(auditEntry).where(eq(auditEntry.entity, 'config'))
    expect(entries.some((e) => e.userId === checker.id && e.entityId === 'pricing')).toBe(true)
    const approvals = await t.database.db.select().from(auditEntry).where(eq(auditEntry.entity, 'approval'))
    expect(approvals.filter((e) => e.entityId === String(proposal.id)).map((e) => e.userId)).toEqual([
      maker.id,
      checker.id,
    ])

    const lending = await send('GET', '/config/lending', underwriter)
    expect(lending.body.data.versions.pricing).toBe(after.configVersion.pricing)
    expect(lending.body.data.pricing.interestPpmPerDay).toEqual({ new: 1_500, repeat: 1_500 })
  })

  it('refuses an unlawful value when proposed, with the field violations, and records no proposal', async () => {
    const pendingBefore = (await send('GET', '/approvals', checker)).body.data.length
    const greedy = await send('PUT', '/config/pricing', maker, { value: pricingWith(2_500) })
    expect(greedy.status).toBe(422)
    expect(greedy.body.response.code).toBe('configRejected')
    expect(
      greedy.body.response.violations.some((v: { propertyPath: string }) =>
        v.propertyPath.startsWith('pricing.interestPpmPerDay'),
      ),
    ).toBe(true)
    expect((await send('GET', '/approvals', checker)).body.data.length).toBe(pendingBefore)
    const badTime = await send('PUT', '/config/pricing', maker, {
      value: pricingWith(1_500),
      effectiveAt: 'soon',
    })
    expect(badTime.status).toBe(400)
  })

  it('applies an approved change at its effective time, without a restart', async () => {
    const before = await guestOffer()
    const effectiveAt = new Date(Date.now() + 1_500).toISOString()
    const proposed = await send('PUT', '/config/pricing', maker, { value: pricingWith(1_600), effectiveAt })
    expect(proposed.status).toBe(202)
    const approved = await send('POST', `/approvals/${proposed.body.data.id}/approve`, checker, {})
    expect(approved.status).toBe(200)
    expect(approved.body.data.result).toMatchObject({ key: 'pricing', effectiveAt })
    // Not yet: the offer is still the one in force, and the version is scheduled.
    expect((await guestOffer()).configVersion.pricing).toBe(before.configVersion.pricing)
    const scheduled = (await send('GET', '/config/versions?key=pricing&perPage=1', maker)).body.data[0]
    expect(scheduled).toMatchObject({ state: 'scheduled', effectiveAt })
    await new Promise((resolve) => setTimeout(resolve, Date.parse(effectiveAt) - Date.now() + 50))
    const after = await guestOffer()
    expect(after.configVersion.pricing).toBe(scheduled.version)
    expect(after.interest_without_discount.amount).toBe(24_000)
  })

  it('rejects with a reason and applies nothing', async () => {
    const before = await guestOffer()
    const proposed = await send('PUT', '/config/pricing', maker, { value: pricingWith(1_000) })
    const id = proposed.body.data.id
    expect((await send('POST', `/approvals/${id}/reject`, checker, {})).status).toBe(400)
    const rejected = await send('POST', `/approvals/${id}/reject`, checker, { reason: 'Not this quarter.' })
    expect(rejected.status).toBe(200)
    expect(rejected.body.data).toMatchObject({ status: 'rejected', reason: 'Not this quarter.' })
    expect((await send('POST', `/approvals/${id}/approve`, checker, {})).status).toBe(409)
    expect((await guestOffer()).configVersion).toEqual(before.configVersion)
    const decided = await send('GET', '/approvals?status=decided&perPage=1', maker)
    expect(decided.body.data[0].id).toBe(id)
    expect(decided.res.headers.get('x-per-page')).toBe('1')
  })

  it('applies a proposal once when two administrators approve it at the same moment', async () => {
    const third = await staffMember(t, 'administrator')
    const proposed = await send('PUT', '/config/pricing', maker, { value: pricingWith(1_550) })
    const id = proposed.body.data.id
    const count = async () =>
      (await t.database.db.select().from(configVersion).where(eq(configVersion.key, 'pricing'))).length
    const versions = await count()
    const answers = await Promise.all([
      send('POST', `/approvals/${id}/approve`, checker, {}),
      send('POST', `/approvals/${id}/approve`, third, {}),
    ])
    expect(answers.map((a) => a.status)).toEqual([200, 200])
    expect(answers[0]!.body.data.decidedBy).toEqual(answers[1]!.body.data.decidedBy)
    expect(await count()).toBe(versions + 1)
  })
})
