/**
 * Issue 20 item 1, the back office's sandbox switches (domain/contract/sandbox-mode.ts, docs/decisions/0039): the
 * instance's sandbox mode and one client's, read and set with the `sandbox` permission only, each change audited
 * with its values before and after; what they do (GET /public/environment `sandboxMode`, the client's profile
 * `sandbox`, the public panel routes without the QA cookie); the client's own panel route, refused without any
 * grant and allowed by each (the QA cookie, the instance's switch, the client's), which puts the logged-in client
 * in a state from where they stand; and a production server without the sandbox switch, where all of it is absent
 * and every switch reads "off" whatever is stored. PGlite, and PostgreSQL with DATABASE_URL.
 */
import { and, desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { roles } from '../../domain/back-office/roles'
import type { ActiveLoan } from '../../domain/contract/lending-answers'
import type { ClientSandboxMode, SandboxMode } from '../../domain/contract/sandbox-mode'
import type { QaScenarioOutcome } from '../../domain/contract/sandbox-qa'
import type { Environment } from '../../domain/environment'
import { SANDBOX_COOKIE } from '../../domain/journey/routing'
import { scenarioNames } from '../../domain/sandbox/scenarios'
import { auditEntry } from '../../server/db/schema-audit'
import { createTestApp } from '../support/app'
import { useRealProviders } from '../support/real-providers'
import { type Staff, staffMember } from '../support/staff'
import { call, type TestApp, tokenOf, verifiedClient } from './identity-helpers'
import { seedSmallPsgc } from './journey-helpers'

const INSTANCE = '/private/back-office/sandbox/mode'
const clientMode = (id: number) => `/private/back-office/client/${id}/sandbox-mode`
const CLIENT_SCENARIOS = '/private/client/sandbox/scenarios'
const qa = { cookie: `${SANDBOX_COOKIE}=1` }
/** The overdue scenario, whatever its name's suffix (it takes the days). */
const OVERDUE = scenarioNames.find((name) => name.startsWith('loan-overdue'))!

describe('sandbox mode switched from the back office', () => {
  let t: TestApp
  let admin: Staff
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await staffMember(t, 'administrator')
  })
  afterAll(() => t.close())

  const setInstance = (enabled: boolean, token = admin.token) =>
    call<SandboxMode>(t, 'PUT', INSTANCE, { enabled }, { token })
  const setClient = (id: number, enabled: boolean, token = admin.token) =>
    call<ClientSandboxMode>(t, 'PUT', clientMode(id), { enabled }, { token })
  const environment = async () =>
    (await call<Environment>(t, 'GET', '/public/environment')).body.data.sandboxMode
  const profileSandbox = async (token: string) =>
    (await call<{ sandbox: boolean }>(t, 'GET', '/private/client', undefined, { token })).body.data.sandbox
  const entriesOf = (userId: number) =>
    t.database.db.select().from(auditEntry).where(eq(auditEntry.userId, userId)).orderBy(desc(auditEntry.id))

  /** A client the QA panel put at "ready to apply", with this browser's session. */
  async function readyClient() {
    const made = await call<QaScenarioOutcome>(
      t,
      'POST',
      '/public/sandbox/scenarios/journey-ready-to-apply',
      {},
      { headers: qa },
    )
    expect(made.status, JSON.stringify(made.body.response)).toBe(201)
    return { id: made.body.data.clientId, token: tokenOf(made) }
  }

  it('only the `sandbox` permission reads or sets a switch', async () => {
    const { clientId } = await verifiedClient(t)
    for (const role of roles) {
      const staff = await staffMember(t, role)
      const answers = [
        await call(t, 'GET', INSTANCE, undefined, { token: staff.token }),
        await call(t, 'PUT', INSTANCE, { enabled: false }, { token: staff.token }),
        await call(t, 'GET', clientMode(clientId), undefined, { token: staff.token }),
        await call(t, 'PUT', clientMode(clientId), { enabled: false }, { token: staff.token }),
      ]
      const allowed = role === 'administrator'
      for (const answer of answers) {
        expect(answer.status, `${role}: ${JSON.stringify(answer.body.response)}`).toBe(allowed ? 200 : 403)
        if (!allowed) expect(answer.body.response.code).toBe('roleNotAllowed')
      }
    }
    const bad = await call(t, 'PUT', INSTANCE, { enabled: 'yes' }, { token: admin.token })
    expect(bad.status).toBe(400)
  })

  it("the instance's switch: audited before and after, in the environment answer, and the panel needs no cookie", async () => {
    expect(await environment()).toBe(false)
    const list = () => call(t, 'GET', '/public/sandbox/scenarios')
    expect((await list()).status).toBe(403)

    const on = await setInstance(true)
    expect(on.status, JSON.stringify(on.body.response)).toBe(200)
    expect(on.body.data).toMatchObject({ enabled: true, changedBy: { id: admin.id, email: admin.email } })
    expect(Date.parse(on.body.data.changedAt!)).toBeGreaterThan(Date.now() - 60_000)
    const read = await call<SandboxMode>(t, 'GET', INSTANCE, undefined, { token: admin.token })
    expect(read.body.data).toEqual(on.body.data)
    const [entry] = await entriesOf(admin.id)
    expect(entry).toMatchObject({
      call: 'PUT /web/private/back-office/sandbox/mode',
      permission: 'sandbox',
      outcome: 'done',
      entity: 'sandbox_instance_mode',
      entityId: '1',
      request: { body: { enabled: true } },
    })
    expect((entry!.after as SandboxMode).enabled).toBe(true)
    expect(entry!.before).toHaveProperty('enabled')
    // One entry per change: the service's own, not a second generic one.
    const forCall = (await entriesOf(admin.id)).filter((e) => e.requestId === entry!.requestId)
    expect(forCall).toHaveLength(1)

    expect(await environment()).toBe(true)
    expect((await list()).status).toBe(200)

    const off = await setInstance(false)
    expect(off.body.data.enabled).toBe(false)
    const [offEntry] = await entriesOf(admin.id)
    expect(offEntry).toMatchObject({ outcome: 'done', entity: 'sandbox_instance_mode' })
    expect((offEntry!.before as SandboxMode).enabled).toBe(true)
    expect((offEntry!.after as SandboxMode).enabled).toBe(false)
    expect(await environment()).toBe(false)
    expect((await list()).status).toBe(403)
  })

  it("a client's switch: 404 for an unknown client, audited with the client, in the client's profile", async () => {
    const unknown = await setClient(999_999_999, true)
    expect(unknown.status).toBe(404)
    const [failed] = await entriesOf(admin.id)
    expect(failed).toMatchObject({
      outcome: 'failed',
      call: 'PUT /web/private/back-office/client/{id}/sandbox-mode',
    })
    expect((await call(t, 'GET', clientMode(999_999_999), undefined, { token: admin.token })).status).toBe(
      404,
    )

    const client = await verifiedClient(t)
    expect(await profileSandbox(client.token)).toBe(false)
    const never = await call<ClientSandboxMode>(t, 'GET', clientMode(client.clientId), undefined, {
      token: admin.token,
    })
    expect(never.body.data).toEqual({
      clientId: client.clientId,
      enabled: false,
      changedBy: null,
      changedAt: null,
    })

    const on = await setClient(client.clientId, true)
    expect(on.status, JSON.stringify(on.body.response)).toBe(200)
    expect(on.body.data).toMatchObject({
      clientId: client.clientId,
      enabled: true,
      changedBy: { id: admin.id },
    })
    const [entry] = await entriesOf(admin.id)
    expect(entry).toMatchObject({
      call: 'PUT /web/private/back-office/client/{id}/sandbox-mode',
      permission: 'sandbox',
      outcome: 'done',
      entity: 'client_sandbox_mode',
      entityId: String(client.clientId),
      clientId: client.clientId,
    })
    expect((entry!.before as SandboxMode).enabled).toBe(false)
    expect((entry!.after as SandboxMode).enabled).toBe(true)
    expect(await profileSandbox(client.token)).toBe(true)
    // The instance's switch is another thing.
    expect(await environment()).toBe(false)

    await setClient(client.clientId, false)
    expect(await profileSandbox(client.token)).toBe(false)
  })

  it("the client's panel route: refused without a grant, allowed by the QA cookie, the instance's or the client's switch", async () => {
    const client = await verifiedClient(t)
    const list = (headers: Record<string, string> = {}) =>
      call(t, 'GET', CLIENT_SCENARIOS, undefined, { token: client.token, headers })
    const none = await list()
    expect(none.status).toBe(403)
    expect(none.body.response.code).toBe('sandboxModeRequired')
    const running = await call(t, 'POST', `${CLIENT_SCENARIOS}/${OVERDUE}`, {}, { token: client.token })
    expect(running.status).toBe(403)
    expect(running.body.response.code).toBe('sandboxModeRequired')
    // Not a client route for a visitor.
    expect((await call(t, 'GET', CLIENT_SCENARIOS)).status).toBe(401)

    expect((await list(qa)).status).toBe(200)
    await setInstance(true)
    try {
      expect((await list()).status).toBe(200)
    } finally {
      await setInstance(false)
    }
    expect((await list()).status).toBe(403)
    await setClient(client.clientId, true)
    const mine = await list()
    expect(mine.status).toBe(200)
    expect((mine.body.data as unknown as { name: string }[]).map((s) => s.name)).toContain(OVERDUE)
    const unknown = await call(t, 'POST', `${CLIENT_SCENARIOS}/no-such-scenario`, {}, { token: client.token })
    expect(unknown.status).toBe(404)
    const badDays = await call(
      t,
      'POST',
      `${CLIENT_SCENARIOS}/${OVERDUE}`,
      { days: 0 },
      { token: client.token },
    )
    expect(badDays.status).toBe(400)
  })

  it('a client in sandbox mode puts themself 10 days overdue, on My loan; a state behind them is a 409', async () => {
    const client = await readyClient()
    await setClient(client.id, true)
    const answer = await call<QaScenarioOutcome>(
      t,
      'POST',
      `${CLIENT_SCENARIOS}/${OVERDUE}`,
      { days: 10 },
      { token: client.token },
    )
    expect(answer.status, JSON.stringify(answer.body.response)).toBe(201)
    expect(answer.body.data).toMatchObject({
      clientId: client.id,
      destination: '/profile/my-loan',
      loanState: 'active.on_terms.overdue',
      login: { password: null },
    })
    // The same session: no new token.
    expect(answer.res.headers.get('authorization')).toBeNull()
    const loan = await call<ActiveLoan>(t, 'GET', '/private/client/loan/active', undefined, {
      token: client.token,
    })
    expect(loan.status).toBe(200)
    expect(loan.body.data.repaymentInvoice.dueDays).toBe(-10)

    // Registration's first step is behind a client with a loan: it cannot be reached from there.
    const behind = await call(t, 'POST', `${CLIENT_SCENARIOS}/journey-details`, {}, { token: client.token })
    expect(behind.status, JSON.stringify(behind.body.response)).toBe(409)
  })

  it('is absent on a production server without the sandbox switch, and every switch reads off', async () => {
    const client = await readyClient()
    await setClient(client.id, true)
    await setInstance(true)
    const d = t.deps
    const restore = useRealProviders(d)
    try {
      const token = admin.token
      expect((await call(t, 'GET', INSTANCE, undefined, { token })).status).toBe(404)
      expect((await call(t, 'PUT', INSTANCE, { enabled: false }, { token })).status).toBe(404)
      expect((await call(t, 'GET', clientMode(client.id), undefined, { token })).status).toBe(404)
      expect((await call(t, 'PUT', clientMode(client.id), { enabled: false }, { token })).status).toBe(404)
      // The tables still say on; the server says off.
      expect(await environment()).toBe(false)
      expect(await profileSandbox(client.token)).toBe(false)
      const ran = await call(t, 'POST', `${CLIENT_SCENARIOS}/${OVERDUE}`, {}, { token: client.token })
      expect(ran.status).toBe(404)
      expect((await call(t, 'GET', CLIENT_SCENARIOS, undefined, { token: client.token })).status).toBe(404)
      expect((await call(t, 'GET', '/public/sandbox/scenarios')).status).toBe(404)
    } finally {
      restore()
      await setInstance(false)
    }
    // Back on a sandbox server, the stored switches count again.
    expect(await profileSandbox(client.token)).toBe(true)
    const failed = await t.database.db
      .select()
      .from(auditEntry)
      .where(and(eq(auditEntry.userId, admin.id), eq(auditEntry.outcome, 'failed')))
    expect(failed.some((e) => e.error === 'notFound:notFound')).toBe(true)
  })
})
