/**
 * No personal data in logs (issue 13, item 4). The app runs in-process with its log captured; every kind of
 * failure is triggered with distinctive personal values (a failed query with them bound, the database-unavailable
 * 503, scoring and payout providers failing in the lending jobs and echoing what they were sent, validation
 * errors, a failed login, sign-up and its code), then every log line is searched for those values.
 */

import { Writable } from 'node:stream'
import { sql } from 'drizzle-orm'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineContract } from '../../domain/contract/define'
import { client } from '../../server/db/schema-identity'
import { lendingJob } from '../../server/db/schema-lending'
import { ok } from '../../server/http/envelope'
import { implement } from '../../server/http/route'
import { allRoutes } from '../../server/http/routes'
import { createLogger } from '../../server/logger'
import type { PayoutProvider } from '../../server/providers/payout'
import { type ScoringProvider, sandboxScoring } from '../../server/providers/scoring'
import { createTestApp } from '../support/app'
import { call, lastCode, login, newPhone, signUp, type TestApp } from './identity-helpers'
import { identityDoc, seedSmallPsgc } from './journey-helpers'
import { apply, expectStatus, readyClient, runJobs, sign } from './lending-helpers'

const PHONE = newPhone()
const EMAIL = `zephyrina.quixote.${Date.now().toString(36)}@example.ph`
const SCORE_FAILS_FOR = 'Zephyrina'
const PAYOUT_NAME = 'Quirinus'
const ACCOUNT = '004455667788'
const BIRTH_DATE = '1990-05-17'

/** A provider that fails and, as real ones do, echoes what it was sent in its message. */
const echoingScoring: ScoringProvider = {
  name: 'echoing-scoring',
  async score(request) {
    if (request.firstName === SCORE_FAILS_FOR)
      throw new Error(`scoring refused ${request.firstName} ${JSON.stringify(request)}`)
    return sandboxScoring.score(request)
  },
}
const echoingPayout: PayoutProvider = {
  name: 'echoing-payout',
  async send(request) {
    throw new Error(`payout to ${request.accountNumber} (${request.institution}) failed`)
  },
}

/** Routes that fail the way a real query does: a constraint violated with personal values bound. */
const probeRoutes = [
  implement(
    defineContract({
      method: 'post',
      path: '/public/probe/duplicate-client',
      summary: 'test only',
      tags: ['test'],
      access: 'public',
      body: v.object({ phone: v.string(), email: v.string() }),
    }),
    async (c, { body }) => {
      const db = c.get('deps').database.db
      const row = { phone: body.phone, email: body.email, passwordHash: 'x', language: 'en' }
      // The second insert breaks the unique index: drizzle's error message holds the SQL and both values.
      await db.insert(client).values(row as typeof client.$inferInsert)
      await db.insert(client).values(row as typeof client.$inferInsert)
      return ok(c, null)
    },
  ),
  implement(
    defineContract({
      method: 'post',
      path: '/public/probe/lost-connection',
      summary: 'test only',
      tags: ['test'],
      access: 'public',
      body: v.object({ phone: v.string() }),
    }),
    async (c, { body }) => {
      await c.get('deps').database.db.execute(sql`select 1 where ${body.phone} = ${body.phone}`)
      // What node-postgres throws when the backend goes away mid-query, wrapped as drizzle wraps it.
      const driver = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' })
      throw new Error(`Failed query: select * from client where phone = $1\nparams: ${body.phone}`, {
        cause: driver,
      })
    },
  ),
]

describe('log privacy', () => {
  let t: TestApp
  let signupCode = ''

  beforeAll(async () => {
    t = await createTestApp(
      {},
      { routes: [...allRoutes, ...probeRoutes], deps: { scoring: echoingScoring, payout: echoingPayout } },
    )
    await seedSmallPsgc(t)
  }, 120_000)
  afterAll(() => t.close())

  it('sign-up, a taken number, invalid input and a failed login log ids only', async () => {
    const signed = await signUp(t, { phone: PHONE, email: EMAIL })
    signupCode = await lastCode(t, PHONE, 'phone_verify')
    const again = await call(t, 'POST', '/public/client', {
      mobilePhone: { number: PHONE },
      email: EMAIL,
      password: 'secret123',
      passwordRepeat: 'secret123',
      consents: { terms: true, privacy: true },
      captchaToken: 'ok',
    })
    expect(again.status).toBe(400)
    const invalid = await call(t, 'POST', '/public/client', {
      mobilePhone: { number: `${PHONE}x` },
      email: `${EMAIL}@@`,
      password: 'secret123',
    })
    expect(invalid.status).toBe(400)
    expect((await login(t, PHONE, 'wrong-password-1')).status).toBe(401)
    expect((await login(t, EMAIL, 'wrong-password-2')).status).toBe(401)
    expect(signed.clientId).toBeGreaterThan(0)
  })

  it('a failed query with personal values bound is logged by class and code only (500)', async () => {
    const phone = newPhone()
    const email = `bartholomew.${Date.now().toString(36)}@example.ph`
    const answer = await call(t, 'POST', '/public/probe/duplicate-client', { phone, email })
    expect(answer.status).toBe(500)
    const line = t.logs().find((l) => l.msg === 'unhandled error')
    expect(line?.err).toMatchObject({ errorCode: '23505' })
    expect(t.rawLogs()).not.toContain(phone)
    expect(t.rawLogs()).not.toContain(email)
  })

  it('the database-unavailable 503 logs no query and no values', async () => {
    const phone = newPhone()
    const answer = await call(t, 'POST', '/public/probe/lost-connection', { phone })
    expect(answer.status).toBe(503)
    expect(t.logs().some((l) => l.msg === 'database unavailable')).toBe(true)
    expect(t.rawLogs()).not.toContain(phone)
    expect(t.rawLogs()).not.toContain('Failed query')
  })

  it('scoring and payout failing in the lending jobs log and store no personal values', async () => {
    const failing = await readyClient(t, SCORE_FAILS_FOR)
    const failingApp = (await expectStatus(apply(t, failing), 201)).body.data as { id: number }
    const paying = await readyClient(t, PAYOUT_NAME, { type: 'bank_transfer', accountNumber: ACCOUNT })
    const payingApp = (await expectStatus(apply(t, paying), 201)).body.data as { id: number }
    await runJobs(t)
    const signed = await sign(t, paying, payingApp.id)
    expect(signed.status).toBe(200)
    await runJobs(t)

    const logs = t.logs()
    expect(logs.some((l) => l.msg === 'scoring failed')).toBe(true)
    expect(logs.some((l) => l.msg === 'payout failed')).toBe(true)
    // The job rows a support person reads hold the error's class, not its message.
    const jobs = await t.database.db.select().from(lendingJob)
    const errors = jobs.map((j) => j.lastError ?? '').join('\n')
    expect(errors).toContain('Error')
    for (const value of [SCORE_FAILS_FOR, PAYOUT_NAME, ACCOUNT, failing.phone, paying.phone])
      expect(errors).not.toContain(value)
    expect(failingApp.id).not.toBe(payingApp.id)
  }, 120_000)

  it('pino redacts personal fields passed to it by mistake, nested too', () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const logger = createLogger('info', sink)
    logger.info(
      {
        email: EMAIL,
        body: { mobilePhone: { number: PHONE } },
        client: {
          firstName: SCORE_FAILS_FOR,
          birthDate: BIRTH_DATE,
          documentNumber: identityDoc.documentNumber,
        },
        account: { accountNumber: ACCOUNT },
        clientId: 7,
      },
      'mistake',
    )
    const text = lines.join('')
    for (const value of [EMAIL, PHONE, SCORE_FAILS_FOR, BIRTH_DATE, identityDoc.documentNumber, ACCOUNT])
      expect(text).not.toContain(value)
    expect(JSON.parse(text).clientId).toBe(7)
  })

  it('no log line holds any of the personal values used above', () => {
    const raw = t.rawLogs()
    expect(raw.length).toBeGreaterThan(0)
    const digits = (s: string) => s.replace(/\D/g, '')
    const values = [
      PHONE,
      PHONE.slice(1), // 9171234567 as it appears without the leading 0
      EMAIL,
      EMAIL.split('@')[0]!,
      SCORE_FAILS_FOR,
      PAYOUT_NAME,
      'Dela Cruz',
      'Santos',
      ACCOUNT,
      BIRTH_DATE,
      identityDoc.documentNumber,
      digits(identityDoc.documentNumber),
      'wrong-password',
      'secret123',
    ]
    for (const value of values) expect(raw, value).not.toContain(value)
    // The sign-up code: a 3-digit string is too short to search for anywhere, so only where a code would sit.
    expect(raw).not.toMatch(new RegExp(`(code|otp)[^,}]*\\b${signupCode}\\b`, 'i'))
  })
})
