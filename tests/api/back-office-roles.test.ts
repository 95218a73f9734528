/**
 * Issue 19 item 1: every back-office route, called by every role, is allowed or refused exactly as the one table
 * (domain/back-office/roles.ts) says, and every refused attempt is in the audit trail. A route is "allowed" when
 * the answer is anything but the role's 403 (`roleNotAllowed`): the input here is deliberately empty, so an allowed
 * call usually stops at validation (400) or at a missing row (404), which is the point, it got past the check.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mayDo, permissions, roles } from '../../domain/back-office/roles'
import { pathOf } from '../../domain/contract/define'
import { auditEntry } from '../../server/db/schema-audit'
import { allRoutes } from '../../server/http/routes'
import { createTestApp } from '../support/app'
import { staffMember } from '../support/staff'
import { call, type TestApp } from './identity-helpers'

const backOffice = allRoutes.map((route) => route.contract).filter((contract) => contract.access === 'user')
const spec = (contract: (typeof backOffice)[number]) =>
  `${contract.method.toUpperCase()} /web${contract.path.replace(/:(\w+)/g, '{$1}')}`

describe('back-office roles, route by route', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  it('every back-office route names a permission of the table', () => {
    const unnamed = backOffice.filter((contract) => !contract.permission).map(spec)
    expect(unnamed).toEqual([])
    for (const contract of backOffice) expect(permissions).toContain(contract.permission)
    // Sanity: the walk below covers the back office, not a handful of routes.
    expect(backOffice.length).toBeGreaterThan(30)
  })

  it('each role is allowed exactly the routes its permissions name, and refused the rest', async () => {
    const mismatches: string[] = []
    let refusedCount = 0
    for (const role of roles) {
      for (const contract of backOffice) {
        // A fresh session per call: an allowed logout must not end the next call's session.
        const staff = await staffMember(t, role)
        const params = Object.fromEntries(
          [...contract.path.matchAll(/:(\w+)/g)].map(([, name]) => [
            name!,
            name === 'key' ? 'pricing' : 999_999,
          ]),
        )
        const body = contract.method === 'get' ? undefined : {}
        const answer = await call(t, contract.method.toUpperCase(), pathOf(contract, params), body, {
          token: staff.token,
        })
        const refused = answer.status === 403 && answer.body.response?.code === 'roleNotAllowed'
        const expected = mayDo([role], contract.permission!)
        if (refused === expected) mismatches.push(`${role} ${spec(contract)}: ${answer.status}`)
        if (answer.status >= 500) mismatches.push(`${role} ${spec(contract)}: ${answer.status} (a 5xx)`)
        if (refused) {
          refusedCount += 1
          const [entry] = await t.database.db
            .select()
            .from(auditEntry)
            .where(and(eq(auditEntry.userId, staff.id), eq(auditEntry.outcome, 'refused')))
          if (entry?.call !== spec(contract))
            mismatches.push(`${role} ${spec(contract)}: refusal not audited`)
        }
      }
    }
    expect(mismatches).toEqual([])
    // The auditor reads and never writes; the administrator is refused nothing.
    expect(refusedCount).toBeGreaterThan(backOffice.length)
  }, 240_000)

  it('a user with no role, or a role the table does not know, may do nothing at all', async () => {
    const nobody = await staffMember(t)
    const refresh = await call(t, 'GET', '/private/back-office/token/refresh', undefined, {
      token: nobody.token,
    })
    expect(refresh.status).toBe(403)
    expect(refresh.body.response.code).toBe('roleNotAllowed')
    expect(mayDo(['superuser'], 'session')).toBe(false)
  })

  it('the auditor reads the trail and can change nothing; an administrator is refused nothing', () => {
    for (const contract of backOffice) {
      if (contract.method !== 'get')
        expect(mayDo(['auditor'], contract.permission!), spec(contract)).toBe(
          contract.permission === 'session',
        )
      expect(mayDo(['administrator'], contract.permission!)).toBe(true)
    }
  })
})
