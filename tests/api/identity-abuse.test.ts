/**
 * Abuse of other people's accounts (issue 13, item 7; docs/decisions/0006): a stranger asking for codes on a
 * borrower's number, or typing wrong passwords for it, is throttled by the limits of the stranger's own device
 * and address; the owner, from a device the account has trusted before, still gets codes and still logs in.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { PUBLIC_CODES_PER_ADDRESS_HOUR, PUBLIC_CODES_PER_DEVICE_HOUR } from '../../server/http/code-delivery'
import { CODES_PER_DAY } from '../../server/services/identity/codes'
import {
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_MAX_FAILURES_PER_KNOWN_DEVICE,
} from '../../server/services/identity/login'
import {
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  seedFirstUser,
} from '../../server/services/identity/users'
import { createTestApp } from '../support/app'
import {
  type Answer,
  call,
  lastCode,
  login,
  newAddress,
  newPhone,
  outboxFor,
  PASSWORD,
  signUp,
  type TestApp,
  tokenOf,
  verifiedClient,
} from './identity-helpers'

let sequence = 0
const newDevice = (tag: string) => `${tag}-${Date.now()}-${sequence++}`

/** A request from a given device (x-device-id, as the app sends it) and address (X-Forwarded-For). */
const from = (deviceId: string, address: string) => ({ headers: { 'x-device-id': deviceId }, address })

const retryAfter = (answer: Answer<unknown>) => Number(answer.res.headers.get('retry-after'))

describe('abuse of other people accounts', () => {
  let t: TestApp
  let base = Date.now()
  let offset = 0
  /** Moves the server's clock forward (past a code's minute limit), from a base fixed per test. */
  const wait = (ms: number) => {
    offset += ms
  }
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterEach(() => {
    t.setClock(() => new Date())
  })
  afterAll(() => t.close())
  const freezeClock = () => {
    base = Date.now()
    offset = 0
    t.setClock(() => new Date(base + offset))
  }

  describe('codes', () => {
    const recover = (loginName: string, who: { headers: Record<string, string>; address: string }) =>
      call(t, 'POST', '/public/client/recover/password', { login: loginName, captchaToken: 'ok' }, who)

    it("a stranger using up a number's codes does not stop its owner getting one from a known device", async () => {
      const owner = await verifiedClient(t)
      // Strangers from ever new devices and addresses (the per-device and per-address caps never bind them).
      const stranger = () => from(newDevice('stranger'), newAddress())
      freezeClock()
      wait(61_000)
      for (let i = 0; i < CODES_PER_DAY; i++) {
        expect((await recover(owner.phone, stranger())).status).toBe(200)
        const tooSoon = await recover(owner.phone, stranger())
        expect(tooSoon.status).toBe(429)
        expect(tooSoon.body.response.code).toBe('codeMinuteLimit')
        expect(retryAfter(tooSoon)).toBe(60)
        wait(61_000)
      }
      const dayOver = await recover(owner.phone, stranger())
      expect(dayOver.status).toBe(429)
      expect(dayOver.body.response.code).toBe('codeDayLimit')
      // The wait until the stranger's first code of the day is a day old, for the browser's countdown.
      expect(retryAfter(dayOver)).toBeGreaterThan(23 * 3600)
      expect(retryAfter(dayOver)).toBeLessThanOrEqual(24 * 3600)

      // The owner, from the device the account trusts, at any address: the code comes, and works.
      const sentBefore = (await outboxFor(t, owner.phone, 'recover_password')).length
      const mine = await recover(owner.phone, from(owner.deviceId, newAddress()))
      expect(mine.status).toBe(200)
      expect(await outboxFor(t, owner.phone, 'recover_password')).toHaveLength(sentBefore + 1)
      const code = await lastCode(t, owner.phone, 'recover_password')
      const reset = await call(t, 'POST', '/public/client/recover/password', {
        login: owner.phone,
        code,
        password: 'newpass1',
        passwordRepeat: 'newpass1',
      })
      expect(reset.status).toBe(200)
    })

    it("a stranger's code does not hold the owner back by a minute, but the owner's fresh code holds the stranger", async () => {
      const owner = await verifiedClient(t)
      const stranger = from(newDevice('stranger'), newAddress())
      freezeClock()
      wait(61_000)
      expect((await recover(owner.email, stranger)).status).toBe(200)
      const mine = await recover(owner.email, from(owner.deviceId, newAddress()))
      expect(mine.status).toBe(200)
      // The stranger cannot replace the owner's fresh code at once.
      const replace = await recover(owner.email, stranger)
      expect(replace.body.response.code).toBe('codeMinuteLimit')
    })

    it("a signed-in owner's codes come from the owner's budget too", async () => {
      const owner = await signUp(t)
      freezeClock()
      wait(61_000)
      for (let i = 0; i < CODES_PER_DAY; i++) {
        const asked = await call(
          t,
          'POST',
          '/public/client/phone/sms-code',
          { mobilePhone: { number: owner.phone }, captchaToken: 'ok' },
          from(newDevice('stranger'), newAddress()),
        )
        expect(asked.status).toBe(200)
        wait(61_000)
      }
      const sent = await call(t, 'POST', '/private/client/phone/sms-code-ts', undefined, {
        token: owner.token,
      })
      expect(sent.status).toBe(200)
      const code = await lastCode(t, owner.phone, 'phone_verify')
      const verified = await call(t, 'POST', '/private/client/phone/verify', { code }, { token: owner.token })
      expect(verified.status).toBe(200)
    })

    it("a stranger's wrong codes cannot kill the code the owner was sent, and get 3 guesses only", async () => {
      const owner = await verifiedClient(t)
      freezeClock()
      wait(61_000)
      const mineFrom = from(owner.deviceId, newAddress())
      expect((await recover(owner.phone, mineFrom)).status).toBe(200)
      const code = await lastCode(t, owner.phone, 'recover_password')
      const reset = (guess: string, who: { headers: Record<string, string>; address: string }) =>
        call(
          t,
          'POST',
          '/public/client/recover/password',
          { login: owner.phone, code: guess, password: 'newpass1', passwordRepeat: 'newpass1' },
          who,
        )
      const stranger = from(newDevice('stranger'), newAddress())
      const wrongs = ['000', '001', '002', '003'].filter((guess) => guess !== code).slice(0, 3)
      for (const wrong of wrongs)
        expect((await reset(wrong, stranger)).body.response.message).toBe('Phone verification not passed')
      // The strangers' 3 guesses on this code are spent: even the right code is "not found" for them.
      expect((await reset(code, from(newDevice('stranger'), newAddress()))).body.response.message).toBe(
        'Code not found by given identity',
      )
      // The owner's code lives on.
      expect((await reset(code, mineFrom)).status).toBe(200)
    })

    it('one address cannot spray numbers: anonymous code requests are capped per address, across numbers', async () => {
      const address = newAddress()
      const ask = (deviceId: string) =>
        call(
          t,
          'POST',
          '/public/client/phone/sms-code',
          { mobilePhone: { number: newPhone() }, captchaToken: 'ok' },
          from(deviceId, address),
        )
      // A new device id for every request changes nothing: the address is the key.
      for (let i = 0; i < PUBLIC_CODES_PER_ADDRESS_HOUR; i++)
        expect((await ask(newDevice('spray'))).status).toBe(200)
      const capped = await ask(newDevice('spray'))
      expect(capped.status).toBe(429)
      expect(capped.body.response.code).toBe('tooManyRequests')
      expect(retryAfter(capped)).toBeGreaterThan(3000)
      expect(retryAfter(capped)).toBeLessThanOrEqual(3600)
      // The owner of an account, from a device it trusts, behind the same (shared, carrier-grade NAT) address.
      const owner = await verifiedClient(t)
      freezeClock()
      wait(61_000)
      const mine = await call(
        t,
        'POST',
        '/public/client/recover/password',
        { login: owner.phone, captchaToken: 'ok' },
        from(owner.deviceId, address),
      )
      expect(mine.status).toBe(200)
    })

    it('one device cannot spray numbers from many addresses: capped per device id', async () => {
      const device = newDevice('roaming')
      const ask = () =>
        call(
          t,
          'POST',
          '/public/client/phone/sms-code',
          { mobilePhone: { number: newPhone() }, captchaToken: 'ok' },
          from(device, newAddress()),
        )
      for (let i = 0; i < PUBLIC_CODES_PER_DEVICE_HOUR; i++) expect((await ask()).status).toBe(200)
      const capped = await ask()
      expect(capped.status).toBe(429)
      expect(capped.body.response.code).toBe('tooManyRequests')
      expect(retryAfter(capped)).toBeGreaterThan(0)
    })
  })

  describe('logins', () => {
    it('wrong passwords from a stranger lock the stranger, not the owner on a known device', async () => {
      const owner = await signUp(t)
      const stranger = from(newDevice('stranger'), newAddress())
      const attempt = (password: string, who = stranger) =>
        call<{ mfa: boolean }>(
          t,
          'POST',
          '/public/client/login',
          { login: owner.phone, password, captchaToken: 'ok' },
          who,
        )
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT; i++)
        expect((await attempt('wrong123')).status).toBe(401)
      for (const password of ['wrong123', PASSWORD]) {
        const locked = await attempt(password)
        expect(locked.status).toBe(429)
        expect(locked.body.response.code).toBe('tooManyAttempts')
        expect(retryAfter(locked)).toBeGreaterThan(14 * 60)
      }
      // More strangers, from many addresses and devices: each is locked in turn.
      for (let s = 0; s < 4; s++) {
        const next = from(newDevice('botnet'), newAddress())
        for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT; i++)
          expect((await attempt('wrong123', next)).status).toBe(401)
        expect((await attempt('wrong123', next)).status).toBe(429)
      }

      // The owner, from the device the account trusts, logs straight in: no lock, not even a second factor.
      const mine = await attempt(PASSWORD, from(owner.deviceId, newAddress()))
      expect(mine.status).toBe(200)
      expect(mine.body.data.mfa).toBe(false)
      // A device the account has not used still logs in with the second factor, from an address not locked.
      const newLaptop = await attempt(PASSWORD, from(newDevice('laptop'), newAddress()))
      expect(newLaptop.status).toBe(200)
      expect(newLaptop.body.data.mfa).toBe(true)
    })

    it("the known device's own failures ask for the second factor, then rate-limit that device only", async () => {
      const owner = await signUp(t)
      const mine = from(owner.deviceId, newAddress())
      const attempt = (password: string, who = mine) =>
        call<{ mfa: boolean }>(
          t,
          'POST',
          '/public/client/login',
          { login: owner.email, password, captchaToken: 'ok' },
          who,
        )
      for (let i = 0; i < 2; i++) expect((await attempt('wrong123')).status).toBe(401)
      const stepUp = await attempt(PASSWORD)
      expect(stepUp.status).toBe(200)
      expect(stepUp.body.data.mfa).toBe(true)
      // The right password clears the device's failures: the next login is an ordinary one.
      expect((await attempt(PASSWORD)).body.data.mfa).toBe(false)
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_KNOWN_DEVICE; i++)
        expect((await attempt('wrong123')).status).toBe(401)
      const limited = await attempt(PASSWORD)
      expect(limited.status).toBe(429)
      expect(retryAfter(limited)).toBeGreaterThan(0)
      // Another device signs in as any new device does (second factor), unaffected by that device's failures.
      const other = await attempt(PASSWORD, from(newDevice('phone'), newAddress()))
      expect(other.status).toBe(200)
      expect(other.body.data.mfa).toBe(true)
    })

    it('one address cannot spray passwords over many accounts; a known device behind it still logs in', async () => {
      const owner = await signUp(t)
      const address = newAddress()
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
        const wrong = await login(t, newPhone(), 'wrong123', { address, deviceId: newDevice('spray') })
        expect(wrong.status).toBe(401)
      }
      const sprayed = await login(t, owner.phone, 'wrong123', { address, deviceId: newDevice('spray') })
      expect(sprayed.status).toBe(429)
      const mine = await login(t, owner.phone, PASSWORD, { address, deviceId: owner.deviceId })
      expect(mine.status).toBe(200)
      expect(mine.body.data.mfa).toBe(false)
    })

    it('back office: a stranger cannot lock a user out of a trusted device', async () => {
      await seedFirstUser(t.database.db, { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD })
      const laptop = newDevice('admin-laptop')
      const adminLogin = (password: string, who: { headers: Record<string, string>; address: string }) =>
        call<{ mfa: boolean }>(
          t,
          'POST',
          '/public/user/login',
          { email: DEFAULT_ADMIN_EMAIL, password, captchaToken: 'ok' },
          who,
        )
      const first = await adminLogin(DEFAULT_ADMIN_PASSWORD, from(laptop, newAddress()))
      expect(first.body.data.mfa).toBe(true)
      const code = await lastCode(t, DEFAULT_ADMIN_EMAIL, 'login_mfa')
      const done = await call(t, 'POST', '/public/user/login/mfa', { code }, { token: tokenOf(first) })
      expect(done.status).toBe(200)

      const stranger = from(newDevice('stranger'), newAddress())
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT; i++)
        expect((await adminLogin('wrongpass', stranger)).status).toBe(401)
      const locked = await adminLogin(DEFAULT_ADMIN_PASSWORD, stranger)
      expect(locked.status).toBe(429)
      expect(retryAfter(locked)).toBeGreaterThan(0)
      const mine = await adminLogin(DEFAULT_ADMIN_PASSWORD, from(laptop, newAddress()))
      expect(mine.status).toBe(200)
      expect(mine.body.data.mfa).toBe(false)
    })
  })
})
