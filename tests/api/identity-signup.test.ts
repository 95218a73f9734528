import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentVersions } from '../../domain/identity'
import { client, consent, verificationCode } from '../../server/db/schema-identity'
import { createTestApp } from '../support/app'
import {
  call,
  lastCode,
  newAddress,
  newEmail,
  newPhone,
  outboxFor,
  PASSWORD,
  signUp,
  type TestApp,
  tokenOf,
} from './identity-helpers'

const signUpBody = (phone: string, email: string, extra: Record<string, unknown> = {}) => ({
  mobilePhone: { number: phone },
  email,
  password: PASSWORD,
  passwordRepeat: PASSWORD,
  consents: { terms: true, privacy: true, marketing: true },
  captchaToken: 'ok',
  ...extra,
})

describe('sign-up and codes', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  describe('GET /public/client/check/{key}/{value}', () => {
    it('says whether an e-mail or a number is free, and refuses malformed values', async () => {
      const taken = await signUp(t)
      const check = (key: string, value: string) =>
        call<{ available: boolean }>(t, 'GET', `/public/client/check/${key}/${encodeURIComponent(value)}`)
      expect((await check('email', taken.email)).body.data).toEqual({ available: false })
      expect((await check('email', taken.email.toUpperCase())).body.data).toEqual({ available: false })
      expect((await check('email', newEmail())).body.data).toEqual({ available: true })
      expect((await check('phone', taken.phone)).body.data).toEqual({ available: false })
      expect((await check('phone', newPhone())).body.data).toEqual({ available: true })

      const bad = await check('phone', '12345')
      expect(bad.status).toBe(400)
      expect(bad.body.response.violations).toEqual([
        { propertyPath: 'params.value', message: 'error-incorrect-phone' },
      ])
      expect((await check('email', 'not-an-email')).body.response.violations?.[0]?.message).toBe('error-mail')
      expect((await check('name', 'x')).status).toBe(400)
    })

    it('caps lookups per address so a number range cannot be walked', async () => {
      const address = newAddress()
      const statuses: number[] = []
      for (let i = 0; i < 61; i++) {
        const answer = await call(t, 'GET', `/public/client/check/phone/${newPhone()}`, undefined, {
          address,
        })
        statuses.push(answer.status)
      }
      expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true)
      expect(statuses[60]).toBe(429)
    })
  })

  describe('POST /public/client', () => {
    it('creates the client, records each consent with its version and time, sends a code, opens a session', async () => {
      const phone = newPhone()
      const email = newEmail('Mixed.Case')
      const before = Date.now()
      const answer = await call<{ client: Record<string, unknown>; nextCodeAt: string }>(
        t,
        'POST',
        '/public/client',
        signUpBody(phone, email.toUpperCase()),
        { address: newAddress() },
      )
      expect(answer.status).toBe(201)
      const data = answer.body.data
      expect(data.client).toMatchObject({
        email: email.toLowerCase(),
        status: 1,
        phoneVerified: false,
        emailVerified: false,
        firstName: null,
        hasActiveLoan: false,
        info: { mobilePhone: { number: phone } },
      })
      expect(data.client).not.toHaveProperty('passwordHash')
      expect(Date.parse(data.nextCodeAt)).toBeGreaterThan(before)

      // Token: Authorization header and the auth.token cookie, readable by the SPA, same-site only.
      const token = tokenOf(answer)
      const cookie = answer.res.headers.get('set-cookie') ?? ''
      expect(cookie).toContain(`auth.token=${token}`)
      expect(cookie).toContain('Path=/')
      expect(cookie).toContain('SameSite=Strict')
      expect(cookie).not.toMatch(/HttpOnly/i)
      expect(cookie).not.toMatch(/Secure/i) // plain http here; https sets Secure (next test)

      const me = await call(t, 'GET', '/private/client', undefined, { token })
      expect(me.status).toBe(200)
      expect(me.body.data.id).toBe(data.client.id)

      const consents = await t.database.db
        .select()
        .from(consent)
        .where(eq(consent.clientId, data.client.id as number))
      expect(consents.map((c) => [c.kind, c.version, c.granted]).sort()).toEqual([
        ['marketing', consentVersions.marketing, true],
        ['privacy', consentVersions.privacy, true],
        ['terms', consentVersions.terms, true],
      ])
      for (const row of consents) expect(row.at.getTime()).toBeGreaterThanOrEqual(before - 1000)

      const [sms] = await outboxFor(t, phone)
      expect(sms).toMatchObject({ channel: 'sms', purpose: 'phone_verify', provider: 'sandbox' })
      expect(sms!.body).toMatch(/\b\d{3}\b/)
      const [stored] = await t.database.db.select().from(client).where(eq(client.phone, phone))
      expect(stored!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    })

    it('marks the cookie Secure on https', async () => {
      const answer = await t.request('https://hiram.example/web/public/client', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': newAddress() },
        body: JSON.stringify(signUpBody(newPhone(), newEmail())),
      })
      expect(answer.status).toBe(201)
      expect(answer.headers.get('set-cookie')).toMatch(/; Secure/)
    })

    it('answers every field violation at once, with the spec message keys and no echo of the input', async () => {
      const answer = await call(t, 'POST', '/public/client', {
        mobilePhone: { number: '12345' },
        email: 'nope',
        password: 'a!',
        passwordRepeat: 'b',
        consents: { terms: false, privacy: true },
        captchaToken: 'ok',
      })
      expect(answer.status).toBe(400)
      expect(answer.body.response.code).toBe('validationError')
      const violations = answer.body.response.violations!
      expect(violations).toEqual(
        expect.arrayContaining([
          { propertyPath: 'mobilePhone.number', message: 'error-incorrect-phone' },
          { propertyPath: 'email', message: 'error-mail' },
          { propertyPath: 'password', message: 'error-wrong-format' },
          { propertyPath: 'consents.terms', message: 'error-required' },
        ]),
      )
      expect(JSON.stringify(answer.body)).not.toContain('12345')
    })

    it('refuses a password repeated differently', async () => {
      const answer = await call(t, 'POST', '/public/client', {
        ...signUpBody(newPhone(), newEmail()),
        passwordRepeat: 'other123',
      })
      expect(answer.body.response.violations).toEqual([
        { propertyPath: 'passwordRepeat', message: 'error-password-mismatch' },
      ])
    })

    it('refuses a taken e-mail and a taken number on their fields', async () => {
      const first = await signUp(t)
      const answer = await call(t, 'POST', '/public/client', signUpBody(first.phone, first.email), {
        address: newAddress(),
      })
      expect(answer.status).toBe(400)
      expect(answer.body.response.violations).toEqual([
        { propertyPath: 'email', message: 'email-error-taken' },
        { propertyPath: 'mobilePhone.number', message: 'phone-error-taken' },
      ])
    })

    it('maps a sign-up race lost at the unique index to the same field message', async () => {
      const phone = newPhone()
      const answers = await Promise.all(
        [newEmail(), newEmail()].map((email) =>
          call(t, 'POST', '/public/client', signUpBody(phone, email), { address: newAddress() }),
        ),
      )
      const statuses = answers.map((a) => a.status).sort()
      expect(statuses).toEqual([201, 400])
      const loser = answers.find((a) => a.status === 400)!
      expect(loser.body.response.violations).toEqual([
        { propertyPath: 'mobilePhone.number', message: 'phone-error-taken' },
      ])
    })

    it('refuses a failing or missing captcha, and creates nothing', async () => {
      const phone = newPhone()
      for (const captchaToken of ['sandbox-fail', undefined]) {
        const answer = await call(
          t,
          'POST',
          '/public/client',
          signUpBody(phone, newEmail(), { captchaToken }),
        )
        expect(answer.status).toBe(400)
        expect(answer.body.response.code).toBe('captchaFailed')
        expect(answer.body.response.violations).toEqual([
          { propertyPath: 'captchaToken', message: 'error-captcha' },
        ])
      }
      expect(await t.database.db.select().from(client).where(eq(client.phone, phone))).toEqual([])
    })
  })

  describe('phone verification', () => {
    it('verifies with the code sent at sign-up; -ts answers the time', async () => {
      const c = await signUp(t)
      const code = await lastCode(t, c.phone, 'phone_verify')
      const answer = await call<{
        verified: boolean
        verifiedAt: string
        client: { phoneVerified: boolean }
      }>(t, 'POST', '/private/client/phone/verify-ts', { code }, { token: c.token })
      expect(answer.status).toBe(200)
      expect(answer.body.data.verified).toBe(true)
      expect(answer.body.data.client.phoneVerified).toBe(true)
      expect(Number.isNaN(Date.parse(answer.body.data.verifiedAt))).toBe(false)
      // Already verified: asking for another code is pointless.
      expect(
        (await call(t, 'POST', '/private/client/phone/sms-code', undefined, { token: c.token })).status,
      ).toBe(409)
    })

    it("answers the spec's codes: invalid format, not sent, incorrect", async () => {
      const c = await signUp(t)
      const code = await lastCode(t, c.phone, 'phone_verify')
      const verify = (body: unknown) =>
        call(t, 'POST', '/private/client/phone/verify', body, { token: c.token })

      for (const bad of ['12', '1234', 'abc', '']) {
        const answer = await verify({ code: bad })
        expect(answer.status).toBe(400)
        expect(answer.body.response.code).toBe('validationError')
        expect(answer.body.response.violations?.[0]?.propertyPath).toBe('code')
      }
      const wrong = code === '000' ? '001' : '000'
      const incorrect = await verify({ code: wrong })
      expect(incorrect.status).toBe(422)
      expect(incorrect.body.response.message).toBe('Phone verification not passed')
      expect(incorrect.body.response.violations).toEqual([
        { propertyPath: 'code', message: 'Phone verification not passed' },
      ])

      // Expired: ten minutes later the code is gone.
      const start = Date.now()
      t.setClock(() => new Date(start + 10 * 60_000 + 1000))
      try {
        const expired = await verify({ code })
        expect(expired.status).toBe(422)
        expect(expired.body.response.message).toBe('Code not found by given identity')
      } finally {
        t.setClock(() => new Date())
      }
    })

    it('answers "not sent" before any code, and the minute and day limits as codeMinuteLimit / codeDayLimit', async () => {
      const c = await signUp(t)
      const [row] = await t.database.db.select().from(client).where(eq(client.phone, c.phone))
      // A client whose sign-up code is used up: nothing live for this number.
      await t.database.db.delete(verificationCode).where(eq(verificationCode.target, c.phone))
      const notSent = await call(
        t,
        'POST',
        '/private/client/phone/verify',
        { code: '123' },
        { token: c.token },
      )
      expect(notSent.status).toBe(422)
      expect(notSent.body.response.message).toBe('Code not found by given identity')
      expect(row!.phoneVerifiedAt).toBeNull()

      const start = Date.now()
      let minute = 0
      t.setClock(() => new Date(start + minute * 61_000))
      try {
        const send = () => call(t, 'POST', '/private/client/phone/sms-code-ts', undefined, { token: c.token })
        const first = await send()
        expect(first.status).toBe(200)
        expect(Date.parse(first.body.data.nextCodeAt as string)).toBe(start + 60_000)
        expect(Date.parse(first.body.data.codeExpiresAt as string)).toBe(start + 600_000)
        const again = await send()
        expect(again.status).toBe(429)
        expect(again.body.response.code).toBe('codeMinuteLimit')
        for (minute = 1; minute < 5; minute++) expect((await send()).status).toBe(200)
        const sixth = await send()
        expect(sixth.status).toBe(429)
        expect(sixth.body.response.code).toBe('codeDayLimit')
        const stored = await t.database.db
          .select()
          .from(verificationCode)
          .where(eq(verificationCode.target, c.phone))
        expect(stored).toHaveLength(5)
      } finally {
        t.setClock(() => new Date())
      }
    })

    it('a new code kills the previous one', async () => {
      const c = await signUp(t)
      const first = await lastCode(t, c.phone, 'phone_verify')
      const start = Date.now()
      t.setClock(() => new Date(start + 61_000))
      try {
        expect(
          (await call(t, 'POST', '/private/client/phone/sms-code', undefined, { token: c.token })).body.data,
        ).toEqual({ sent: true })
        const second = await lastCode(t, c.phone, 'phone_verify')
        if (first !== second) {
          const old = await call(
            t,
            'POST',
            '/private/client/phone/verify',
            { code: first },
            { token: c.token },
          )
          expect(old.status).toBe(422)
        }
        const ok = await call(t, 'POST', '/private/client/phone/verify', { code: second }, { token: c.token })
        expect(ok.status).toBe(200)
      } finally {
        t.setClock(() => new Date())
      }
    })

    it('public sms-code answers alike for unknown, verified and unverified numbers, sending only to the last', async () => {
      const unverified = await signUp(t)
      const verifiedOne = await signUp(t)
      await call(
        t,
        'POST',
        '/private/client/phone/verify',
        { code: await lastCode(t, verifiedOne.phone, 'phone_verify') },
        { token: verifiedOne.token },
      )
      const unknown = newPhone()
      const start = Date.now()
      t.setClock(() => new Date(start + 61_000))
      try {
        const answers = []
        for (const number of [unverified.phone, verifiedOne.phone, unknown]) {
          answers.push(
            await call(t, 'POST', '/public/client/phone/sms-code', {
              mobilePhone: { number },
              captchaToken: 'ok',
            }),
          )
        }
        expect(answers.map((a) => [a.status, a.body.data])).toEqual([
          [200, { sent: true }],
          [200, { sent: true }],
          [200, { sent: true }],
        ])
        expect(await outboxFor(t, unverified.phone)).toHaveLength(2)
        expect(await outboxFor(t, verifiedOne.phone)).toHaveLength(1)
        expect(await outboxFor(t, unknown)).toHaveLength(0)

        // The minute limit holds for every number alike, so it tells nothing either.
        const again = await Promise.all(
          [unverified.phone, unknown].map((number) =>
            call(t, 'POST', '/public/client/phone/sms-code-ts', {
              mobilePhone: { number },
              captchaToken: 'ok',
            }),
          ),
        )
        expect(again.map((a) => a.body.response.code)).toEqual(['codeMinuteLimit', 'codeMinuteLimit'])

        // The code sent publicly verifies through the client's session.
        const code = await lastCode(t, unverified.phone, 'phone_verify')
        const ok = await call(
          t,
          'POST',
          '/private/client/phone/verify',
          { code },
          { token: unverified.token },
        )
        expect(ok.status).toBe(200)

        const refused = await call(t, 'POST', '/public/client/phone/sms-code', {
          mobilePhone: { number: unknown },
          captchaToken: 'sandbox-fail',
        })
        expect(refused.body.response.code).toBe('captchaFailed')
      } finally {
        t.setClock(() => new Date())
      }
    })

    it('public -ts variant answers the resend and expiry times', async () => {
      const answer = await call(t, 'POST', '/public/client/phone/sms-code-ts', {
        mobilePhone: { number: newPhone() },
        captchaToken: 'ok',
      })
      expect(answer.status).toBe(200)
      expect(Object.keys(answer.body.data).sort()).toEqual(['codeExpiresAt', 'nextCodeAt', 'sent'])
    })
  })

  describe('e-mail verification', () => {
    it('sends a code to the e-mail and verifies it; the public call answers alike for unknown e-mails', async () => {
      const c = await signUp(t)
      const sent = await call(t, 'POST', '/public/client/email/send-code', {
        email: c.email,
        captchaToken: 'ok',
      })
      expect(sent.status).toBe(200)
      const unknown = await call(t, 'POST', '/public/client/email/send-code', {
        email: newEmail(),
        captchaToken: 'ok',
      })
      expect(unknown.status).toBe(200)
      expect(Object.keys(unknown.body.data).sort()).toEqual(Object.keys(sent.body.data).sort())

      const [mail] = await outboxFor(t, c.email)
      expect(mail).toMatchObject({ channel: 'email', purpose: 'email_verify' })
      expect(mail!.subject).toContain('code')
      const code = await lastCode(t, c.email)
      const wrong = await call(
        t,
        'POST',
        '/private/client/email/verify',
        { code: code === '999' ? '998' : '999' },
        { token: c.token },
      )
      expect(wrong.body.response.message).toBe('Phone verification not passed')
      const ok = await call<{ client: { emailVerified: boolean } }>(
        t,
        'POST',
        '/private/client/email/verify',
        { code },
        { token: c.token },
      )
      expect(ok.status).toBe(200)
      expect(ok.body.data.client.emailVerified).toBe(true)
      expect(
        (await call(t, 'POST', '/private/client/email/send-code', undefined, { token: c.token })).status,
      ).toBe(409)
    })

    it('the private call sends to the current e-mail', async () => {
      const c = await signUp(t)
      const answer = await call(t, 'POST', '/private/client/email/send-code', undefined, { token: c.token })
      expect(answer.status).toBe(200)
      expect(await outboxFor(t, c.email, 'email_verify')).toHaveLength(1)
    })
  })
})
