import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '../../server/auth/passwords'
import { verifyToken } from '../../server/auth/tokens'
import { backOfficeUser, client, singleLinkToken } from '../../server/db/schema-identity'
import {
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  seedFirstUser,
} from '../../server/services/identity/users'
import { createTestApp } from '../support/app'
import {
  call,
  lastCode,
  later,
  login,
  newAddress,
  outboxFor,
  PASSWORD,
  type SignedUp,
  signUp,
  type TestApp,
  tokenOf,
  verifiedClient,
} from './identity-helpers'

const ADMIN_DEVICE = 'admin-laptop-0001'

async function adminLogin(t: TestApp, deviceId?: string, password = DEFAULT_ADMIN_PASSWORD) {
  return call<{ mfa: boolean; user: { id: number; email: string } | null; nextCodeAt: string | null }>(
    t,
    'POST',
    '/public/user/login',
    { email: DEFAULT_ADMIN_EMAIL, password, captchaToken: 'ok', deviceId },
    { address: newAddress() },
  )
}

describe('back-office identity', () => {
  let t: TestApp
  let admin: string
  let adminId: number
  let client1: SignedUp
  beforeAll(async () => {
    t = await createTestApp()
    expect(
      await seedFirstUser(t.database.db, { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD }),
    ).toBe(true)
    client1 = await verifiedClient(t)
  })
  afterAll(() => t.close())

  describe('user login', () => {
    it('seeds the first user on an empty database only', async () => {
      expect(await seedFirstUser(t.database.db, { email: 'second@hiram.local', password: 'whatever1' })).toBe(
        false,
      )
      const users = await t.database.db.select().from(backOfficeUser)
      expect(users.map((u) => u.email)).toEqual([DEFAULT_ADMIN_EMAIL])
      expect(users[0]!.passwordHash).toMatch(/^\$argon2id\$/)
    })

    it('from a new device: mfa token and an e-mailed code; completing it trusts the device', async () => {
      const first = await adminLogin(t, ADMIN_DEVICE)
      expect(first.status).toBe(200)
      expect(first.body.data).toMatchObject({ mfa: true, user: null })
      const pending = tokenOf(first)
      const claims = await verifyToken(t.secrets.jwtSecret, pending)
      expect(claims.ok && claims.claims).toMatchObject({ type: 'user', mfa: true })
      expect(
        (await call(t, 'GET', '/private/back-office/outbox', undefined, { token: pending })).status,
      ).toBe(401)

      const [mail] = await outboxFor(t, DEFAULT_ADMIN_EMAIL, 'login_mfa')
      expect(mail).toMatchObject({ channel: 'email' })
      const code = await lastCode(t, DEFAULT_ADMIN_EMAIL, 'login_mfa')
      const done = await call<{ mfa: boolean; user: { id: number; email: string; roles: string[] } }>(
        t,
        'POST',
        '/public/user/login/mfa',
        { code },
        { token: pending },
      )
      expect(done.status).toBe(200)
      expect(done.body.data.user).toMatchObject({ email: DEFAULT_ADMIN_EMAIL, roles: ['administrator'] })
      admin = tokenOf(done)
      adminId = done.body.data.user.id

      const again = await adminLogin(t, ADMIN_DEVICE)
      expect(again.body.data.mfa).toBe(false)
      expect(again.body.data.user?.id).toBe(adminId)
      // No device id is never a known device.
      expect((await adminLogin(t)).body.data.mfa).toBe(true)
    })

    it('refuses a wrong password, a failing captcha and a disabled account', async () => {
      const wrong = await adminLogin(t, ADMIN_DEVICE, 'wrongpass')
      expect(wrong.status).toBe(401)
      expect(wrong.body.response.code).toBe('invalidCredentials')
      const robot = await call(t, 'POST', '/public/user/login', {
        email: DEFAULT_ADMIN_EMAIL,
        password: DEFAULT_ADMIN_PASSWORD,
        captchaToken: 'sandbox-fail',
      })
      expect(robot.body.response.code).toBe('captchaFailed')

      await t.database.db.insert(backOfficeUser).values({
        email: 'gone@hiram.local',
        name: 'Gone',
        passwordHash: await hashPassword('gonepass1'),
        active: false,
      })
      const disabled = await call(t, 'POST', '/public/user/login', {
        email: 'gone@hiram.local',
        password: 'gonepass1',
        captchaToken: 'ok',
      })
      expect(disabled.status).toBe(403)
    })

    it('GET /private/back-office/user/{id}: a user reads their own record, any other id is 404', async () => {
      const self = await call(t, 'GET', `/private/back-office/user/${adminId}`, undefined, { token: admin })
      expect(self.status).toBe(200)
      expect(self.body.data).toEqual({
        id: adminId,
        email: DEFAULT_ADMIN_EMAIL,
        name: 'Administrator',
        roles: ['administrator'],
        active: true,
      })
      const [other] = await t.database.db
        .select({ id: backOfficeUser.id })
        .from(backOfficeUser)
        .where(eq(backOfficeUser.email, 'gone@hiram.local'))
      for (const id of [other!.id, 99999]) {
        const answer = await call(t, 'GET', `/private/back-office/user/${id}`, undefined, { token: admin })
        expect(answer.status).toBe(404)
      }
      expect(
        (await call(t, 'GET', '/private/back-office/user/abc', undefined, { token: admin })).status,
      ).toBe(400)
    })

    it('refresh and logout', async () => {
      const session = tokenOf(await adminLogin(t, ADMIN_DEVICE))
      const refreshed = await later(t, 2000, () =>
        call(t, 'GET', '/private/back-office/token/refresh', undefined, { token: session }),
      )
      expect(refreshed.status).toBe(200)
      const next = tokenOf(refreshed)
      expect(next).not.toBe(session)
      expect((await call(t, 'POST', '/private/back-office/logout', undefined, { token: next })).status).toBe(
        200,
      )
      expect(
        (await call(t, 'GET', '/private/back-office/outbox', undefined, { token: session })).status,
      ).toBe(401)
    })
  })

  describe('GET /private/back-office/outbox', () => {
    it('lists messages newest first, filtered by recipient, paginated in the x-* headers', async () => {
      const all = await call<{ id: number; recipient: string; body: string }[]>(
        t,
        'GET',
        '/private/back-office/outbox?perPage=200',
        undefined,
        { token: admin },
      )
      expect(all.status).toBe(200)
      const ids = all.body.data.map((m) => m.id)
      expect(ids).toEqual([...ids].sort((a, b) => b - a))

      const mine = await call<{ recipient: string; purpose: string; body: string }[]>(
        t,
        'GET',
        `/private/back-office/outbox?recipient=${client1.phone}&perPage=1&page=1`,
        undefined,
        { token: admin },
      )
      const total = (await outboxFor(t, client1.phone)).length
      expect(total).toBeGreaterThan(0)
      expect(mine.body.data).toHaveLength(1)
      expect(mine.body.data[0]!.recipient).toBe(client1.phone)
      expect(mine.res.headers.get('x-page')).toBe('1')
      expect(mine.res.headers.get('x-per-page')).toBe('1')
      expect(mine.res.headers.get('x-total-count')).toBe(String(total))
      expect(mine.res.headers.get('x-count')).toBe('1')
      // QA reads sign-up codes here.
      expect(mine.body.data[0]!.body).toMatch(/\b\d{3}\b/)

      const beyond = await call(
        t,
        'GET',
        `/private/back-office/outbox?recipient=${client1.phone}&page=999`,
        undefined,
        {
          token: admin,
        },
      )
      expect(beyond.body.data).toEqual([])
      expect(beyond.res.headers.get('x-count')).toBe('0')
      expect(
        (await call(t, 'GET', '/private/back-office/outbox?perPage=0', undefined, { token: admin })).status,
      ).toBe(400)
    })

    it('is for back-office users only', async () => {
      expect((await call(t, 'GET', '/private/back-office/outbox')).status).toBe(401)
      expect(
        (await call(t, 'GET', '/private/back-office/outbox', undefined, { token: client1.token })).status,
      ).toBe(403)
    })
  })

  describe('blocking a client', () => {
    it('blocks (status 2) and ends every session; the client cannot log in until unblocked', async () => {
      const victim = await verifiedClient(t)
      const second = tokenOf(await login(t, victim.phone, PASSWORD, { deviceId: victim.deviceId }))
      const block = await call<{ status: number }>(
        t,
        'PUT',
        `/private/back-office/client/${victim.clientId}/status`,
        { status: 2 },
        { token: admin },
      )
      expect(block.status).toBe(200)
      expect(block.body.data.status).toBe(2)
      for (const token of [victim.token, second]) {
        expect((await call(t, 'GET', '/private/client', undefined, { token })).status).toBe(401)
      }
      const refused = await login(t, victim.phone, PASSWORD, { deviceId: victim.deviceId })
      expect(refused.status).toBe(403)
      expect(refused.body.response.code).toBe('accountBlocked')

      const unblock = await call(
        t,
        'PUT',
        `/private/back-office/client/${victim.clientId}/status`,
        { status: 1 },
        { token: admin },
      )
      expect(unblock.status).toBe(200)
      expect((await login(t, victim.phone, PASSWORD, { deviceId: victim.deviceId })).status).toBe(200)

      expect(
        (await call(t, 'PUT', '/private/back-office/client/999999/status', { status: 2 }, { token: admin }))
          .status,
      ).toBe(404)
      expect(
        (
          await call(
            t,
            'PUT',
            `/private/back-office/client/${victim.clientId}/status`,
            { status: 3 },
            { token: admin },
          )
        ).status,
      ).toBe(400)
      expect(
        (
          await call(
            t,
            'PUT',
            `/private/back-office/client/${victim.clientId}/status`,
            { status: 2 },
            {
              token: victim.token,
            },
          )
        ).status,
      ).toBe(403)
    })
  })

  describe('single-link login', () => {
    async function issue(clientId: number) {
      const answer = await call<{ leadId: string; path: string; expiresAt: string }>(
        t,
        'POST',
        `/private/back-office/client/${clientId}/single-link`,
        undefined,
        { token: admin },
      )
      expect(answer.status).toBe(201)
      return answer.body.data
    }

    it('token + SMS code open a my-loan-only session; the token is single use', async () => {
      const owner = await signUp(t)
      const link = await issue(owner.clientId)
      expect(link.path).toBe(`/affiliate/sleeper-otp?lead_id=${link.leadId}`)
      const [stored] = await t.database.db
        .select()
        .from(singleLinkToken)
        .where(eq(singleLinkToken.clientId, owner.clientId))
      expect(stored!.tokenHash).not.toContain(link.leadId)
      expect(stored!.issuedBy).toBe(adminId)

      const otp = await later(t, 61_000, () =>
        call(t, 'POST', '/public/affiliates/leads/otp', { leadId: link.leadId, captchaToken: 'ok' }),
      )
      expect(otp.status).toBe(200)
      expect(otp.body.data.to).toBe(`*******${owner.phone.slice(-4)}`)
      const code = await lastCode(t, owner.phone, 'single_link')

      const wrong = await call(t, 'POST', '/public/affiliates/leads/otp/login', {
        leadId: link.leadId,
        code: code === '000' ? '001' : '000',
      })
      expect(wrong.status).toBe(422)
      const answer = await call<{ singleLink: boolean }>(t, 'POST', '/public/affiliates/leads/otp/login', {
        leadId: link.leadId,
        code,
      })
      expect(answer.status).toBe(200)
      expect(answer.body.data.singleLink).toBe(true)
      const token = tokenOf(answer)
      const claims = await verifyToken(t.secrets.jwtSecret, token)
      expect(claims.ok && claims.claims.sl).toBe(true)

      expect((await call(t, 'GET', '/private/client', undefined, { token })).status).toBe(403)
      expect((await call(t, 'POST', '/private/client/phone/sms-code', undefined, { token })).status).toBe(403)
      expect((await call(t, 'GET', '/private/client/token/refresh', undefined, { token })).status).toBe(200)

      // Used up: neither a new code nor a second login.
      const reuse = await call(t, 'POST', '/public/affiliates/leads/otp', {
        leadId: link.leadId,
        captchaToken: 'ok',
      })
      expect(reuse.status).toBe(404)
      expect(reuse.body.response.code).toBe('linkInvalid')
      expect((await call(t, 'POST', '/private/client/logout', undefined, { token })).status).toBe(200)
      expect((await call(t, 'GET', '/private/client/token/refresh', undefined, { token })).status).toBe(401)
    })

    it('refuses unknown and expired tokens, and blocked clients', async () => {
      const unknown = await call(t, 'POST', '/public/affiliates/leads/otp', {
        leadId: 'x'.repeat(43),
        captchaToken: 'ok',
      })
      expect(unknown.status).toBe(404)
      expect(
        (await call(t, 'POST', '/public/affiliates/leads/otp', { leadId: 'short', captchaToken: 'ok' }))
          .status,
      ).toBe(400)

      const owner = await signUp(t)
      const link = await issue(owner.clientId)
      const expired = await later(t, 73 * 3600_000, () =>
        call(t, 'POST', '/public/affiliates/leads/otp', { leadId: link.leadId, captchaToken: 'ok' }),
      )
      expect(expired.status).toBe(404)

      await t.database.db.update(client).set({ status: 2 }).where(eq(client.id, owner.clientId))
      const blocked = await call(t, 'POST', '/public/affiliates/leads/otp', {
        leadId: link.leadId,
        captchaToken: 'ok',
      })
      expect(blocked.status).toBe(403)
    })

    it('only back-office users issue links', async () => {
      const answer = await call(
        t,
        'POST',
        `/private/back-office/client/${client1.clientId}/single-link`,
        undefined,
        {
          token: client1.token,
        },
      )
      expect(answer.status).toBe(403)
      expect(
        (await call(t, 'POST', '/private/back-office/client/999999/single-link', undefined, { token: admin }))
          .status,
      ).toBe(404)
    })
  })
})
