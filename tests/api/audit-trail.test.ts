/**
 * Issue 19 item 2: the audit trail. Every back-office route that writes leaves an entry for every call (done,
 * failed or refused), a real change carries the values before and after, the trail is searchable per client, per
 * user and per Manila date, an auditor reads it, and nobody (not even SQL from our own code) can change it.
 */
import { desc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pathOf } from '../../domain/contract/define'
import { manilaDate } from '../../domain/pricing/manila-date'
import { auditEntry } from '../../server/db/schema-audit'
import { client } from '../../server/db/schema-identity'
import { allRoutes } from '../../server/http/routes'
import { createTestApp } from '../support/app'
import { staffMember } from '../support/staff'
import { call, type TestApp } from './identity-helpers'

const writing = allRoutes
  .map((route) => route.contract)
  .filter((contract) => contract.access === 'user' && contract.method !== 'get')
const spec = (contract: (typeof writing)[number]) =>
  `${contract.method.toUpperCase()} /web${contract.path.replace(/:(\w+)/g, '{$1}')}`

describe('audit trail', () => {
  let t: TestApp
  let clientId: number
  beforeAll(async () => {
    t = await createTestApp()
    const [row] = await t.database.db
      .insert(client)
      .values({ phone: '09170000019', email: 'audit.subject@example.ph', passwordHash: 'x' })
      .returning({ id: client.id })
    clientId = row!.id
  })
  afterAll(() => t.close())

  it('every back-office route that writes leaves an entry for the call, whatever its outcome', async () => {
    const missing: string[] = []
    for (const contract of writing) {
      const staff = await staffMember(t, 'administrator')
      const params = Object.fromEntries(
        [...contract.path.matchAll(/:(\w+)/g)].map(([, name]) => [
          name!,
          name === 'key' ? 'pricing' : 999_999,
        ]),
      )
      const answer = await call(
        t,
        contract.method.toUpperCase(),
        pathOf(contract, params),
        {},
        { token: staff.token },
      )
      const entries = await t.database.db.select().from(auditEntry).where(eq(auditEntry.userId, staff.id))
      const expected = answer.status < 400 ? 'done' : 'failed'
      if (!entries.some((entry) => entry.call === spec(contract) && entry.outcome === expected))
        missing.push(`${spec(contract)} (${answer.status}): no ${expected} entry`)
      for (const entry of entries) {
        if (entry.permission !== contract.permission)
          missing.push(`${spec(contract)}: permission ${entry.permission}`)
        if (JSON.stringify(entry.request).includes('"password":"'))
          missing.push(`${spec(contract)}: a secret`)
      }
    }
    expect(missing).toEqual([])
    expect(writing.length).toBeGreaterThan(15)
  }, 120_000)

  it('a real change has who, when, which device, what, and the values before and after', async () => {
    const support = await staffMember(t, 'support')
    const blocked = await call(
      t,
      'PUT',
      `/private/back-office/client/${clientId}/status`,
      { status: 2 },
      {
        token: support.token,
      },
    )
    expect(blocked.status).toBe(200)
    const [entry] = await t.database.db
      .select()
      .from(auditEntry)
      .where(eq(auditEntry.userId, support.id))
      .orderBy(desc(auditEntry.id))
    expect(entry).toMatchObject({
      call: 'PUT /web/private/back-office/client/{id}/status',
      permission: 'clients.status',
      outcome: 'done',
      entity: 'client',
      entityId: String(clientId),
      clientId,
      request: { params: { id: clientId }, body: { status: 2 } },
    })
    expect(entry!.sessionId).toBeTruthy()
    expect((entry!.before as { status: number }).status).toBe(1)
    expect((entry!.after as { status: number }).status).toBe(2)
    // The client's password hash never reaches the trail.
    expect(entry!.before).not.toHaveProperty('password_hash')
    await call(
      t,
      'PUT',
      `/private/back-office/client/${clientId}/status`,
      { status: 1 },
      { token: support.token },
    )
  })

  it('is searchable per client, per user and per Manila date, read by an auditor and refused to support', async () => {
    const auditor = await staffMember(t, 'auditor')
    const support = await staffMember(t, 'support')
    await call(
      t,
      'PUT',
      `/private/back-office/client/${clientId}/status`,
      { status: 1 },
      { token: support.token },
    )
    const perClient = await call<{ clientId: number; userId: number }[]>(
      t,
      'GET',
      `/private/back-office/audit?clientId=${clientId}&perPage=5`,
      undefined,
      { token: auditor.token },
    )
    expect(perClient.status).toBe(200)
    expect(perClient.res.headers.get('x-total-count')).toBeTruthy()
    expect(perClient.body.data.length).toBeGreaterThanOrEqual(3)
    expect(perClient.body.data.every((entry) => entry.clientId === clientId)).toBe(true)
    expect(perClient.body.data[0]!.userId).toBe(support.id)

    const perUser = await call<{ userId: number }[]>(
      t,
      'GET',
      `/private/back-office/audit?userId=${support.id}`,
      undefined,
      { token: auditor.token },
    )
    expect(perUser.body.data.map((entry) => entry.userId)).toEqual([support.id])

    const today = manilaDate(new Date())
    const dated = await call<unknown[]>(
      t,
      'GET',
      `/private/back-office/audit?from=${today}&to=${today}`,
      undefined,
      {
        token: auditor.token,
      },
    )
    expect(dated.body.data.length).toBeGreaterThan(0)
    const yesterday = await call<unknown[]>(
      t,
      'GET',
      '/private/back-office/audit?from=2020-01-01&to=2020-01-02',
      undefined,
      {
        token: auditor.token,
      },
    )
    expect(yesterday.body.data).toEqual([])

    const refused = await call(t, 'GET', '/private/back-office/audit', undefined, { token: support.token })
    expect(refused.status).toBe(403)
    expect(refused.body.response.code).toBe('roleNotAllowed')
  })

  it('is append-only: an update, a delete or a truncate is refused by the database itself', async () => {
    const db = t.database.db
    const [first] = await db.select({ id: auditEntry.id }).from(auditEntry).limit(1)
    await expect(
      db.update(auditEntry).set({ outcome: 'done' }).where(eq(auditEntry.id, first!.id)),
    ).rejects.toThrow()
    await expect(db.delete(auditEntry).where(eq(auditEntry.id, first!.id))).rejects.toThrow()
    await expect(db.execute(sql`truncate audit_entry`)).rejects.toThrow()
    const [still] = await db
      .select({ id: auditEntry.id })
      .from(auditEntry)
      .where(eq(auditEntry.id, first!.id))
    expect(still?.id).toBe(first!.id)
  })
})
