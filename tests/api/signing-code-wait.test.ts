/**
 * Issue 13 item 11: the signing code asked for within a minute of the sign-up SMS. The number's one code a
 * minute refuses it (429 codeMinuteLimit) and the answer says how long to wait (`Retry-After`, seconds), which
 * the sign screen counts down (machines/code-request.machine.ts); after the wait the code is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../support/app'
import { call, type TestApp } from './identity-helpers'
import { seedSmallPsgc } from './journey-helpers'
import { aMinuteLater, apply, expectStatus, readyClient, runJobs } from './lending-helpers'

describe('the signing code right after the sign-up SMS', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
  }, 180_000)
  afterAll(() => t.close())

  it('answers 429 codeMinuteLimit with Retry-After, then sends the code once the minute is over', async () => {
    const c = await readyClient(t, 'Juan')
    const app = (await expectStatus(apply(t, c), 201)).body.data
    await runJobs(t)
    await expectStatus(call(t, 'POST', '/private/client/render/document', {}, { token: c.token }), 201)
    const agreement = `/private/client/application/agreement/${app.id}`

    const tooSoon = await call(t, 'POST', agreement, {}, { token: c.token })
    expect(tooSoon.status).toBe(429)
    expect(tooSoon.body.response.code).toBe('codeMinuteLimit')
    const wait = Number(tooSoon.res.headers.get('retry-after'))
    expect(Number.isInteger(wait)).toBe(true)
    expect(wait).toBeGreaterThanOrEqual(1)
    expect(wait).toBeLessThanOrEqual(60)

    const sent = await aMinuteLater(t, () => call(t, 'POST', agreement, {}, { token: c.token }))
    expect(sent.status).toBe(200)
    expect(sent.body.data).toMatchObject({ sent: true })
  }, 120_000)
})
