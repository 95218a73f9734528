/**
 * SANDBOX_CODE_INTERVAL_SECONDS (server/env.ts, docs/decisions/0018): a sandbox shortens the wait between two
 * codes to one number, as the end-to-end server does, and the server's answers follow it (nextCodeAt, the 429's
 * Retry-After that the code screens count down). The day limit stays five codes. The real minute is tested
 * everywhere else (identity-signup, signing-code-wait, ...). The API files share their modules (vite.config.ts,
 * project api), so the setting made here is put back in afterAll, before the next file runs.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verificationCode } from '../../server/db/schema-identity'
import { CODE_RESEND_SECONDS, setCodeResendSeconds } from '../../server/services/identity/codes'
import { createTestApp } from '../support/app'
import { call, signUp, type TestApp } from './identity-helpers'

const INTERVAL = 5

describe('a sandbox with a shorter code interval', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
    setCodeResendSeconds(INTERVAL)
  })
  afterAll(async () => {
    setCodeResendSeconds(CODE_RESEND_SECONDS)
    await t.close()
  })

  it('answers nextCodeAt and Retry-After by the interval, and keeps the day limit of five codes', async () => {
    const c = await signUp(t)
    // The sign-up code is out of the way: the day's five codes are the ones asked for below.
    await t.database.db.delete(verificationCode).where(eq(verificationCode.target, c.phone))
    const start = Date.now()
    let seconds = 0
    t.setClock(() => new Date(start + seconds * 1000))
    try {
      const send = () => call(t, 'POST', '/private/client/phone/sms-code-ts', undefined, { token: c.token })
      const first = await send()
      expect(first.status).toBe(200)
      expect(Date.parse(first.body.data.nextCodeAt as string)).toBe(start + INTERVAL * 1000)

      seconds = INTERVAL - 2
      const tooSoon = await send()
      expect(tooSoon.status).toBe(429)
      expect(tooSoon.body.response.code).toBe('codeMinuteLimit')
      expect(tooSoon.res.headers.get('retry-after')).toBe('2')

      for (let sent = 1; sent < 5; sent++) {
        seconds = sent * INTERVAL
        const next = await send()
        expect(next.status).toBe(200)
        expect(Date.parse(next.body.data.nextCodeAt as string)).toBe(start + (seconds + INTERVAL) * 1000)
      }
      seconds = 5 * INTERVAL
      const sixth = await send()
      expect(sixth.status).toBe(429)
      expect(sixth.body.response.code).toBe('codeDayLimit')
    } finally {
      t.setClock(() => new Date())
    }
  })

  it('takes whole seconds from 1 to the real minute only', () => {
    for (const seconds of [0, 1.5, CODE_RESEND_SECONDS + 1, Number.NaN])
      expect(() => setCodeResendSeconds(seconds), String(seconds)).toThrow(RangeError)
  })
})
