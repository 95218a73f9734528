/**
 * The API with real providers pointed at local fakes (docs/decisions/0018): a sign-up is checked by the siteverify
 * fake and its phone code arrives at the Semaphore fake, where the test reads it to verify the phone; the outbox
 * keeps the history without the code. A refused token answers 400 captchaFailed, an unreachable captcha provider
 * 503 captchaUnavailable, and a relay that refuses the e-mail 503 messageNotSent. A sign-up whose SMS fails
 * still answers 201 with the resend time, and siteverify is told the caller's address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../server/logger'
import { createSiteverifyCaptcha } from '../../server/providers/captcha-siteverify'
import { createSmtpEmail } from '../../server/providers/email-smtp'
import { createSandboxMessaging } from '../../server/providers/messaging'
import { createLiveMessaging } from '../../server/providers/messaging-live'
import { createSemaphoreSms } from '../../server/providers/sms-semaphore'
import { call, later, login, newEmail, outboxFor, type TestApp, tokenOf } from '../api/identity-helpers'
import { createTestApp } from '../support/app'
import { type HttpAnswer, type RecordedPost, startHttpFake, startSmtpFake } from './fakes'

const REFUSED_EMAIL = 'refused.mailbox@example.ph'

let captchaDown = false
function siteverify(post: RecordedPost): HttpAnswer {
  if (captchaDown) return { status: 502, text: 'Bad gateway' }
  if (post.form.response === 'bot') return { json: { success: true, score: 0.1, action: 'login' } }
  return { json: { success: true, score: 0.9, action: post.form.response?.split(':')[0] } }
}

/** Semaphore answers 500 while set: every SMS fails with MessageNotSentError. */
let smsDown = false

let t: TestApp
let captcha: Awaited<ReturnType<typeof startHttpFake>>
let semaphore: Awaited<ReturnType<typeof startHttpFake>>
let smtp: Awaited<ReturnType<typeof startSmtpFake>>
beforeAll(async () => {
  captcha = await startHttpFake(siteverify)
  semaphore = await startHttpFake(() =>
    smsDown ? { status: 500, text: 'Internal error' } : { json: [{ message_id: 77, status: 'Pending' }] },
  )
  smtp = await startSmtpFake({ rejectRecipients: [REFUSED_EMAIL] })
  const logger = createLogger('silent')
  t = await createTestApp(
    {},
    {
      deps: {
        captcha: createSiteverifyCaptcha({
          kind: 'recaptcha',
          secret: 'secret',
          siteKey: 'site',
          verifyUrl: `${captcha.url}/siteverify`,
        }),
        messaging: createLiveMessaging({
          logger,
          sandbox: createSandboxMessaging(logger, false),
          sms: createSemaphoreSms({ apiKey: 'key', senderName: 'HIRAM', baseUrl: semaphore.url }),
          email: createSmtpEmail({ url: smtp.url(), from: 'Hiram <no-reply@hiram.ph>', requireTls: false }),
        }),
      },
    },
  )
})
afterAll(async () => {
  await t?.close()
  await Promise.all([captcha?.close(), semaphore?.close(), smtp?.close()])
})

const phone = `0917${String(Date.now()).slice(-7)}`

/** The token the browser's script would mint: the fake reads the action before the colon. */
const token = (action: string) => `${action}:${Math.random()}`

describe('a sign-up through real providers', () => {
  it('is verified at siteverify, its code arrives by SMS, and the outbox keeps no code', async () => {
    const email = newEmail('live')
    const signedUp = await call<{ client: { id: number } }>(t, 'POST', '/public/client', {
      mobilePhone: { number: phone },
      email,
      password: 'secret123',
      passwordRepeat: 'secret123',
      consents: { terms: true, privacy: true, marketing: false },
      captchaToken: token('signup'),
      deviceId: 'live-device-1',
    })
    expect(signedUp.status).toBe(201)
    expect(captcha.posts.at(-1)!.form).toMatchObject({ secret: 'secret' })

    const sms = semaphore.posts.find((p) => p.form.number === phone)!
    expect(sms.form).toMatchObject({ apikey: 'key', sendername: 'HIRAM' })
    const code = /\b(\d{3})\b/.exec(sms.form.message!)?.[1]
    expect(code).toBeDefined()

    const [row] = await outboxFor(t, phone, 'phone_verify')
    expect(row).toMatchObject({ provider: 'semaphore', status: 'sent' })
    expect(row!.body).not.toContain(code!)

    const auth = signedUp.res.headers.get('authorization')!.replace('Bearer ', '')
    const verified = await call(t, 'POST', '/private/client/phone/verify', { code }, { token: auth })
    expect(verified.status).toBe(200)
  })
})

describe('captcha answers', () => {
  it('a low score is the usual 400 captchaFailed', async () => {
    const answer = await login(t, phone, 'secret123', { captchaToken: 'bot' })
    expect(answer.status).toBe(400)
    expect(answer.body.response.code).toBe('captchaFailed')
  })

  it('a provider that cannot be asked is 503 captchaUnavailable, not a refusal and not a pass', async () => {
    captchaDown = true
    try {
      const answer = await login(t, phone, 'secret123', { captchaToken: token('login') })
      expect(answer.status).toBe(503)
      expect(answer.body.response.code).toBe('captchaUnavailable')
      expect(answer.body.response.message).toMatch(/not available just now/)
    } finally {
      captchaDown = false
    }
  })
})

describe('a message the provider refuses', () => {
  it('answers 503 messageNotSent and is recorded as failed', async () => {
    await call(t, 'POST', '/public/client', {
      mobilePhone: { number: `0918${String(Date.now()).slice(-7)}` },
      email: REFUSED_EMAIL,
      password: 'secret123',
      passwordRepeat: 'secret123',
      consents: { terms: true, privacy: true, marketing: false },
      captchaToken: token('signup'),
      deviceId: 'live-device-2',
    })
    const answer = await call(t, 'POST', '/public/client/email/send-code', {
      email: REFUSED_EMAIL,
      captchaToken: token('email_code'),
    })
    expect(answer.status).toBe(503)
    expect(answer.body.response.code).toBe('messageNotSent')
    const [row] = await outboxFor(t, REFUSED_EMAIL, 'email_verify')
    expect(row).toMatchObject({ provider: 'smtp', status: 'failed' })
  })
})

describe('a sign-up whose SMS the provider fails', () => {
  it('keeps the account and answers 201 with nextCodeAt; "Send again" after the wait delivers the code', async () => {
    const number = `0919${String(Date.now()).slice(-7)}`
    const body = {
      mobilePhone: { number },
      email: newEmail('sms-down'),
      password: 'secret123',
      passwordRepeat: 'secret123',
      consents: { terms: true, privacy: true, marketing: false },
      captchaToken: token('signup'),
      deviceId: 'live-device-3',
    }
    smsDown = true
    let signedUp: Awaited<ReturnType<typeof call<{ client: { id: number }; nextCodeAt: string | null }>>>
    try {
      const before = Date.now()
      signedUp = await call(t, 'POST', '/public/client', body, { address: '198.51.100.31' })
      expect(signedUp.status).toBe(201)
      expect(signedUp.body.data.client.id).toBeGreaterThan(0)
      // The browser counts "Send again" down to this, as it does after the minute limit.
      const wait = Date.parse(signedUp.body.data.nextCodeAt!) - before
      expect(wait).toBeGreaterThanOrEqual(55_000)
      expect(wait).toBeLessThanOrEqual(65_000)
      expect(semaphore.posts.some((p) => p.form.number === number)).toBe(true)
      const [row] = await outboxFor(t, number, 'phone_verify')
      expect(row).toMatchObject({ provider: 'semaphore', status: 'failed' })
    } finally {
      smsDown = false
    }
    const auth = tokenOf(signedUp)
    expect((await call(t, 'GET', '/private/client', undefined, { token: auth })).status).toBe(200)
    // Before the wait ends, the server says the same as the countdown.
    const early = await call(t, 'POST', '/private/client/phone/sms-code-ts', undefined, { token: auth })
    expect(early.status).toBe(429)
    expect(early.body.response.code).toBe('codeMinuteLimit')

    const again = await later(t, 61_000, () =>
      call(t, 'POST', '/private/client/phone/sms-code-ts', undefined, { token: auth }),
    )
    expect(again.status).toBe(200)
    const sms = semaphore.posts.filter((p) => p.form.number === number).at(-1)!
    const code = /\b(\d{3})\b/.exec(sms.form.message!)?.[1]
    const verified = await later(t, 62_000, () =>
      call(t, 'POST', '/private/client/phone/verify', { code }, { token: auth }),
    )
    expect(verified.status).toBe(200)
  })
})

describe("the caller's address", () => {
  it('is passed to siteverify as remoteip (the X-Forwarded-For entry our proxy appended)', async () => {
    await login(t, phone, 'secret123', { captchaToken: token('login'), address: '10.0.0.9, 198.51.100.77' })
    expect(captcha.posts.at(-1)!.form).toMatchObject({ remoteip: '198.51.100.77' })
  })

  it('is left out when it is not known (no socket, no trusted proxy header)', async () => {
    await call(t, 'POST', '/public/client/login', {
      login: phone,
      password: 'secret123',
      captchaToken: token('login'),
    })
    expect(captcha.posts.at(-1)!.form.remoteip).toBeUndefined()
  })
})
