/**
 * Security properties that must fail loudly if broken: code guessing, token forgery and reuse, cross-account
 * access, blocked clients, session revocation, and secrets in logs.
 */
import { eq } from 'drizzle-orm'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signToken } from '../../server/auth/tokens'
import { client, verificationCode } from '../../server/db/schema-identity'
import { allRoutes } from '../../server/http/routes'
import { identityRoutes } from '../../server/http/routes/identity'
import { CODE_MAX_WRONG } from '../../server/services/identity/codes'
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
  newPhone,
  PASSWORD,
  type SignedUp,
  signUp,
  type TestApp,
  tokenOf,
  verifiedClient,
} from './identity-helpers'

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** Every declared route of one access kind, with placeholder path parameters. */
const routesOf = (
  access: 'client' | 'user',
  filter: (r: (typeof allRoutes)[number]['contract']) => boolean = () => true,
) =>
  allRoutes
    .map((r) => r.contract)
    .filter((r) => r.access === access && filter(r))
    .map((r) => ({
      method: r.method.toUpperCase(),
      path: r.path.replace(/:(\w+)/g, '1'),
      multipart: r.bodyType === 'multipart',
    }))

/** What a browser's upload form sends: multipart with a small file (a JSON body there is a 415, unread). */
async function uploadStatus(t: TestApp, method: string, path: string, token: string) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' }), 'id.jpg')
  const res = await t.request(`/web${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  return res.status
}

async function statusesOn(
  t: TestApp,
  routes: { method: string; path: string; multipart: boolean }[],
  token: string,
) {
  const answers: string[] = []
  for (const route of routes) {
    const status = route.multipart
      ? await uploadStatus(t, route.method, route.path, token)
      : (await call(t, route.method, route.path, route.method === 'GET' ? undefined : {}, { token })).status
    answers.push(`${route.method} ${route.path} ${status}`)
  }
  return answers
}

describe('identity security', () => {
  let t: TestApp
  let alice: SignedUp
  let bob: SignedUp
  let adminToken: string
  beforeAll(async () => {
    t = await createTestApp()
    alice = await verifiedClient(t)
    bob = await verifiedClient(t)
    await seedFirstUser(t.database.db, { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD })
    const pending = tokenOf(
      await call(t, 'POST', '/public/user/login', {
        email: DEFAULT_ADMIN_EMAIL,
        password: DEFAULT_ADMIN_PASSWORD,
        captchaToken: 'ok',
        deviceId: 'sec-admin-device',
      }),
    )
    const code = await lastCode(t, DEFAULT_ADMIN_EMAIL, 'login_mfa')
    adminToken = tokenOf(await call(t, 'POST', '/public/user/login/mfa', { code }, { token: pending }))
  })
  afterAll(() => t.close())

  it('1,000 guesses never verify a number: after 3 wrong tries the code is dead', async () => {
    const victim = await signUp(t)
    const real = await lastCode(t, victim.phone, 'phone_verify')
    const verify = (code: string) =>
      call(t, 'POST', '/private/client/phone/verify', { code }, { token: victim.token })
    const wrongs = ['000', '001', '002', '003'].filter((c) => c !== real).slice(0, CODE_MAX_WRONG)
    for (const wrong of wrongs) {
      expect((await verify(wrong)).body.response.message).toBe('Phone verification not passed')
    }
    const messages = new Set<string>()
    for (let n = 0; n < 1000; n++) {
      const answer = await verify(String(n).padStart(3, '0'))
      expect(answer.status).not.toBe(200)
      messages.add(String(answer.body.response.message))
    }
    // The real code among them too: dead is dead.
    expect([...messages]).toEqual(['Code not found by given identity'])
    const [row] = await t.database.db.select().from(client).where(eq(client.id, victim.clientId))
    expect(row!.phoneVerifiedAt).toBeNull()
    const codes = await t.database.db
      .select()
      .from(verificationCode)
      .where(eq(verificationCode.target, victim.phone))
    expect(codes).toHaveLength(1)
    expect(codes[0]!.attempts).toBe(CODE_MAX_WRONG)
    expect(codes[0]!.invalidatedAt).not.toBeNull()
    expect(codes[0]!.consumedAt).toBeNull()
    // And a new code cannot be had straight away.
    const resend = await call(t, 'POST', '/private/client/phone/sms-code', undefined, { token: victim.token })
    expect(resend.body.response.code).toBe('codeMinuteLimit')
  }, 60_000)

  describe('tokens', () => {
    it('refuses a token with alg none', async () => {
      const claims = JSON.parse(Buffer.from(alice.token.split('.')[1]!, 'base64url').toString())
      const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`
      expect((await call(t, 'GET', '/private/client', undefined, { token: none })).status).toBe(401)
    })

    it('refuses a forged signature, a tampered payload and another algorithm', async () => {
      const [header, payload] = alice.token.split('.')
      const forged = await signToken(new TextEncoder().encode('x'.repeat(48)), {
        sid: JSON.parse(Buffer.from(payload!, 'base64url').toString()).sid,
        sub: String(alice.clientId),
        type: 'client',
        mfa: false,
        sl: false,
      })
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
      const tampered = `${header}.${b64({ ...claims, sub: String(bob.clientId) })}.${alice.token.split('.')[2]}`
      const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(t.secrets.jwtSecret)
      for (const token of [forged, tampered, hs512, 'not.a.token']) {
        const answer = await call(t, 'GET', '/private/client', undefined, { token })
        expect(answer.status).toBe(401)
        expect(answer.body.response.message).toBe('Invalid token.')
      }
    })

    it('refuses an expired token (15 minutes), and a token pointing at another subject', async () => {
      const expired = await later(t, 16 * 60_000, () =>
        call(t, 'GET', '/private/client', undefined, { token: alice.token }),
      )
      expect(expired.status).toBe(401)
      expect(expired.body.response.message).toBe('The session has expired.')
      // Alice's session id with Bob as subject, signed with the real key: the session row disagrees.
      const claims = JSON.parse(Buffer.from(alice.token.split('.')[1]!, 'base64url').toString())
      const mixed = await signToken(t.secrets.jwtSecret, {
        sid: claims.sid,
        sub: String(bob.clientId),
        type: 'client',
        mfa: false,
        sl: false,
      })
      expect((await call(t, 'GET', '/private/client', undefined, { token: mixed })).status).toBe(401)
    })

    it('refuses a revoked session (after logout) even though the token has not expired', async () => {
      const token = tokenOf(await login(t, alice.phone, PASSWORD, { deviceId: alice.deviceId }))
      expect((await call(t, 'POST', '/private/client/logout', undefined, { token })).status).toBe(200)
      const after = await call(t, 'GET', '/private/client', undefined, { token })
      expect(after.status).toBe(401)
      expect((await call(t, 'GET', '/private/client/token/refresh', undefined, { token })).status).toBe(401)
    })

    it('a client token gets 403 on every back-office route', async () => {
      const routes = routesOf('user')
      expect(routes.length).toBeGreaterThanOrEqual(6)
      const answers = await statusesOn(t, routes, alice.token)
      expect(answers.filter((a) => !a.endsWith(' 403'))).toEqual([])
    })

    it('a user token gets 403 on every client route', async () => {
      const routes = routesOf('client')
      expect(routes.length).toBeGreaterThanOrEqual(15)
      // Uploads are refused for who is calling, not for what was sent: they get a proper multipart body.
      expect(routes.filter((r) => r.multipart).length).toBeGreaterThanOrEqual(3)
      const answers = await statusesOn(t, routes, adminToken)
      expect(answers.filter((a) => !a.endsWith(' 403'))).toEqual([])
    })

    it('a pending-second-factor token gets 401 everywhere but the completion and logout', async () => {
      const pending = tokenOf(
        await login(t, alice.phone, PASSWORD, { captchaToken: 'sandbox-risky', deviceId: alice.deviceId }),
      )
      const routes = routesOf('client', (r) => !r.mfaPending)
      const answers = await statusesOn(t, routes, pending)
      expect(answers.filter((a) => !a.endsWith(' 401'))).toEqual([])
    })

    it('a single-link session gets 403 on every client route not marked singleLink', async () => {
      const link = await call<{ leadId: string }>(
        t,
        'POST',
        `/private/back-office/client/${bob.clientId}/single-link`,
        undefined,
        { token: adminToken },
      )
      const { leadId } = link.body.data
      await later(t, 61_000, () =>
        call(t, 'POST', '/public/affiliates/leads/otp', { leadId, captchaToken: 'ok' }),
      )
      const code = await lastCode(t, bob.phone, 'single_link')
      const single = tokenOf(await call(t, 'POST', '/public/affiliates/leads/otp/login', { leadId, code }))
      const routes = routesOf('client', (r) => !r.singleLink)
      const answers = await statusesOn(t, routes, single)
      expect(answers.filter((a) => !a.endsWith(' 403'))).toEqual([])
    })
  })

  describe('one client cannot reach another', () => {
    it("every private client call acts on the token's own client: no identity route takes a client id", async () => {
      const me = await call(t, 'GET', '/private/client', undefined, { token: alice.token })
      expect(me.body.data.id).toBe(alice.clientId)
      expect(JSON.stringify(me.body.data)).not.toContain(bob.phone)
      expect(JSON.stringify(me.body.data)).not.toContain(bob.email)
      const clientRoutes = identityRoutes.map((r) => r.contract).filter((r) => r.access === 'client')
      expect(clientRoutes.length).toBeGreaterThan(10)
      expect(clientRoutes.filter((r) => r.path.includes(':')).map((r) => r.path)).toEqual([])
    })

    it("A cannot use a code sent for B, nor take B's number or e-mail", async () => {
      const carol = await signUp(t)
      const dave = await signUp(t)
      // Dave's sign-up code, typed into Carol's session, is not Carol's code.
      const daveCode = await lastCode(t, dave.phone, 'phone_verify')
      const cross = await call(
        t,
        'POST',
        '/private/client/phone/verify',
        { code: daveCode },
        { token: carol.token },
      )
      expect(cross.status).toBe(422)

      // Dave asks to move to a new number; Carol, holding the code, cannot take that number with it.
      const target = newPhone()
      await call(
        t,
        'POST',
        '/private/client/change/phone/send-code',
        { mobilePhone: { number: target } },
        {
          token: dave.token,
        },
      )
      const code = await lastCode(t, target, 'change_phone')
      const steal = await call(
        t,
        'PUT',
        '/private/client/change/phone',
        { mobilePhone: { number: target }, code },
        {
          token: carol.token,
        },
      )
      expect(steal.status).toBe(422)
      expect(steal.body.response.message).toBe('Code not found by given identity')
      expect(
        (
          await call(
            t,
            'PUT',
            '/private/client/change/phone',
            { mobilePhone: { number: target }, code },
            {
              token: dave.token,
            },
          )
        ).status,
      ).toBe(200)

      const takePhone = await call(
        t,
        'POST',
        '/private/client/change/phone/send-code',
        { mobilePhone: { number: bob.phone } },
        { token: carol.token },
      )
      expect(takePhone.body.response.violations?.[0]?.message).toBe('phone-error-taken')
      const takeEmail = await call(
        t,
        'POST',
        '/private/client/change/email/send-code',
        { email: bob.email },
        {
          token: carol.token,
        },
      )
      expect(takeEmail.body.response.violations?.[0]?.message).toBe('email-error-taken')
    })

    it("A's logout, password change and blocking leave B's sessions alone", async () => {
      const erin = await verifiedClient(t)
      const frank = await verifiedClient(t)
      await call(t, 'POST', '/private/client/logout', undefined, { token: erin.token })
      const erin2 = tokenOf(await login(t, erin.phone, PASSWORD, { deviceId: erin.deviceId }))
      await call(
        t,
        'POST',
        '/private/client/change/password',
        { oldPassword: PASSWORD, password: 'another1', passwordRepeat: 'another1' },
        { token: erin2 },
      )
      await call(
        t,
        'PUT',
        `/private/back-office/client/${erin.clientId}/status`,
        { status: 2 },
        { token: adminToken },
      )
      const stillFrank = await call(t, 'GET', '/private/client', undefined, { token: frank.token })
      expect(stillFrank.status).toBe(200)
      expect(stillFrank.body.data.id).toBe(frank.clientId)
    })
  })

  describe('blocked clients and revocation', () => {
    it('a blocked client (status 2) gets 403 on every private call, and cannot log in', async () => {
      const gina = await verifiedClient(t)
      // Blocked by another part of the system (collections, fraud) while the session lives.
      await t.database.db.update(client).set({ status: 2 }).where(eq(client.id, gina.clientId))
      const routes = routesOf('client', (r) => !r.mfaPending)
      const answers = await statusesOn(t, routes, gina.token)
      expect(answers.filter((a) => !a.endsWith(' 403'))).toEqual([])
      const answer = await call(t, 'GET', '/private/client', undefined, { token: gina.token })
      expect(answer.body.response.message).toBe('The account is blocked.')
      expect((await login(t, gina.phone, PASSWORD, { deviceId: gina.deviceId })).status).toBe(403)
    })

    it('a password change ends the other sessions; blocking ends all of them', async () => {
      const hank = await verifiedClient(t)
      const phoneSession = tokenOf(await login(t, hank.phone, PASSWORD, { deviceId: hank.deviceId }))
      const change = await call(
        t,
        'POST',
        '/private/client/change/password',
        { oldPassword: PASSWORD, password: 'changed1', passwordRepeat: 'changed1' },
        { token: hank.token },
      )
      expect(change.status).toBe(200)
      expect((await call(t, 'GET', '/private/client', undefined, { token: phoneSession })).status).toBe(401)
      expect((await call(t, 'GET', '/private/client', undefined, { token: hank.token })).status).toBe(200)

      await call(
        t,
        'PUT',
        `/private/back-office/client/${hank.clientId}/status`,
        { status: 2 },
        { token: adminToken },
      )
      expect((await call(t, 'GET', '/private/client', undefined, { token: hank.token })).status).toBe(401)
    })
  })

  it('a full sign-up, verify, login, refresh and logout logs no password, code, token, phone or e-mail', async () => {
    const logged = await createTestApp()
    try {
      const password = 'Zq7logcheck9'
      const phone = newPhone()
      const email = 'log.check.person@example.ph'
      const deviceId = 'log-check-device-01'
      const up = await call(
        logged,
        'POST',
        '/public/client',
        {
          mobilePhone: { number: phone },
          email,
          password,
          passwordRepeat: password,
          consents: { terms: true, privacy: true },
          captchaToken: 'ok',
          deviceId,
        },
        { address: newAddress() },
      )
      expect(up.status).toBe(201)
      const tokens = [tokenOf(up)]
      const codes = [await lastCode(logged, phone, 'phone_verify')]
      await call(logged, 'GET', `/public/client/check/phone/${phone}`)
      await call(logged, 'GET', `/public/client/check/email/${email}`)
      expect(
        (await call(logged, 'POST', '/private/client/phone/verify', { code: codes[0] }, { token: tokens[0] }))
          .status,
      ).toBe(200)
      const wrong = await login(logged, phone, `${password}x`, { deviceId })
      expect(wrong.status).toBe(401)
      const risky = await later(logged, 61_000, () =>
        login(logged, email, password, { captchaToken: 'sandbox-risky', deviceId }),
      )
      tokens.push(tokenOf(risky))
      codes.push(await lastCode(logged, phone, 'login_mfa'))
      const full = await call(
        logged,
        'POST',
        '/public/client/login/mfa',
        { code: codes[1] },
        { token: tokens[1] },
      )
      expect(full.status).toBe(200)
      tokens.push(tokenOf(full))
      const refreshed = await later(logged, 1000, () =>
        call(logged, 'GET', '/private/client/token/refresh', undefined, { token: tokens[2] }),
      )
      tokens.push(tokenOf(refreshed))
      expect(
        (await call(logged, 'POST', '/private/client/logout', undefined, { token: tokens[3] })).status,
      ).toBe(200)

      const raw = logged.rawLogs()
      expect(logged.logs().length).toBeGreaterThan(8)
      for (const secret of [password, `${password}x`, phone, email, deviceId, ...tokens]) {
        expect(raw).not.toContain(secret)
      }
      // Codes are 3 digits: drop the fields made of digits by nature (times, ids, statuses, durations) and look
      // for each code as a whole number in what is left.
      const volatile = ['requestId', 'time', 'ms', 'pid', 'status', 'clientId', 'userId', 'level', 'hostname']
      const text = JSON.stringify(
        logged
          .logs()
          .map((line) => Object.fromEntries(Object.entries(line).filter(([k]) => !volatile.includes(k)))),
      )
      expect(text).toContain('request')
      for (const code of codes) expect(text).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`))
      for (const token of tokens) expect(raw).not.toContain(token.split('.')[2]!)
    } finally {
      await logged.close()
    }
  })
})
