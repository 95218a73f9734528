import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyToken } from '../../server/auth/tokens'
import { session } from '../../server/db/schema-identity'
import { createTestApp } from '../support/app'
import {
  call,
  lastCode,
  later,
  login,
  newAddress,
  newEmail,
  newPhone,
  outboxFor,
  PASSWORD,
  type SignedUp,
  signUp,
  type TestApp,
  tokenOf,
  verifiedClient,
} from './identity-helpers'

const claimsOf = async (t: TestApp, token: string) => {
  const verified = await verifyToken(t.secrets.jwtSecret, token)
  if (!verified.ok) throw new Error('token did not verify')
  return verified.claims
}

describe('client login, sessions and credential changes', () => {
  let t: TestApp
  let alice: SignedUp
  beforeAll(async () => {
    t = await createTestApp()
    alice = await verifiedClient(t)
  })
  afterAll(() => t.close())

  describe('POST /public/client/login', () => {
    it('logs in with the number or the e-mail (any case) from a trusted device', async () => {
      for (const name of [alice.phone, alice.email.toUpperCase()]) {
        const answer = await login(t, name, PASSWORD, { deviceId: alice.deviceId })
        expect(answer.status).toBe(200)
        expect(answer.body.data.mfa).toBe(false)
        expect(answer.body.data.client?.id).toBe(alice.clientId)
        const token = tokenOf(answer)
        expect(await claimsOf(t, token)).toMatchObject({
          type: 'client',
          mfa: false,
          sl: false,
          sub: String(alice.clientId),
        })
        expect((await call(t, 'GET', '/private/client', undefined, { token })).status).toBe(200)
      }
    })

    it('answers a wrong password and an unknown account alike', async () => {
      const wrong = await login(t, alice.phone, 'wrong123', { deviceId: alice.deviceId })
      const unknown = await login(t, newPhone(), PASSWORD)
      for (const answer of [wrong, unknown]) {
        expect(answer.status).toBe(401)
        expect(answer.body.response.code).toBe('invalidCredentials')
        expect(answer.body.response.violations).toEqual([
          { propertyPath: 'password', message: 'error-invalid-credentials' },
        ])
        expect(answer.res.headers.get('authorization')).toBeNull()
      }
      expect(wrong.body.response.message).toBe(unknown.body.response.message)
      // A success clears the account's failures.
      expect((await login(t, alice.phone, PASSWORD, { deviceId: alice.deviceId })).body.data.mfa).toBe(false)
    })

    it('refuses a failing captcha before looking at the password', async () => {
      const answer = await login(t, alice.phone, PASSWORD, {
        deviceId: alice.deviceId,
        captchaToken: 'sandbox-fail',
      })
      expect(answer.status).toBe(400)
      expect(answer.body.response.code).toBe('captchaFailed')
    })

    it('locks a stranger out of an account for 15 minutes after 5 failures, even with the right password', async () => {
      const bob = await signUp(t)
      const stranger = `stranger-${Date.now()}`
      const address = newAddress()
      for (let i = 0; i < 5; i++) {
        expect((await login(t, bob.email, 'wrong123', { deviceId: stranger, address })).status).toBe(401)
      }
      const locked = await login(t, bob.phone, PASSWORD, { deviceId: stranger, address })
      expect(locked.status).toBe(429)
      expect(locked.body.response.code).toBe('tooManyAttempts')
      const wait = Number(locked.res.headers.get('retry-after'))
      expect(wait).toBeGreaterThan(14 * 60)
      expect(wait).toBeLessThanOrEqual(15 * 60)
      // The same device from another address, and another device from the same address, are locked out too.
      expect(
        (await login(t, bob.phone, PASSWORD, { deviceId: stranger, address: newAddress() })).status,
      ).toBe(429)
      expect((await login(t, bob.phone, PASSWORD, { deviceId: `other-${Date.now()}`, address })).status).toBe(
        429,
      )
      // The owner's own device is not (tests/api/identity-abuse.test.ts has the whole story).
      expect((await login(t, bob.phone, PASSWORD, { deviceId: bob.deviceId, address })).body.data.mfa).toBe(
        false,
      )
      const start = Date.now()
      t.setClock(() => new Date(start + 16 * 60_000))
      try {
        const later = await login(t, bob.phone, PASSWORD, { deviceId: stranger, address })
        expect(later.status).toBe(200)
        // A device the client has not used: the second factor, not a lock.
        expect(later.body.data.mfa).toBe(true)
      } finally {
        t.setClock(() => new Date())
      }
    })

    it('locks an address after 20 failures, whatever accounts it tries; known devices there still log in', async () => {
      const address = newAddress()
      for (let i = 0; i < 20; i++) {
        expect((await login(t, newEmail('ghost'), 'wrong123', { address })).status).toBe(401)
      }
      const unknown = await login(t, alice.phone, PASSWORD, { deviceId: `new-${Date.now()}`, address })
      expect(unknown.status).toBe(429)
      expect(Number(unknown.res.headers.get('retry-after'))).toBeGreaterThan(0)
      const elsewhere = await login(t, alice.phone, PASSWORD, {
        deviceId: `new-${Date.now()}`,
        address: newAddress(),
      })
      expect(elsewhere.status).toBe(200)
      // Many borrowers share one carrier-grade NAT address: a device the account trusts is not locked by it.
      const known = await login(t, alice.phone, PASSWORD, { deviceId: alice.deviceId, address })
      expect(known.status).toBe(200)
      expect(known.body.data.mfa).toBe(false)
    })
  })

  describe('second factor on a risky login', () => {
    it('after recent failures: mfa token, SMS code, not logged in until the code is given', async () => {
      const carol = await signUp(t)
      for (let i = 0; i < 2; i++) await login(t, carol.phone, 'wrong123', { deviceId: carol.deviceId })
      // Right after sign-up the number's minute limit still runs: the answer says when a code can come.
      const early = await login(t, carol.phone, PASSWORD, { deviceId: carol.deviceId })
      expect(early.body.data.mfa).toBe(true)
      expect(Date.parse(early.body.data.nextCodeAt!)).toBeGreaterThan(Date.now())
      for (let i = 0; i < 2; i++) await login(t, carol.phone, 'wrong123', { deviceId: carol.deviceId })
      const answer = await later(t, 61_000, () =>
        login(t, carol.phone, PASSWORD, { deviceId: carol.deviceId }),
      )
      expect(answer.status).toBe(200)
      expect(answer.body.data).toMatchObject({ mfa: true, client: null })
      const pending = tokenOf(answer)
      expect((await claimsOf(t, pending)).mfa).toBe(true)

      // Counts as not logged in: every private call but the completion (and logout) refuses it.
      expect((await call(t, 'GET', '/private/client', undefined, { token: pending })).status).toBe(401)
      expect(
        (await call(t, 'GET', '/private/client/token/refresh', undefined, { token: pending })).status,
      ).toBe(401)

      const code = await lastCode(t, carol.phone, 'login_mfa')
      const wrong = await call(
        t,
        'POST',
        '/public/client/login/mfa',
        { code: code === '000' ? '001' : '000' },
        { token: pending },
      )
      expect(wrong.status).toBe(422)
      const done = await call<{ mfa: boolean; client: { id: number } }>(
        t,
        'POST',
        '/public/client/login/mfa',
        { code },
        { token: pending },
      )
      expect(done.status).toBe(200)
      expect(done.body.data.mfa).toBe(false)
      expect(done.body.data.client.id).toBe(carol.clientId)
      const full = tokenOf(done)
      expect((await claimsOf(t, full)).mfa).toBe(false)
      expect((await claimsOf(t, full)).sid).toBe((await claimsOf(t, pending)).sid)
      expect((await call(t, 'GET', '/private/client', undefined, { token: full })).status).toBe(200)
      // Completing twice is refused.
      expect((await call(t, 'POST', '/public/client/login/mfa', { code }, { token: full })).status).toBe(409)
    })

    it('with a borderline captcha score (sandbox-risky)', async () => {
      const answer = await login(t, alice.phone, PASSWORD, {
        deviceId: alice.deviceId,
        captchaToken: 'sandbox-risky',
      })
      expect(answer.body.data.mfa).toBe(true)
    })

    it('from a device the client has not used: completing the factor trusts it', async () => {
      const dave = await signUp(t)
      const newDevice = `laptop-${Date.now()}`
      const first = await login(t, dave.phone, PASSWORD, { deviceId: newDevice })
      expect(first.body.data.mfa).toBe(true)
      const pending = tokenOf(first)

      const start = Date.now()
      t.setClock(() => new Date(start + 61_000))
      try {
        const resend = await call(t, 'POST', '/public/client/login/mfa/sms-code', undefined, {
          token: pending,
        })
        expect(resend.status).toBe(200)
        const code = await lastCode(t, dave.phone, 'login_mfa')
        expect((await call(t, 'POST', '/public/client/login/mfa', { code }, { token: pending })).status).toBe(
          200,
        )
      } finally {
        t.setClock(() => new Date())
      }
      expect((await login(t, dave.phone, PASSWORD, { deviceId: newDevice })).body.data.mfa).toBe(false)
      // No device id at all, once the client has trusted ones, is an unknown device too.
      expect((await login(t, dave.phone, PASSWORD)).body.data.mfa).toBe(true)
      // The device id may come as a header as well.
      const byHeader = await call<{ mfa: boolean }>(
        t,
        'POST',
        '/public/client/login',
        { login: dave.phone, password: PASSWORD, captchaToken: 'ok' },
        { headers: { 'x-device-id': newDevice }, address: newAddress() },
      )
      expect(byHeader.body.data.mfa).toBe(false)
    })

    it('a session that needs no second factor cannot "complete" one', async () => {
      const answer = await call(
        t,
        'POST',
        '/public/client/login/mfa',
        { code: '123' },
        { token: alice.token },
      )
      expect(answer.status).toBe(409)
      expect(answer.body.response.code).toBe('mfaNotPending')
    })
  })

  describe('refresh and logout', () => {
    it('refresh hands out a new token for the same session; logout revokes it and clears the cookie', async () => {
      const answer = await login(t, alice.phone, PASSWORD, { deviceId: alice.deviceId })
      const token = tokenOf(answer)
      const start = Date.now()
      t.setClock(() => new Date(start + 5_000))
      const refreshed = await call<{ expiresIn: number }>(
        t,
        'GET',
        '/private/client/token/refresh',
        undefined,
        { token },
      )
      t.setClock(() => new Date())
      expect(refreshed.status).toBe(200)
      expect(refreshed.body.data.expiresIn).toBe(900)
      const next = tokenOf(refreshed)
      expect(next).not.toBe(token)
      expect(refreshed.res.headers.get('set-cookie')).toContain(`auth.token=${next}`)
      expect((await claimsOf(t, next)).sid).toBe((await claimsOf(t, token)).sid)

      const out = await call(t, 'POST', '/private/client/logout', undefined, { token: next })
      expect(out.status).toBe(200)
      expect(out.res.headers.get('set-cookie')).toMatch(/auth\.token=;.*Max-Age=0/)
      const [row] = await t.database.db
        .select()
        .from(session)
        .where(eq(session.id, (await claimsOf(t, next)).sid))
      expect(row!.revokedReason).toBe('logout')
      for (const old of [token, next]) {
        const refused = await call(t, 'GET', '/private/client', undefined, { token: old })
        expect(refused.status).toBe(401)
        expect(refused.body.response.message).toBe('The session has ended.')
      }
    })

    it('the API reads the token from the Authorization header only, never from the cookie', async () => {
      const res = await t.request('/web/private/client', { headers: { cookie: `auth.token=${alice.token}` } })
      expect(res.status).toBe(401)
    })
  })

  describe('POST /public/client/recover/password', () => {
    it('sends a code by SMS (same answer for unknown logins) and resets with it, ending every session', async () => {
      const erin = await verifiedClient(t)
      const other = await login(t, erin.phone, PASSWORD, { deviceId: erin.deviceId })
      const step1 = await later(t, 61_000, () =>
        call(t, 'POST', '/public/client/recover/password', { login: erin.email, captchaToken: 'ok' }),
      )
      const ghost = await call(t, 'POST', '/public/client/recover/password', {
        login: newEmail('ghost'),
        captchaToken: 'ok',
      })
      expect([step1.status, ghost.status]).toEqual([200, 200])
      expect(Object.keys(step1.body.data).sort()).toEqual(Object.keys(ghost.body.data).sort())
      const code = await lastCode(t, erin.phone, 'recover_password')

      const missing = await call(t, 'POST', '/public/client/recover/password', { login: erin.email, code })
      expect(missing.body.response.violations).toEqual([
        { propertyPath: 'password', message: 'error-required' },
      ])
      const mismatch = await call(t, 'POST', '/public/client/recover/password', {
        login: erin.email,
        code,
        password: 'newpass1',
        passwordRepeat: 'newpass2',
      })
      expect(mismatch.body.response.violations).toEqual([
        { propertyPath: 'passwordRepeat', message: 'error-password-mismatch' },
      ])
      const ghostReset = await call(t, 'POST', '/public/client/recover/password', {
        login: newEmail('ghost'),
        code,
        password: 'newpass1',
        passwordRepeat: 'newpass1',
      })
      expect(ghostReset.body.response.message).toBe('Code not found by given identity')

      const reset = await call(t, 'POST', '/public/client/recover/password', {
        login: erin.email,
        code,
        password: 'newpass1',
        passwordRepeat: 'newpass1',
      })
      expect(reset.status).toBe(200)
      for (const token of [erin.token, tokenOf(other)]) {
        expect((await call(t, 'GET', '/private/client', undefined, { token })).status).toBe(401)
      }
      expect((await login(t, erin.phone, PASSWORD, { deviceId: erin.deviceId })).status).toBe(401)
      expect((await login(t, erin.phone, 'newpass1', { deviceId: erin.deviceId })).status).toBe(200)
      // Single use.
      const replay = await call(t, 'POST', '/public/client/recover/password', {
        login: erin.email,
        code,
        password: 'newpass9',
        passwordRepeat: 'newpass9',
      })
      expect(replay.status).toBe(422)
    })
  })

  describe('POST /private/client/change/password', () => {
    it('needs the old password, a different new one, and ends the other sessions', async () => {
      const fay = await verifiedClient(t)
      const otherDevice = tokenOf(await login(t, fay.phone, PASSWORD, { deviceId: fay.deviceId }))
      const change = (body: unknown) =>
        call(t, 'POST', '/private/client/change/password', body, { token: fay.token })

      const wrongOld = await change({
        oldPassword: 'nothing1',
        password: 'brandnew1',
        passwordRepeat: 'brandnew1',
      })
      expect(wrongOld.status).toBe(400)
      expect(wrongOld.body.response.violations).toEqual([
        { propertyPath: 'oldPassword', message: 'oldPassword' },
      ])
      const same = await change({ oldPassword: PASSWORD, password: PASSWORD, passwordRepeat: PASSWORD })
      expect(same.body.response.violations).toEqual([
        { propertyPath: 'password', message: 'uniqueNewPassword' },
      ])
      const mismatch = await change({
        oldPassword: PASSWORD,
        password: 'brandnew1',
        passwordRepeat: 'brandnew2',
      })
      expect(mismatch.body.response.violations).toEqual([
        { propertyPath: 'passwordRepeat', message: 'error-password-mismatch' },
      ])
      const bad = await change({ oldPassword: PASSWORD, password: 'sh', passwordRepeat: 'sh' })
      expect(bad.body.response.violations).toEqual([
        { propertyPath: 'password', message: 'error-wrong-format' },
      ])

      const done = await change({ oldPassword: PASSWORD, password: 'brandnew1', passwordRepeat: 'brandnew1' })
      expect(done.status).toBe(200)
      expect((await call(t, 'GET', '/private/client', undefined, { token: fay.token })).status).toBe(200)
      expect((await call(t, 'GET', '/private/client', undefined, { token: otherDevice })).status).toBe(401)
      expect((await outboxFor(t, fay.phone, 'password_changed')).length).toBe(1)
      expect((await login(t, fay.phone, 'brandnew1', { deviceId: fay.deviceId })).status).toBe(200)
    })

    it('wrong old passwords count as failed logins: a stolen session is not a password oracle', async () => {
      const gus = await signUp(t)
      for (let i = 0; i < 5; i++) {
        const answer = await call(
          t,
          'POST',
          '/private/client/change/password',
          { oldPassword: `guess${i}xx`, password: 'brandnew1', passwordRepeat: 'brandnew1' },
          { token: gus.token, address: newAddress() },
        )
        expect(answer.status).toBe(400)
      }
      const locked = await call(
        t,
        'POST',
        '/private/client/change/password',
        { oldPassword: PASSWORD, password: 'brandnew1', passwordRepeat: 'brandnew1' },
        { token: gus.token },
      )
      expect(locked.status).toBe(429)
    })
  })

  describe('change phone and e-mail', () => {
    it('changes the number with a code sent to the new number; the old number is told', async () => {
      const hal = await verifiedClient(t)
      const other = await signUp(t)
      const sendCode = (number: string) =>
        call(
          t,
          'POST',
          '/private/client/change/phone/send-code',
          { mobilePhone: { number } },
          { token: hal.token },
        )
      for (const number of [hal.phone, other.phone]) {
        const taken = await sendCode(number)
        expect(taken.status).toBe(400)
        expect(taken.body.response.violations).toEqual([
          { propertyPath: 'mobilePhone.number', message: 'phone-error-taken' },
        ])
      }
      expect((await sendCode('12345')).body.response.violations?.[0]?.message).toBe('error-incorrect-phone')
      const fresh = newPhone()
      const sent = await sendCode(fresh)
      expect(sent.status).toBe(200)
      expect(Object.keys(sent.body.data).sort()).toEqual(['codeExpiresAt', 'nextCodeAt', 'sent'])
      const code = await lastCode(t, fresh, 'change_phone')

      const put = (number: string, c: string) =>
        call(
          t,
          'PUT',
          '/private/client/change/phone',
          { mobilePhone: { number }, code: c },
          { token: hal.token },
        )
      expect((await put(fresh, code === '000' ? '001' : '000')).body.response.message).toBe(
        'Phone verification not passed',
      )
      expect((await put(newPhone(), code)).body.response.message).toBe('Code not found by given identity')
      const done = await put(fresh, code)
      expect(done.status).toBe(200)
      expect(done.body.data.client).toMatchObject({
        info: { mobilePhone: { number: fresh } },
        phoneVerified: true,
      })
      expect(await outboxFor(t, hal.phone, 'phone_changed')).toHaveLength(1)
      expect((await login(t, fresh, PASSWORD, { deviceId: hal.deviceId })).status).toBe(200)
      expect((await login(t, hal.phone, PASSWORD, { deviceId: hal.deviceId })).status).toBe(401)
    })

    it('changes the e-mail with a code sent to the new e-mail; it must differ and be free', async () => {
      const ivy = await verifiedClient(t)
      const other = await signUp(t)
      const sendCode = (email: string) =>
        call(t, 'POST', '/private/client/change/email/send-code', { email }, { token: ivy.token })
      for (const email of [ivy.email, other.email.toUpperCase()]) {
        const taken = await sendCode(email)
        expect(taken.body.response.violations).toEqual([
          { propertyPath: 'email', message: 'email-error-taken' },
        ])
      }
      const fresh = newEmail('new')
      expect((await sendCode(fresh)).status).toBe(200)
      const code = await lastCode(t, fresh, 'change_email')
      const wrongAddress = await call(
        t,
        'PUT',
        '/private/client/change/email',
        { email: newEmail('other'), code },
        { token: ivy.token },
      )
      expect(wrongAddress.status).toBe(422)
      const done = await call<{ client: { email: string; emailVerified: boolean } }>(
        t,
        'PUT',
        '/private/client/change/email',
        { email: fresh, code },
        { token: ivy.token },
      )
      expect(done.status).toBe(200)
      expect(done.body.data.client).toMatchObject({ email: fresh, emailVerified: true })
      expect(await outboxFor(t, ivy.email, 'email_changed')).toHaveLength(1)
      expect((await login(t, fresh, PASSWORD, { deviceId: ivy.deviceId })).status).toBe(200)
    })
  })
})
