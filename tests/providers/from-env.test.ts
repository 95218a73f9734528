/**
 * Production is production (issue 13 item 5, docs/decisions/0018): providers chosen by the environment, the
 * start-up refusal that names every sandboxed adapter and the variables that switch it, SANDBOX=1, codes never
 * printed in production, configuration mistakes reported all at once, and real channels wired end to end to local
 * fakes with the outbox keeping the history but not the codes.
 */
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Database } from '../../server/db/client'
import { outboxMessage } from '../../server/db/schema-identity'
import { createLogger } from '../../server/logger'
import {
  ADAPTERS,
  assertProductionSafe,
  ProductionSandboxError,
  ProviderConfigError,
  providersFromEnv,
} from '../../server/providers/from-env'
import { codeMessage } from '../../server/services/identity/messages'
import { createTestDatabase } from '../support/database'
import { startHttpFake, startSmtpFake } from './fakes'

const ALL = [
  'captcha',
  'sms',
  'email',
  'identityVerification',
  'bankData',
  'scoring',
  'payout',
  'paymentGateway',
  'fraudSignals',
]

function capturedLogger() {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  // Each line without the logger's own `time`: its milliseconds can be any three digits, and a three-digit code
  // once "appeared" in a log as 15:39:15.275Z. Every field the code wrote stays.
  const withoutTime = (line: string) => {
    const { time: _time, ...fields } = JSON.parse(line) as Record<string, unknown>
    return `${JSON.stringify(fields)}\n`
  }
  return { logger: createLogger('info', sink), text: () => lines.map(withoutTime).join('') }
}
const quiet = () => capturedLogger().logger

let database: Database
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database?.close())

/** What a send printed to stdout. */
async function printed(send: () => Promise<void>): Promise<string> {
  const writes: string[] = []
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    writes.push(String(chunk))
    return true
  })
  try {
    await send()
  } finally {
    spy.mockRestore()
  }
  return writes.join('')
}

describe('by default every adapter is the sandbox', () => {
  it('lists all nine as sandboxed, and local runs print codes unless SANDBOX_CONSOLE=0', () => {
    const providers = providersFromEnv({}, quiet())
    expect(providers.sandboxed).toEqual(ALL)
    expect(ADAPTERS.map((a) => a.key)).toEqual(ALL)
    expect(providers.consolePrint).toBe(true)
    expect(providersFromEnv({ SANDBOX_CONSOLE: '0' }, quiet()).consolePrint).toBe(false)
    expect(() => assertProductionSafe({}, providers.sandboxed)).not.toThrow()
    expect(() => assertProductionSafe({ NODE_ENV: 'development' }, providers.sandboxed)).not.toThrow()
  })
})

describe('NODE_ENV=production', () => {
  it('refuses sandbox adapters, naming each one and what switches it', () => {
    const env = { NODE_ENV: 'production' }
    const { sandboxed } = providersFromEnv(env, quiet())
    let error: unknown
    try {
      assertProductionSafe(env, sandboxed)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ProductionSandboxError)
    const message = (error as Error).message
    expect(message).toMatch(/^Refusing to start: NODE_ENV=production/)
    expect(message).toContain('captcha: set CAPTCHA_PROVIDER=recaptcha or turnstile')
    expect(message).toContain('SMS: set SMS_PROVIDER=semaphore, with SEMAPHORE_API_KEY')
    expect(message).toContain('e-mail: set EMAIL_PROVIDER=smtp')
    for (const label of [
      'identity verification',
      'bank data',
      'scoring',
      'payout',
      'payment gateway',
      'fraud-prevention tools',
    ])
      expect(message).toContain(`${label}: no real provider yet`)
    expect(message).toContain('SANDBOX=1')
  })

  it('with captcha, SMS and e-mail configured still names the adapters that have no real provider yet', () => {
    const env = {
      NODE_ENV: 'production',
      CAPTCHA_PROVIDER: 'turnstile',
      CAPTCHA_SECRET: 's',
      CAPTCHA_SITE_KEY: 'k',
      SMS_PROVIDER: 'semaphore',
      SEMAPHORE_API_KEY: 'key',
      EMAIL_PROVIDER: 'smtp',
      SMTP_URL: 'smtp://mail.example.ph',
      SMTP_FROM: 'no-reply@hiram.ph',
    }
    const providers = providersFromEnv(env, quiet())
    expect(providers.sandboxed).toEqual([
      'identityVerification',
      'bankData',
      'scoring',
      'payout',
      'paymentGateway',
      'fraudSignals',
    ])
    expect(() => assertProductionSafe(env, providers.sandboxed)).toThrow(
      /identity verification: no real provider yet/,
    )
    expect(() => assertProductionSafe(env, providers.sandboxed)).not.toThrow(/captcha|SMS|e-mail:/)
    expect(() => assertProductionSafe({ ...env, SANDBOX: '1' }, providers.sandboxed)).not.toThrow()
    expect(() => assertProductionSafe(env, [])).not.toThrow()
  })

  it('SANDBOX=1 allows a sandbox deployment, but codes are never printed, whatever SANDBOX_CONSOLE says', async () => {
    for (const SANDBOX_CONSOLE of [undefined, '1', 'yes']) {
      const env = { NODE_ENV: 'production', SANDBOX: '1', SANDBOX_CONSOLE }
      const providers = providersFromEnv(env, quiet())
      expect(() => assertProductionSafe(env, providers.sandboxed)).not.toThrow()
      expect(providers.consolePrint).toBe(false)
      const message = codeMessage('login_mfa', 'sms', '09171234567', '493')
      expect(await printed(() => providers.messaging.send(database.db, message))).not.toContain('493')
    }
    // The contrast: locally the sandbox prints the code, so the spy above would have seen it.
    const local = providersFromEnv({}, quiet())
    const message = codeMessage('login_mfa', 'sms', '09171234567', '817')
    expect(await printed(() => local.messaging.send(database.db, message))).toContain('817')
  })

  it('SANDBOX must be 1 to count: anything else is a configuration error, not a yes', () => {
    expect(() => providersFromEnv({ NODE_ENV: 'production', SANDBOX: 'true' }, quiet())).toThrow(
      /SANDBOX must be 1 or unset/,
    )
  })
})

describe('configuration mistakes are reported all at once', () => {
  it('names every missing or wrong variable', () => {
    let error: unknown
    try {
      providersFromEnv(
        {
          CAPTCHA_PROVIDER: 'recaptcha',
          CAPTCHA_MIN_SCORE: '2',
          SMS_PROVIDER: 'globe',
          EMAIL_PROVIDER: 'smtp',
          SEMAPHORE_SENDER_NAME: 'A sender name far too long',
        },
        quiet(),
      )
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ProviderConfigError)
    expect((error as ProviderConfigError).problems).toEqual([
      'CAPTCHA_SECRET is required when CAPTCHA_PROVIDER=recaptcha',
      'CAPTCHA_SITE_KEY is required when CAPTCHA_PROVIDER=recaptcha',
      'CAPTCHA_MIN_SCORE must be a number from 0.01 to 1 (got "2")',
      'SMS_PROVIDER must be one of sandbox, semaphore (got "globe")',
      'SMTP_URL or SMTP_HOST is required when EMAIL_PROVIDER=smtp',
      'SMTP_FROM is required when EMAIL_PROVIDER=smtp',
    ])
  })

  it('refuses a safe score below the minimum and a Semaphore sender name Semaphore would refuse', () => {
    expect(() =>
      providersFromEnv(
        {
          CAPTCHA_PROVIDER: 'turnstile',
          CAPTCHA_SECRET: 's',
          CAPTCHA_SITE_KEY: 'k',
          CAPTCHA_MIN_SCORE: '0.8',
          CAPTCHA_SAFE_SCORE: '0.6',
        },
        quiet(),
      ),
    ).toThrow(/CAPTCHA_SAFE_SCORE must not be below CAPTCHA_MIN_SCORE/)
    expect(() =>
      providersFromEnv(
        { SMS_PROVIDER: 'semaphore', SEMAPHORE_API_KEY: 'k', SEMAPHORE_SENDER_NAME: 'HIRAM-LOANS!' },
        quiet(),
      ),
    ).toThrow(/SEMAPHORE_SENDER_NAME/)
  })
})

describe('real channels from the environment, against local fakes', () => {
  let semaphore: Awaited<ReturnType<typeof startHttpFake>>
  let smtp: Awaited<ReturnType<typeof startSmtpFake>>
  let failing = false
  beforeAll(async () => {
    semaphore = await startHttpFake(() =>
      failing ? { status: 500, text: 'down' } : { json: [{ message_id: 1, status: 'Queued' }] },
    )
    smtp = await startSmtpFake()
  })
  afterAll(async () => {
    await semaphore?.close()
    await smtp?.close()
  })

  const env = () => ({
    NODE_ENV: 'production',
    SANDBOX: '1',
    SMS_PROVIDER: 'semaphore',
    SEMAPHORE_API_KEY: 'key-123',
    SEMAPHORE_SENDER_NAME: 'HIRAM',
    SEMAPHORE_BASE_URL: semaphore.url,
    EMAIL_PROVIDER: 'smtp',
    SMTP_URL: smtp.url(),
    SMTP_FROM: 'Hiram <no-reply@hiram.ph>',
    SMTP_REQUIRE_TLS: '0',
  })

  it('sends SMS and e-mail through the providers and records them in the outbox without the code', async () => {
    const log = capturedLogger()
    const providers = providersFromEnv(env(), log.logger)
    expect(providers.sandboxed).not.toContain('sms')
    expect(providers.sandboxed).not.toContain('email')
    expect(providers.messaging.channels).toEqual({ sms: 'semaphore', email: 'smtp' })
    const sms = codeMessage('phone_verify', 'sms', '09181112222', '604')
    const email = codeMessage('email_verify', 'email', 'ana@example.ph', '275')
    const out = await printed(async () => {
      await providers.messaging.send(database.db, sms)
      await providers.messaging.send(database.db, email)
    })
    await providers.close()
    expect(out).toBe('')
    expect(semaphore.posts.at(-1)!.form).toMatchObject({ number: '09181112222', message: sms.body })
    expect(smtp.mails.at(-1)!.to).toEqual(['ana@example.ph'])
    expect(smtp.mails.at(-1)!.data).toContain('275')

    const rows = await database.db.select().from(outboxMessage)
    const smsRow = rows.find((r) => r.recipient === '09181112222')!
    const emailRow = rows.find((r) => r.recipient === 'ana@example.ph')!
    expect(smsRow).toMatchObject({ provider: 'semaphore', status: 'sent', purpose: 'phone_verify' })
    expect(emailRow).toMatchObject({
      provider: 'smtp',
      status: 'sent',
      subject: 'Your Hiram e-mail verification code',
    })
    expect(smsRow.body).not.toContain('604')
    expect(smsRow.body).toContain('Hiram: ••• is your verification code.')
    expect(emailRow.body).not.toContain('275')
    // Logs: the outcome, masked recipient, never the text, code or full number.
    expect(log.text()).toContain('"message sent"')
    for (const secret of ['604', '275', '09181112222', 'ana@example.ph', 'key-123'])
      expect(log.text()).not.toContain(secret)
  })

  it('a failed send throws messageNotSent (503) and is recorded as failed', async () => {
    failing = true
    try {
      const log = capturedLogger()
      const providers = providersFromEnv(env(), log.logger)
      const sms = codeMessage('login_mfa', 'sms', '09183334444', '918')
      await expect(providers.messaging.send(database.db, sms)).rejects.toMatchObject({
        kind: 'unavailable',
        code: 'messageNotSent',
        reason: 'refused',
      })
      const rows = await database.db.select().from(outboxMessage)
      expect(rows.find((r) => r.recipient === '09183334444')).toMatchObject({
        provider: 'semaphore',
        status: 'failed',
      })
      expect(log.text()).toContain('"message not sent"')
      expect(log.text()).not.toContain('918')
      await providers.close()
    } finally {
      failing = false
    }
  })

  it('a channel without a provider stays on the sandbox (mixed: real SMS, sandbox e-mail)', async () => {
    const { EMAIL_PROVIDER: _, ...smsOnly } = env()
    const providers = providersFromEnv({ ...smsOnly, NODE_ENV: 'development', SANDBOX_CONSOLE: '0' }, quiet())
    expect(providers.sandboxed).toContain('email')
    expect(providers.sandboxed).not.toContain('sms')
    await providers.messaging.send(
      database.db,
      codeMessage('email_verify', 'email', 'mixed@example.ph', '333'),
    )
    const rows = await database.db.select().from(outboxMessage)
    expect(rows.find((r) => r.recipient === 'mixed@example.ph')).toMatchObject({
      provider: 'sandbox',
      status: 'delivered',
    })
  })
})
