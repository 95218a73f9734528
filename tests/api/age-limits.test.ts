/**
 * Spec section 9 over the API: "Age limits default to 20 and 70 and can be overridden by the content system"
 * (docs/decisions/0048-age-limits-content-setting.md). The back office sets them like the rest of the site content
 * (content.read to read, content.manage to write, the change in the audit trail); the public site content carries
 * them to the browser; the details step (PUT /private/client) and the decision engine's age rule apply the ones in
 * the database. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgeLimitsSetting, SiteContent } from '../../domain/contract/content'
import { addYears, ageOn, manilaToday } from '../../domain/journey/fields'
import { auditEntry } from '../../server/db/schema-audit'
import { applicationDecision } from '../../server/db/schema-lending'
import { createTestApp } from '../support/app'
import { staffMember } from '../support/staff'
import { type Answer, call, type TestApp, verifiedClient } from './identity-helpers'
import { details, flow, seedSmallPsgc } from './journey-helpers'
import { actual, adminToken, apply, expectStatus, readyClient, runJobs } from './lending-helpers'

const PATH = '/private/back-office/age-limits'

/** The birth date of someone exactly `years` old today in Manila (their birthday is today). */
const bornYearsAgo = (years: number) => addYears(manilaToday(new Date()), -years)

const violations = (answer: Answer) =>
  Object.fromEntries((answer.body.response.violations ?? []).map((v) => [v.propertyPath, v.message]))

describe('age limits from the content system', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await adminToken(t, 'age-limits-admin-device')
  })
  afterAll(() => t.close())

  const setLimits = (body: unknown, token = admin) => call<AgeLimitsSetting>(t, 'PUT', PATH, body, { token })
  const publicLimits = async () =>
    (await call<SiteContent>(t, 'GET', '/public/site-content')).body.data.ageLimits
  /** PUT /private/client for a new verified client born `birthDate`: the answer and where the client stands. */
  const detailsStep = async (birthDate: string) => {
    const c = await verifiedClient(t)
    const answer = await call(t, 'PUT', '/private/client', details(c.email, { birthDate }), {
      token: c.token,
    })
    return { answer, step: (await flow(t, c.token)).step }
  }

  it('default to 20 and 70 (AGE_LIMITS) until the back office sets them, public and in the back office', async () => {
    const read = await call<AgeLimitsSetting>(t, 'GET', PATH, undefined, { token: admin })
    expect(read.status).toBe(200)
    expect(read.body.data).toEqual({ min: 20, max: 70, isDefault: true, updatedAt: null })
    expect(await publicLimits()).toEqual({ min: 20, max: 70 })
    const young = await detailsStep(bornYearsAgo(19))
    expect(young.answer.status).toBe(400)
    expect(violations(young.answer)).toEqual({ birthDate: 'error-age' })
    expect((await detailsStep(bornYearsAgo(20))).answer.status).toBe(200)
  })

  it('changing the setting changes what the details step accepts, and the change is audited', async () => {
    const saved = await setLimits({ min: 18, max: 60 })
    expect(saved.status, JSON.stringify(saved.body.response)).toBe(200)
    expect(saved.body.data).toMatchObject({ min: 18, max: 60, isDefault: false })
    expect(saved.body.data.updatedAt).not.toBeNull()
    // The public answer kept in memory was dropped by the write: the browser gets the new limits at once.
    expect(await publicLimits()).toEqual({ min: 18, max: 60 })

    const eighteen = await detailsStep(bornYearsAgo(18))
    expect(eighteen.answer.status, JSON.stringify(eighteen.answer.body.response)).toBe(200)
    expect(eighteen.step).toBe('work_info')
    const seventeen = await detailsStep(bornYearsAgo(17))
    expect(violations(seventeen.answer)).toEqual({ birthDate: 'error-age' })
    expect(seventeen.step).toBe('new_client_created')
    expect((await detailsStep(bornYearsAgo(60))).answer.status).toBe(200)
    // 61: allowed by the defaults, no longer by the setting.
    const sixtyOne = await detailsStep(bornYearsAgo(61))
    expect(sixtyOne.answer.status).toBe(400)
    expect(violations(sixtyOne.answer)).toEqual({ birthDate: 'error-age' })
    expect(sixtyOne.step).toBe('new_client_created')

    expect((await setLimits({ min: 20, max: 70 })).status).toBe(200)
    expect((await detailsStep(bornYearsAgo(18))).answer.status).toBe(400)
    expect((await detailsStep(bornYearsAgo(61))).answer.status).toBe(200)

    const entries = await t.database.db.select().from(auditEntry).where(eq(auditEntry.entity, 'age_limits'))
    expect(
      entries.map((e) => [
        e.call,
        e.permission,
        (e.before as { minAge: number }).minAge,
        (e.after as { maxAge: number }).maxAge,
      ]),
    ).toEqual([
      [`PUT /web${PATH}`, 'content.manage', 20, 60],
      [`PUT /web${PATH}`, 'content.manage', 18, 70],
    ])
    expect((entries[0]!.before as { isDefault?: boolean }).isDefault).toBe(true)
  })

  it('changing the setting changes what the decision engine does', async () => {
    // Registered (born 1990-05-17) while the defaults allow them; the limits change before they apply.
    const age = ageOn('1990-05-17', manilaToday(new Date()))
    const refused = await readyClient(t, 'Juan')
    const allowed = await readyClient(t, 'Juan')
    expect((await setLimits({ min: age + 2, max: 90 })).status).toBe(200)
    const first = (await expectStatus(apply(t, refused), 201)).body.data
    await runJobs(t)
    expect((await actual(t, refused)).status).toBe(6)
    const [decision] = await t.database.db
      .select()
      .from(applicationDecision)
      .where(eq(applicationDecision.applicationId, first.id))
    expect(decision).toMatchObject({ source: 'engine', outcome: 'reject' })
    const ageRule = (decision!.rules as { rule: string; passed: boolean; detail: string }[]).find(
      (r) => r.rule === 'age',
    )
    expect(ageRule?.passed).toBe(false)
    expect(ageRule?.detail).toMatch(new RegExp(`allowed ${age + 2} to 90$`))
    expect(decision!.inputs).toMatchObject({ ageLimits: { min: age + 2, max: 90 } })

    expect((await setLimits({ min: 20, max: 70 })).status).toBe(200)
    const second = (await expectStatus(apply(t, allowed), 201)).body.data
    await runJobs(t)
    expect((await actual(t, allowed)).status).toBe(2)
    const [approved] = await t.database.db
      .select()
      .from(applicationDecision)
      .where(eq(applicationDecision.applicationId, second.id))
    expect(approved).toMatchObject({ outcome: 'approve' })
    expect(approved!.inputs).toMatchObject({ ageLimits: { min: 20, max: 70 } })
  })

  it('refuses limits below 18, above 100, not whole, or with the minimum not below the maximum (400, per field)', async () => {
    const cases: [unknown, Record<string, string>][] = [
      [{ min: 17, max: 70 }, { min: 'The minimum age is at least 18, the age of majority.' }],
      [{ min: 20, max: 101 }, { max: 'The maximum age is at most 100.' }],
      [{ min: 50, max: 50 }, { max: 'The maximum age is above the minimum age.' }],
      [{ min: 70, max: 20 }, { max: 'The maximum age is above the minimum age.' }],
      [{ min: 20.5, max: 70 }, { min: 'The minimum age is a whole number of years.' }],
      [{ min: '20', max: 70 }, { min: 'The minimum age is a whole number of years.' }],
      [{ min: 20, max: null }, { max: 'The maximum age is a whole number of years.' }],
    ]
    for (const [body, expected] of cases) {
      const r = await setLimits(body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(violations(r), JSON.stringify(body)).toEqual(expected)
    }
    const empty = await setLimits({})
    expect(empty.status).toBe(400)
    expect(Object.keys(violations(empty)).sort()).toEqual(['max', 'min'])
    // Nothing refused was stored.
    expect(await publicLimits()).toEqual({ min: 20, max: 70 })
  })

  it('support reads and may not write (403); nobody unauthenticated may do either (401)', async () => {
    const support = (await staffMember(t, 'support')).token
    expect((await call(t, 'GET', PATH, undefined, { token: support })).status).toBe(200)
    expect((await setLimits({ min: 21, max: 65 }, support)).status).toBe(403)
    expect((await call(t, 'GET', PATH)).status).toBe(401)
    expect((await call(t, 'PUT', PATH, { min: 21, max: 65 })).status).toBe(401)
    expect(await publicLimits()).toEqual({ min: 20, max: 70 })
  })
})
