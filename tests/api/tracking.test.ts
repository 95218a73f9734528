/**
 * Behavioural and device data for scoring and fraud (issue 22 item 1, docs/decisions/0042): nothing is collected
 * before the device-data consent; the tracking batch is validated and bounded, appended, rate-limited per client;
 * hello-soda and the fraud tools' sessions come from the sandbox provider, deterministic; the blackbox and the
 * fraud tools' ids reach the application only with the consent; a blackbox shared by too many clients sends the
 * application to a person with a reason naming it; PUT /private/client/yhat/limit answers the limit again.
 * Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEVICE_DATA_CONSENT_VERSION, MAX_EVENTS_PER_BATCH, METRICS_MAX_BATCHES } from '../../domain/tracking'
import { application, applicationDecision } from '../../server/db/schema-lending'
import { behaviourEvent, fraudToolSession } from '../../server/db/schema-tracking'
import { createTestApp } from '../support/app'
import { call, newAddress, type SignedUp, signUp, type TestApp } from './identity-helpers'
import { seedSmallPsgc } from './journey-helpers'
import { actual, apply, applyBody, readyClient, runJobs } from './lending-helpers'

const consentBody = (granted: boolean) => ({ granted, version: DEVICE_DATA_CONSENT_VERSION })
const event = (seq: number, extra: Record<string, unknown> = {}) => ({
  type: 'page_state',
  state: 'visible',
  path: '/application/apply',
  at: Date.UTC(2026, 10, 28, 8, 0, seq),
  seq,
  ...extra,
})
const batch = (events: unknown[], sessionId = 'tab-session-0001') => ({ sessionId, events })

describe('behavioural and device data', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
  })
  afterAll(() => t.close())

  const consent = (c: SignedUp, granted: boolean) =>
    call(t, 'PUT', '/private/client/consents/device-data', consentBody(granted), { token: c.token })
  const metrics = (c: SignedUp, body: unknown) =>
    call<{ accepted: number }>(t, 'POST', '/private/client/logger/metrics', body, { token: c.token })
  const session = (c: SignedUp) =>
    call<Record<string, string>>(
      t,
      'POST',
      '/private/client/affiliates/session',
      { deviceId: c.deviceId },
      { token: c.token },
    )

  it('collects nothing before the consent, records the consent with its version and time, and stops on withdrawal', async () => {
    const c = await signUp(t)
    const before = await call(t, 'GET', '/private/client/consents/device-data', undefined, { token: c.token })
    expect(before.body.data).toEqual({
      granted: null,
      version: null,
      at: null,
      currentVersion: DEVICE_DATA_CONSENT_VERSION,
    })
    // 409, not 403: a missing consent must not log the client out (spec section 4).
    for (const refused of [await metrics(c, batch([event(1)])), await session(c)]) {
      expect(refused.status).toBe(409)
      expect(refused.body.response.code).toBe('consentRequired')
    }
    const oldText = await call(
      t,
      'PUT',
      '/private/client/consents/device-data',
      { granted: true, version: '2020-01-01' },
      { token: c.token },
    )
    expect(oldText.status).toBe(400)
    expect(oldText.body.response.violations?.map((v) => v.propertyPath)).toEqual(['version'])

    const granted = await consent(c, true)
    expect(granted.status).toBe(200)
    expect(granted.body.data).toMatchObject({ granted: true, version: DEVICE_DATA_CONSENT_VERSION })
    const sent = await metrics(
      c,
      batch([
        { type: 'start', path: '/', at: Date.UTC(2026, 10, 28, 8), seq: 0 },
        event(1, { state: 'hidden' }),
        event(2, { state: 'before_unload' }),
        { type: 'stop', path: '/', at: Date.UTC(2026, 10, 28, 8, 1), seq: 3 },
      ]),
    )
    expect(sent.status).toBe(200)
    expect(sent.body.data).toEqual({ accepted: 4 })
    const rows = await t.database.db
      .select()
      .from(behaviourEvent)
      .where(eq(behaviourEvent.clientId, c.clientId))
      .orderBy(behaviourEvent.seq)
    expect(rows.map((r) => [r.type, r.pageState])).toEqual([
      ['start', null],
      ['page_state', 'hidden'],
      ['page_state', 'before_unload'],
      ['stop', null],
    ])

    await consent(c, false)
    expect((await metrics(c, batch([event(5)]))).status).toBe(409)
    // The log names ids and counts, never the device id or the session's tokens.
    expect(t.rawLogs()).not.toContain(c.deviceId)
  })

  it('refuses a malformed or unbounded batch with field violations, never a 5xx', async () => {
    const c = await signUp(t)
    await consent(c, true)
    const cases: [unknown, string][] = [
      [batch([]), 'events'],
      [batch(Array.from({ length: MAX_EVENTS_PER_BATCH + 1 }, (_, i) => event(i))), 'events'],
      [batch([event(1, { state: 'asleep' })]), 'events.0.state'],
      [batch([event(1, { state: undefined })]), 'events.0'],
      [batch([{ type: 'start', state: 'hidden', path: '/', at: Date.now(), seq: 1 }]), 'events.0'],
      [batch([event(1, { path: '/registration?email=a@b.ph' })]), 'events.0.path'],
      [batch([event(1, { path: `/${'x'.repeat(300)}` })]), 'events.0.path'],
      [batch([event(1, { path: '/a\u0000b' })]), 'events.0.path'],
      [batch([event(1, { at: 12 })]), 'events.0.at'],
      [batch([event(1, { seq: -1 })]), 'events.0.seq'],
      [batch([event(1)], 'x'), 'sessionId'],
      [{ events: 'many' }, 'sessionId'],
    ]
    for (const [body, path] of cases) {
      const answer = await metrics(c, body)
      expect(answer.status, JSON.stringify(body).slice(0, 120)).toBe(400)
      expect(answer.body.response.violations?.map((v) => v.propertyPath)).toContain(path)
    }
    const huge = await t.request('/web/private/client/logger/metrics', {
      method: 'POST',
      headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(batch([event(1, { path: `/${'y'.repeat(40_000)}` })])),
    })
    expect(huge.status).toBe(413)
    const rows = await t.database.db
      .select()
      .from(behaviourEvent)
      .where(eq(behaviourEvent.clientId, c.clientId))
    expect(rows).toEqual([])
  })

  it('rate-limits batches per client (429 with Retry-After), not per address', async () => {
    const c = await signUp(t)
    const other = await signUp(t)
    await consent(c, true)
    await consent(other, true)
    for (let i = 0; i < METRICS_MAX_BATCHES; i++)
      expect((await metrics(c, batch([event(i)]))).status).toBe(200)
    const over = await metrics(c, batch([event(999)]))
    expect(over.status).toBe(429)
    expect(Number(over.res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await metrics(other, batch([event(1)]))).status).toBe(200)
  })

  it('hello-soda: a deterministic sandbox token for a consenting visitor, per-address limits, 400 without consent', async () => {
    const body = {
      deviceId: 'visitor-device-0001',
      consent: { deviceData: true, version: DEVICE_DATA_CONSENT_VERSION },
    }
    const address = newAddress()
    const first = await call<{ provider: string; token: string }>(
      t,
      'POST',
      '/public/util/hello-soda',
      body,
      {
        address,
      },
    )
    const again = await call<{ provider: string; token: string }>(
      t,
      'POST',
      '/public/util/hello-soda',
      body,
      {
        address,
      },
    )
    expect(first.status).toBe(200)
    expect(first.body.data.provider).toBe('sandbox')
    expect(first.body.data.token).toMatch(/^sbx-hs-/)
    expect(again.body.data.token).toBe(first.body.data.token)
    const stored = await t.database.db
      .select()
      .from(fraudToolSession)
      .where(eq(fraudToolSession.kind, 'hello_soda'))
    expect(stored.length).toBeGreaterThanOrEqual(2)
    expect(JSON.stringify(stored)).not.toContain('visitor-device-0001')

    const noConsent = await call(
      t,
      'POST',
      '/public/util/hello-soda',
      { deviceId: 'visitor-device-0002' },
      { address },
    )
    expect(noConsent.status).toBe(400)
    expect(noConsent.body.response.violations?.map((v) => v.propertyPath)).toEqual(['consent'])
    const refused = await call(
      t,
      'POST',
      '/public/util/hello-soda',
      { deviceId: 'x', consent: { deviceData: false, version: 'old' } },
      { address },
    )
    expect(refused.status).toBe(400)
    expect(refused.body.response.violations?.map((v) => v.propertyPath).sort()).toEqual([
      'consent.deviceData',
      'consent.version',
      'deviceId',
    ])

    const busy = newAddress()
    let last = 0
    for (let i = 0; i < 31; i++)
      last = (await call(t, 'POST', '/public/util/hello-soda', body, { address: busy })).status
    expect(last).toBe(429)
  })

  it('the fraud tools session: deterministic sandbox tokens with the consent; sent with the application, kept only with the consent', async () => {
    const c = await readyClient(t, 'Juan')
    await consent(c, true)
    const first = await session(c)
    const second = await session(c)
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ provider: 'sandbox' })
    expect(first.body.data.seonSession).toMatch(/^sbx-seon-/)
    expect(second.body.data.seonSession).toBe(first.body.data.seonSession)
    const bad = await call(
      t,
      'POST',
      '/private/client/affiliates/session',
      { deviceId: 'no' },
      { token: c.token },
    )
    expect(bad.status).toBe(400)
    expect(bad.body.response.violations?.map((v) => v.propertyPath)).toEqual(['deviceId'])

    const { seonSession, juicySessionId, hotjarUserId } = first.body.data
    const created = await apply(
      t,
      c,
      applyBody(5_000_00, 14, {
        iovation: { ioBB: 'sbx1.consented-device' },
        seonSession,
        juicySessionId,
        hotjarUserId,
        marketing: { gclid: 'abc' },
      }),
    )
    expect(created.status).toBe(201)
    const [row] = await t.database.db.select().from(application).where(eq(application.clientId, c.clientId))
    expect(row!.iovationBlackbox).toBe('sbx1.consented-device')
    expect(row!.marketing).toEqual({ gclid: 'abc', seonSession, juicySessionId, hotjarUserId })

    // Without the consent: the blackbox and the fraud tools' ids are dropped, the marketing data kept.
    const other = await readyClient(t, 'Juan')
    const answered = await apply(
      t,
      other,
      applyBody(5_000_00, 14, {
        iovation: { ioBB: 'sbx1.unconsented' },
        seonSession: 'x',
        marketing: { gclid: 'z' },
      }),
    )
    expect(answered.status).toBe(201)
    const [kept] = await t.database.db
      .select()
      .from(application)
      .where(eq(application.clientId, other.clientId))
    expect(kept!.iovationBlackbox).toBeNull()
    expect(kept!.marketing).toEqual({ gclid: 'z' })
  })

  it('a blackbox seen on too many clients sends the application to a person, with a reason naming the device', async () => {
    const blackbox = 'sbx1.shared-device-for-three'
    const clients = [await readyClient(t, 'Juan'), await readyClient(t, 'Juan'), await readyClient(t, 'Juan')]
    for (const c of clients) {
      await consent(c, true)
      expect((await apply(t, c, applyBody(5_000_00, 14, { iovation: { ioBB: blackbox } }))).status).toBe(201)
    }
    await runJobs(t)
    const statuses = []
    for (const c of clients) statuses.push((await actual(t, c)).status)
    // All three applied before any decision: each application sees the two others.
    expect(statuses).toEqual([14, 14, 14])
    const app = await actual(t, clients[2]!)
    const [decision] = await t.database.db
      .select()
      .from(applicationDecision)
      .where(eq(applicationDecision.applicationId, app.id))
    expect(decision).toMatchObject({ outcome: 'manual' })
    expect((decision!.reasons as string[])[0]).toMatch(
      /^device_blackbox: the device blackbox was seen on 2 other client/,
    )
    expect((decision!.rules as { rule: string; passed: boolean }[]).at(-1)).toMatchObject({
      rule: 'device_blackbox',
      passed: false,
    })

    // One device shared by two clients only: the engine still decides (approve), and says it read the device.
    const pair = [await readyClient(t, 'Juan'), await readyClient(t, 'Juan')]
    for (const c of pair) {
      await consent(c, true)
      await apply(t, c, applyBody(5_000_00, 14, { iovation: { ioBB: 'sbx1.pair' } }))
    }
    await runJobs(t)
    expect((await actual(t, pair[1]!)).status).toBe(2)
  })

  it('PUT /private/client/yhat/limit answers the available amount again, a few times per 12 hours', async () => {
    const c = await signUp(t)
    const first = await call<{
      availableLoanAmount: { amount: number }
      refreshedAt: string
      nextRefreshAt: string
    }>(t, 'PUT', '/private/client/yhat/limit', undefined, { token: c.token })
    expect(first.status).toBe(200)
    expect(first.body.data.availableLoanAmount.amount).toBeGreaterThanOrEqual(0)
    expect(Date.parse(first.body.data.nextRefreshAt) - Date.parse(first.body.data.refreshedAt)).toBe(
      43_200_000,
    )
    let last = 200
    for (let i = 0; i < 6; i++)
      last = (await call(t, 'PUT', '/private/client/yhat/limit', undefined, { token: c.token })).status
    expect(last).toBe(429)
    expect((await call(t, 'PUT', '/private/client/yhat/limit')).status).toBe(401)
  })
})
