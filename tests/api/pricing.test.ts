import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { offerCapBreaches } from '../../domain/pricing/caps'
import { defaultPricingConfig } from '../../domain/pricing/config'
import { promoCode, promoRedemption } from '../../server/db/schema'
import { backOfficeUser, client } from '../../server/db/schema-identity'
import { openSession } from '../../server/services/identity/sessions'
import { createTestApp } from '../support/app'
import { changeConfig } from '../support/config-change'

type T = Awaited<ReturnType<typeof createTestApp>>
const auth = (token: string) => ({
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
})

describe('offers and promo codes', () => {
  let t: T
  let clientToken: string
  let userToken: string
  let clientId: number
  beforeAll(async () => {
    t = await createTestApp()
    // Rows straight into the database: these tests are about pricing, not sign-up.
    const db = t.database.db
    const [c] = await db
      .insert(client)
      .values({ phone: '09171234567', email: 'ana@example.ph', passwordHash: 'x' })
      .returning()
    clientId = c!.id
    const [u] = await db
      .insert(backOfficeUser)
      .values({ email: 'ops@hiram.local', name: 'Ops', passwordHash: 'x', roles: ['administrator'] })
      .returning()
    clientToken = (await openSession(db, t.secrets.jwtSecret, { type: 'client', id: c!.id }, new Date()))
      .token
    userToken = (await openSession(db, t.secrets.jwtSecret, { type: 'user', id: u!.id }, new Date())).token
  })
  afterAll(() => t.close())

  it('prices a guest offer with every Offer field of the spec, in centavos', async () => {
    t.setClock(() => new Date('2026-11-22T03:00:00Z'))
    const { res, body } = await t.json<Record<string, unknown>>(
      '/web/public/arithmetic/offer/stl/first/500000/30',
    )
    expect(res.status).toBe(200)
    const offer = body.data
    for (const field of [
      'serviceFee',
      'withdrawalFee',
      'apr',
      'principal',
      'total',
      'total_without_discount',
      'serviceFee_without_discount',
      'apr_without_discount',
      'borrowers_advantage_package_fee',
      'interest',
      'interest_without_discount',
      'invoicingFee',
      'endDate',
      'processingFee',
      'processing_fee_without_discount',
      'discount',
      'extensions',
    ]) {
      expect(offer, field).toHaveProperty(field)
    }
    expect(offer.principal).toEqual({ amount: 500_000 })
    expect(offer.endDate).toBe('2026-12-22')
    // 0.19%/day × 30 days on ₱5,000 = ₱285.00, less the 20% first-loan discount = ₱228.00.
    expect(offer.interest_without_discount).toEqual({ amount: 28_500 })
    expect(offer.interest).toEqual({ amount: 22_800 })
    const m = (k: string) => (offer[k] as { amount: number }).amount
    expect(m('total')).toBe(
      m('principal') +
        m('interest') +
        m('processingFee') +
        m('serviceFee') +
        m('withdrawalFee') +
        m('invoicingFee') +
        m('borrowers_advantage_package_fee'),
    )
    expect(offerCapBreaches(offer as never, defaultPricingConfig.extensions.maxCount)).toEqual([])
    expect((offer.extensions as unknown[]).length).toBe(2)
  })

  it('uses the Manila calendar for the repay date', async () => {
    // 17:00 UTC is already the next day in Manila.
    t.setClock(() => new Date('2026-11-22T17:00:00Z'))
    const { body } = await t.json<{ endDate: string }>('/web/public/arithmetic/offer/stl/first/500000/7')
    expect(body.data.endDate).toBe('2026-11-30')
  })

  it('answers a guest offer asked again the same, until the Manila day turns', async () => {
    const path = '/web/public/arithmetic/offer/stl/first/300000/14?optionalFee=true'
    t.setClock(() => new Date('2026-11-22T15:00:00Z'))
    const first = await (await t.request(path)).text()
    const again = await (await t.request(path)).text()
    expect(again).toBe(first)
    expect(JSON.parse(first).data.endDate).toBe('2026-12-06')
    // 16:00 UTC is midnight in Manila: a new day, a new repay date for the same request.
    t.setClock(() => new Date('2026-11-22T16:00:00Z'))
    expect((await t.json<{ endDate: string }>(path)).body.data.endDate).toBe('2026-12-07')
  })

  it('checks a promo code against its uses on every request', async () => {
    t.setClock(() => new Date('2026-11-22T03:00:00Z'))
    await t.database.db.insert(promoCode).values({
      code: 'ONCE1',
      validFrom: new Date('2026-01-01T00:00:00Z'),
      validTo: new Date('2027-01-01T00:00:00Z'),
      clientKinds: ['guest', 'new', 'repeat'],
      maxUses: 1,
      interestDiscountBps: 5_000,
      serviceFeeDiscountBps: 0,
    })
    const path = '/web/public/arithmetic/offer/stl/first/500000/30?optionalFee=true&promo_name=ONCE1'
    const before = await t.json<{ promo: { status: string } }>(path)
    expect(before.body.data.promo.status).toBe('valid')
    await t.database.db.insert(promoRedemption).values({ code: 'ONCE1', clientId })
    const after = await t.json<{ promo: { status: string } }>(path)
    expect(after.body.data.promo.status).toBe('used')
  })

  it('leaves out the package fee when optionalFee is false', async () => {
    const withFee = await t.json<{ borrowers_advantage_package_fee: { amount: number } }>(
      '/web/public/arithmetic/offer/stl/first/500000/30',
    )
    const without = await t.json<{ borrowers_advantage_package_fee: { amount: number } }>(
      '/web/public/arithmetic/offer/stl/first/500000/30?optionalFee=false',
    )
    expect(withFee.body.data.borrowers_advantage_package_fee.amount).toBeGreaterThan(0)
    expect(without.body.data.borrowers_advantage_package_fee.amount).toBe(0)
  })

  it('refuses amounts and terms outside the limits or off the interval with violations, not a clamped answer', async () => {
    for (const [path, field] of [
      ['/web/public/arithmetic/offer/stl/first/50000/30', 'amount'],
      ['/web/public/arithmetic/offer/stl/first/99999999/30', 'amount'],
      ['/web/public/arithmetic/offer/stl/first/500050/30', 'amount'],
      ['/web/public/arithmetic/offer/stl/first/500000/3', 'term'],
      ['/web/public/arithmetic/offer/stl/first/500000/31', 'term'],
      ['/web/public/arithmetic/offer/stl/first/5000.5/30', 'params.amount'],
      ['/web/public/arithmetic/offer/stl/third/500000/30', 'params.sequence_type'],
    ] as const) {
      const { res, body } = await t.json(path)
      expect(res.status, path).toBe(400)
      expect(
        (body.response.violations as { propertyPath: string }[]).map((v) => v.propertyPath),
        path,
      ).toContain(field)
    }
  })

  it('applies a valid promo and reports an invalid one without applying it', async () => {
    t.setClock(() => new Date('2026-11-22T03:00:00Z'))
    const plain = await t.json<{ interest: { amount: number } }>(
      '/web/public/arithmetic/offer/stl/repeated/1000000/30',
    )
    const promo = await t.json<{ interest: { amount: number }; promo: { applied: boolean; status: string } }>(
      '/web/public/arithmetic/offer/stl/repeated/1000000/30?promo_name=hiram10',
    )
    expect(promo.body.data.promo).toEqual({ code: 'HIRAM10', status: 'valid', applied: true })
    expect(promo.body.data.interest.amount).toBeLessThan(plain.body.data.interest.amount)
    const expired = await t.json<{
      interest: { amount: number }
      promo: { applied: boolean; status: string }
    }>('/web/public/arithmetic/offer/stl/repeated/1000000/30?promo_name=OLDPROMO')
    expect(expired.body.data.promo).toEqual({ code: 'OLDPROMO', status: 'expired', applied: false })
    expect(expired.body.data.interest).toEqual(plain.body.data.interest)
  })

  it('validates promo codes: valid, expired, not started, unknown, wrong client kind, bad format', async () => {
    const check = async (promoCode: string, token?: string) => {
      const res = await t.request(
        token ? '/web/private/client/promocode/validate' : '/web/public/client/promocode/validate',
        {
          method: 'PUT',
          ...(token ? auth(token) : { headers: { 'content-type': 'application/json' } }),
          body: JSON.stringify({ promoCode }),
        },
      )
      return { status: res.status, body: await res.json() }
    }
    expect((await check('WELCOME')).body.data).toEqual({ code: 'WELCOME', status: 'valid', valid: true })
    expect((await check('oldpromo')).body.data.status).toBe('expired')
    expect((await check('SOON27')).body.data.status).toBe('not_started')
    expect((await check('NOPE123')).body.data.status).toBe('unknown')
    const bad = await check('x!')
    expect(bad.status).toBe(400)
    expect(bad.body.response.violations[0].propertyPath).toBe('promoCode')
    expect((await check('WELCOME', clientToken)).body.data.status).toBe('valid')
  })

  it('needs a client token for the client offer and a user token for the back-office lookup', async () => {
    expect((await t.request('/web/private/client/arithmetic/offer/stl/500000/30')).status).toBe(401)
    expect(
      (await t.request('/web/private/client/arithmetic/offer/stl/500000/30', auth(userToken))).status,
    ).toBe(403)
    const own = await t.request('/web/private/client/arithmetic/offer/stl/500000/30', auth(clientToken))
    expect(own.status).toBe(200)
    expect(
      (
        await t.request(
          `/web/private/back-office/client/${clientId}/arithmetic/offer?amount=500000&term=30`,
          auth(clientToken),
        )
      ).status,
    ).toBe(403)
    const bo = await t.request(
      `/web/private/back-office/client/${clientId}/arithmetic/offer?amount=500000&term=30`,
      auth(userToken),
    )
    expect(bo.status).toBe(200)
    expect((await bo.json()).data.principal).toEqual({ amount: 500_000 })
  })

  it('keeps a client within the amount available to them', async () => {
    const res = await t.request('/web/private/client/arithmetic/offer/stl/2000000/30', auth(clientToken))
    expect(res.status).toBe(400)
  })

  it('refuses to save a pricing that would break a legal cap, and keeps the old one', async () => {
    // Proposed by one administrator, approved by a second (issue 19 item 6): refusals come at proposal time.
    const put = async (key: string, value: unknown) => {
      const answer = await changeConfig(t, userToken, key, value)
      return { status: answer.status, json: async () => answer.body }
    }
    const greedy = { ...defaultPricingConfig, interestPpmPerDay: { new: 2_500, repeat: 1_700 } }
    const refused = await put('pricing', greedy)
    expect(refused.status).toBe(422)
    const body = await refused.json()
    expect(body.response.code).toBe('configRejected')
    expect(
      body.response.violations.some((v: { propertyPath: string }) =>
        v.propertyPath.startsWith('pricing.interestPpmPerDay'),
      ),
    ).toBe(true)
    const feeHeavy = { ...defaultPricingConfig, processingFee: { bps: 500, fixed: 0, min: 0 } }
    expect((await put('pricing', feeHeavy)).status).toBe(422)
    // Widening the calculator to 1-day loans would push the fees over 12% a month pro rata.
    const lending = await (await t.request('/web/private/back-office/config/lending', auth(userToken))).json()
    const wider = {
      ...lending.data.calculator,
      termLimits: { ...lending.data.calculator.termLimits, minTermForNew: 1, minTermForRepeated: 1 },
    }
    expect((await put('calculator', wider)).status).toBe(422)
    const after = await (await t.request('/web/private/back-office/config/lending', auth(userToken))).json()
    expect(after.data.pricing).toEqual(defaultPricingConfig)
    // A lawful change is saved and priced at once.
    const cheaper = { ...defaultPricingConfig, interestPpmPerDay: { new: 1_500, repeat: 1_500 } }
    expect((await put('pricing', cheaper)).status).toBe(200)
    const { body: offer } = await t.json<{ interest_without_discount: { amount: number } }>(
      '/web/public/arithmetic/offer/stl/first/500000/30',
    )
    expect(offer.data.interest_without_discount.amount).toBe(22_500)
  })
})
