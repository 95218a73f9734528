/**
 * Affiliate leads (issue 5 item 7, docs/decisions/0014): the back office creates a lead, the lead link's
 * visitor reads its prefill data while it is open, a sign-up with the lead links it to the new client and
 * closes it, and the campaign parameters are stored with the client.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { createLead, LeadPrefill } from '../../domain/contract/affiliate'
import type { AnswerOf } from '../../domain/contract/define'
import { affiliateLead } from '../../server/db/schema-affiliate'
import { client } from '../../server/db/schema-identity'
import { DEMO_LEAD, seedDemoLead } from '../../server/services/affiliate/demo-lead'
import { LEAD_LOOKUPS_PER_ADDRESS } from '../../server/services/affiliate/leads'
import {
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  seedFirstUser,
} from '../../server/services/identity/users'
import { createTestApp } from '../support/app'
import {
  call,
  lastCode,
  later,
  newAddress,
  newEmail,
  newPhone,
  PASSWORD,
  type TestApp,
  tokenOf,
} from './identity-helpers'

type Prefill = LeadPrefill
type Created = AnswerOf<typeof createLead>

const fullLead = () => ({
  firstName: 'Maria',
  middleName: 'Reyes',
  lastName: 'Santos',
  documentType: 'UMID',
  clientIdentificator: '0028-1234567-1',
  dateOfBirth: '1988-02-29',
  gender: 'female',
  civilStatus: 'married',
  email: newEmail('lead'),
  phone: newPhone(),
  affiliate: {
    partner: 'acme-ads',
    code: 'AC-1',
    campaign: 'november',
    source: 'facebook',
    optionalParam: 'x=1',
  },
})

describe('affiliate leads', () => {
  let t: TestApp
  let admin: string
  const lookup = (id: string, address = newAddress()) =>
    call<Prefill>(t, 'GET', `/public/affiliates/leads/${id}`, undefined, { address })
  const create = (body: unknown, token = admin) =>
    call<Created>(t, 'POST', '/private/back-office/affiliates/leads', body, { token })
  const signUpWith = (extra: Record<string, unknown>, phone = newPhone(), email = newEmail()) =>
    call<{ client: { id: number } }>(
      t,
      'POST',
      '/public/client',
      {
        mobilePhone: { number: phone },
        email,
        password: PASSWORD,
        passwordRepeat: PASSWORD,
        consents: { terms: true, privacy: true, marketing: false },
        captchaToken: 'ok',
        ...extra,
      },
      { address: newAddress() },
    )

  beforeAll(async () => {
    t = await createTestApp()
    await seedFirstUser(t.database.db, { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD })
    const pending = tokenOf(
      await call(t, 'POST', '/public/user/login', {
        email: DEFAULT_ADMIN_EMAIL,
        password: DEFAULT_ADMIN_PASSWORD,
        captchaToken: 'ok',
        deviceId: 'lead-admin-device',
      }),
    )
    const code = await lastCode(t, DEFAULT_ADMIN_EMAIL, 'login_mfa')
    admin = tokenOf(await call(t, 'POST', '/public/user/login/mfa', { code }, { token: pending }))
  })
  afterAll(() => t.close())

  describe('back-office create', () => {
    it('creates a lead with a random UUID and answers the lead link', async () => {
      const body = fullLead()
      const answer = await create(body)
      expect(answer.status).toBe(201)
      const { leadId, path, prefill, affiliate, expiresAt } = answer.body.data
      expect(leadId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(path).toBe(`/registration?lead_id=${leadId}&redirected-from-affiliates=true`)
      // The document number is stored normalised; the lead stays open 72 hours by default.
      expect(prefill).toMatchObject({ clientIdentificator: '002812345671', dateOfBirth: '1988-02-29' })
      expect(affiliate).toEqual(body.affiliate)
      const hours = (Date.parse(expiresAt) - Date.now()) / 3600_000
      expect(hours).toBeGreaterThan(71.9)
      expect(hours).toBeLessThanOrEqual(72)
      const second = await create(fullLead())
      expect(second.body.data.leadId).not.toBe(leadId)
    })

    it('needs a back-office token: none is 401, a client token 403', async () => {
      expect((await create(fullLead(), '')).status).toBe(401)
      const signed = await signUpWith({})
      expect((await create(fullLead(), tokenOf(signed))).status).toBe(403)
    })

    it('refuses bad fields with violations on their paths, writing nothing', async () => {
      const before = (await t.database.db.select().from(affiliateLead)).length
      const bad = await create({
        ...fullLead(),
        phone: '12345',
        email: 'not-an-email',
        dateOfBirth: '1990-02-30',
        gender: 'other',
        firstName: 'R2-D2',
        affiliate: { partner: '' },
        ttlHours: 0,
      })
      expect(bad.status).toBe(400)
      const paths = bad.body.response.violations!.map((x) => x.propertyPath).sort()
      expect(paths).toEqual(
        ['affiliate.partner', 'dateOfBirth', 'email', 'firstName', 'gender', 'phone', 'ttlHours'].sort(),
      )
      // The number must suit its type; a number without a type is refused too.
      const wrongNumber = await create({ ...fullLead(), documentType: 'SSS', clientIdentificator: '12345' })
      expect(wrongNumber.body.response.violations).toEqual([
        { propertyPath: 'clientIdentificator', message: 'error-id-number-length' },
      ])
      const noType = await create({ ...fullLead(), documentType: undefined })
      expect(noType.body.response.violations).toEqual([
        { propertyPath: 'documentType', message: 'error-required' },
      ])
      const future = await create({ ...fullLead(), dateOfBirth: '2999-01-01' })
      expect(future.status).toBe(400)
      expect((await t.database.db.select().from(affiliateLead)).length).toBe(before)
    })

    it('accepts a lead with only a phone and a partner', async () => {
      const phone = newPhone()
      const answer = await create({ phone, affiliate: { partner: 'minimal' } })
      expect(answer.status).toBe(201)
      expect(answer.body.data.prefill).toEqual({
        leadId: answer.body.data.leadId,
        firstName: null,
        middleName: null,
        lastName: null,
        documentType: null,
        clientIdentificator: null,
        dateOfBirth: null,
        gender: null,
        civilStatus: null,
        email: null,
        phone,
      })
    })
  })

  describe('public lookup', () => {
    it('answers the prefill data of an open lead, and nothing of the affiliate', async () => {
      const body = fullLead()
      const { leadId } = (await create(body)).body.data
      const answer = await lookup(leadId.toUpperCase())
      expect(answer.status).toBe(200)
      expect(answer.res.headers.get('cache-control')).toBe('no-store')
      expect(answer.body.data).toEqual({
        leadId,
        firstName: 'Maria',
        middleName: 'Reyes',
        lastName: 'Santos',
        documentType: 'UMID',
        clientIdentificator: '002812345671',
        dateOfBirth: '1988-02-29',
        gender: 'female',
        civilStatus: 'married',
        email: body.email,
        phone: body.phone,
      })
    })

    it('answers the same 404 for an unknown and an expired lead; a malformed id is a 400', async () => {
      const unknown = await lookup(crypto.randomUUID())
      expect(unknown.status).toBe(404)
      const { leadId } = (await create({ ...fullLead(), ttlHours: 1 })).body.data
      expect((await lookup(leadId)).status).toBe(200)
      const expired = await later(t, 3600_001, () => lookup(leadId))
      expect(expired.status).toBe(404)
      expect(expired.body.response).toEqual(unknown.body.response)
      const malformed = await lookup('12345')
      expect(malformed.status).toBe(400)
      expect(malformed.body.response.violations).toEqual([
        { propertyPath: 'params.id', message: 'error-wrong-format' },
      ])
    })

    it(`limits lookups to ${LEAD_LOOKUPS_PER_ADDRESS} per address in 10 minutes`, async () => {
      const { leadId } = (await create(fullLead())).body.data
      const address = newAddress()
      for (let i = 0; i < LEAD_LOOKUPS_PER_ADDRESS; i++) {
        expect((await lookup(crypto.randomUUID(), address)).status).toBe(404)
      }
      const refused = await lookup(leadId, address)
      expect(refused.status).toBe(429)
      expect(refused.body.response.code).toBe('tooManyRequests')
      // Another address is not affected, and the window passes.
      expect((await lookup(leadId)).status).toBe(200)
      expect((await later(t, 10 * 60_000 + 1, () => lookup(leadId, address))).status).toBe(200)
    })
  })

  describe('sign-up with a lead', () => {
    it('links the lead to the new client, closes it and stores the campaign', async () => {
      const body = fullLead()
      const { leadId } = (await create(body)).body.data
      const campaign = { utm_source: 'acme', utm_campaign: 'november', gclid: 'g-123' }
      const signed = await signUpWith({ leadId, campaign }, body.phone, body.email)
      expect(signed.status).toBe(201)
      const clientId = signed.body.data.client.id

      const [lead] = await t.database.db.select().from(affiliateLead).where(eq(affiliateLead.id, leadId))
      expect(lead).toMatchObject({ clientId })
      expect(lead!.usedAt).toBeInstanceOf(Date)
      const [row] = await t.database.db.select().from(client).where(eq(client.id, clientId))
      expect(row!.campaign).toEqual(campaign)
      expect(t.logs().some((l) => l.event === 'client.signed_up' && l.lead === true)).toBe(true)

      // Closed: the public lookup no longer answers it, but the client reads its own lead.
      expect((await lookup(leadId)).status).toBe(404)
      const own = await call<Prefill>(t, 'GET', '/private/client/affiliate-lead', undefined, {
        token: tokenOf(signed),
      })
      expect(own.status).toBe(200)
      expect(own.body.data).toMatchObject({ leadId, firstName: 'Maria', dateOfBirth: '1988-02-29' })

      // A second sign-up with the same lead succeeds but does not take it over.
      const other = await signUpWith({ leadId })
      expect(other.status).toBe(201)
      const [still] = await t.database.db.select().from(affiliateLead).where(eq(affiliateLead.id, leadId))
      expect(still!.clientId).toBe(clientId)
      const none = await call(t, 'GET', '/private/client/affiliate-lead', undefined, {
        token: tokenOf(other),
      })
      expect(none.status).toBe(200)
      expect(none.body.data).toBeNull()
    })

    it('ignores an unknown or expired lead; refuses a malformed one and unknown campaign keys', async () => {
      const unknown = await signUpWith({ leadId: crypto.randomUUID() })
      expect(unknown.status).toBe(201)
      const { leadId } = (await create({ ...fullLead(), ttlHours: 1 })).body.data
      const late = await later(t, 3600_001, () => signUpWith({ leadId }))
      expect(late.status).toBe(201)
      const [lead] = await t.database.db.select().from(affiliateLead).where(eq(affiliateLead.id, leadId))
      expect(lead!.clientId).toBeNull()

      const malformed = await signUpWith({ leadId: 'not-a-uuid' })
      expect(malformed.status).toBe(400)
      expect(malformed.body.response.violations).toEqual([
        { propertyPath: 'leadId', message: 'error-wrong-format' },
      ])

      const extra = await signUpWith({ campaign: { utm_source: 'x', evil: 'y'.repeat(10_000) } })
      expect(extra.status).toBe(201)
      const [row] = await t.database.db.select().from(client).where(eq(client.id, extra.body.data.client.id))
      expect(row!.campaign).toEqual({ utm_source: 'x' })
      const tooLong = await signUpWith({ campaign: { utm_source: 'y'.repeat(201) } })
      expect(tooLong.status).toBe(400)
    })
  })

  it('seeds the documented demo lead once', async () => {
    await seedDemoLead(t.database.db)
    await seedDemoLead(t.database.db)
    const answer = await lookup(DEMO_LEAD.id)
    expect(answer.status).toBe(200)
    expect(answer.body.data).toMatchObject({
      firstName: 'Juan',
      lastName: 'Dela Cruz',
      dateOfBirth: '1990-05-17',
      phone: '09170000002',
      email: 'lead@hiram.local',
    })
  })
})
