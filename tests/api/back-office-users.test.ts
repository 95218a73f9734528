/**
 * Issue 19 item 1: administrators manage back-office users. An invitation by e-mail carries a one-time link; the
 * invited user chooses a password, and their first login (a device never seen) asks for the e-mailed code. Roles
 * take effect on the next call; disabling ends every session; the last active administrator stays one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StaffUser } from '../../domain/contract/staff'
import { createTestApp } from '../support/app'
import { staffMember } from '../support/staff'
import { call, lastCode, outboxFor, type TestApp, tokenOf } from './identity-helpers'
import { adminToken } from './journey-helpers'

const linkToken = (body: string) => /token=([\w-]+)/.exec(body)?.[1] ?? ''

describe('back-office users', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await createTestApp()
    admin = await adminToken(t)
  })
  afterAll(() => t.close())

  const login = (email: string, password: string, deviceId = 'staff-laptop-0001') =>
    call<{ mfa: boolean }>(t, 'POST', '/public/user/login', { email, password, captchaToken: 'ok', deviceId })

  it('invites by e-mail; the link sets the password once; the first login asks for the e-mailed code', async () => {
    const invited = await call<StaffUser>(
      t,
      'POST',
      '/private/back-office/users',
      { email: 'Maria.Underwriter@hiram.local', name: 'Maria Santos', roles: ['underwriter'] },
      { token: admin },
    )
    expect(invited.status).toBe(201)
    expect(invited.body.data).toMatchObject({
      email: 'maria.underwriter@hiram.local',
      roles: ['underwriter'],
      active: true,
      invited: true,
    })
    const [mail] = await outboxFor(t, 'maria.underwriter@hiram.local', 'staff_invitation')
    const token = linkToken(mail!.body)
    expect(token.length).toBeGreaterThan(20)
    // No password yet: nothing logs in.
    expect((await login('maria.underwriter@hiram.local', 'anything1')).status).toBe(401)

    const accepted = await call(t, 'POST', '/public/user/invitation', { token, password: 'Underwrite26' })
    expect(accepted.status).toBe(200)
    const reused = await call(t, 'POST', '/public/user/invitation', { token, password: 'Another1' })
    expect(reused.status).toBe(404)
    expect(reused.body.response.code).toBe('invitationInvalid')

    const first = await login('maria.underwriter@hiram.local', 'Underwrite26')
    expect(first.status).toBe(200)
    expect(first.body.data.mfa).toBe(true)
    const code = await lastCode(t, 'maria.underwriter@hiram.local', 'login_mfa')
    const done = await call<{ user: { roles: string[] } }>(
      t,
      'POST',
      '/public/user/login/mfa',
      { code },
      { token: tokenOf(first) },
    )
    expect(done.status).toBe(200)
    expect(done.body.data.user.roles).toEqual(['underwriter'])
    const session = tokenOf(done)
    // An underwriter reads the queue and may not change the configuration or manage users.
    expect(
      (await call(t, 'GET', '/private/back-office/review-queue', undefined, { token: session })).status,
    ).toBe(200)
    const config = await call(t, 'PUT', '/private/back-office/config/pricing', {}, { token: session })
    expect(config.status).toBe(403)
    expect((await call(t, 'GET', '/private/back-office/users', undefined, { token: session })).status).toBe(
      403,
    )

    const users = await call<StaffUser[]>(t, 'GET', '/private/back-office/users?perPage=200', undefined, {
      token: admin,
    })
    expect(users.res.headers.get('x-total-count')).toBeTruthy()
    expect(users.body.data.find((user) => user.email === 'maria.underwriter@hiram.local')).toMatchObject({
      invited: false,
    })
  })

  it('refuses a second user with the same e-mail, unknown roles and a bad invitation token', async () => {
    const again = await call(
      t,
      'POST',
      '/private/back-office/users',
      { email: 'maria.underwriter@hiram.local', name: 'Copy', roles: ['support'] },
      { token: admin },
    )
    expect(again.status).toBe(409)
    expect(again.body.response.violations).toEqual([{ propertyPath: 'email', message: expect.any(String) }])
    const role = await call(
      t,
      'POST',
      '/private/back-office/users',
      { email: 'x@hiram.local', name: 'X', roles: ['root'] },
      { token: admin },
    )
    expect(role.status).toBe(400)
    const bad = await call(t, 'POST', '/public/user/invitation', {
      token: 'x'.repeat(40),
      password: 'Passw0rd',
    })
    expect(bad.status).toBe(404)
  })

  it('a new invitation replaces the old link', async () => {
    const invited = await call<StaffUser>(
      t,
      'POST',
      '/private/back-office/users',
      { email: 'jun.support@hiram.local', name: 'Jun Reyes', roles: ['support'] },
      { token: admin },
    )
    const old = linkToken((await outboxFor(t, 'jun.support@hiram.local', 'staff_invitation'))[0]!.body)
    const resent = await call(
      t,
      'POST',
      `/private/back-office/users/${invited.body.data.id}/invitation`,
      undefined,
      {
        token: admin,
      },
    )
    expect(resent.status).toBe(200)
    const fresh = linkToken((await outboxFor(t, 'jun.support@hiram.local', 'staff_invitation'))[0]!.body)
    expect(fresh).not.toBe(old)
    expect(
      (await call(t, 'POST', '/public/user/invitation', { token: old, password: 'Support26' })).status,
    ).toBe(404)
    expect(
      (await call(t, 'POST', '/public/user/invitation', { token: fresh, password: 'Support26' })).status,
    ).toBe(200)
    const accepted = await call(
      t,
      'POST',
      `/private/back-office/users/${invited.body.data.id}/invitation`,
      undefined,
      {
        token: admin,
      },
    )
    expect(accepted.status).toBe(409)
  })

  it('changing roles takes effect at once; disabling ends every session; the audit trail has both', async () => {
    const staff = await staffMember(t, 'support')
    const before = await call(t, 'GET', '/private/back-office/outbox', undefined, { token: staff.token })
    expect(before.status).toBe(200)
    const changed = await call<StaffUser>(
      t,
      'PATCH',
      `/private/back-office/users/${staff.id}`,
      { roles: ['auditor'] },
      { token: admin },
    )
    expect(changed.status).toBe(200)
    expect(changed.body.data.roles).toEqual(['auditor'])
    // The sessions of a user whose roles changed end: their next call logs in again with the new rights.
    expect(
      (await call(t, 'GET', '/private/back-office/outbox', undefined, { token: staff.token })).status,
    ).toBe(401)

    const again = await staffMember(t, 'support')
    const disabled = await call(
      t,
      'PATCH',
      `/private/back-office/users/${again.id}`,
      { active: false },
      {
        token: admin,
      },
    )
    expect(disabled.status).toBe(200)
    const after = await call(t, 'GET', '/private/back-office/outbox', undefined, { token: again.token })
    expect(after.status).toBe(401)

    const trail = await call<{ entity: string; before: { roles: string[] }; after: { roles: string[] } }[]>(
      t,
      'GET',
      '/private/back-office/audit?entity=back_office_user',
      undefined,
      { token: admin },
    )
    const roleChange = trail.body.data.find((entry) => entry.after?.roles?.[0] === 'auditor')
    expect(roleChange?.before.roles).toEqual(['support'])
  })

  it('the last active administrator can neither be disabled nor lose the role, and nobody disables themselves', async () => {
    const me = await call<{ id: number }[]>(t, 'GET', '/private/back-office/users?perPage=200', undefined, {
      token: admin,
    })
    const seeded = (me.body.data as unknown as StaffUser[]).find(
      (user) => user.email === 'admin@hiram.local',
    )!
    const self = await call(
      t,
      'PATCH',
      `/private/back-office/users/${seeded.id}`,
      { active: false },
      { token: admin },
    )
    expect(self.status).toBe(409)
    expect(self.body.response.code).toBe('cannotDisableSelf')
    const other = await staffMember(t, 'administrator')
    const demote = await call(
      t,
      'PATCH',
      `/private/back-office/users/${seeded.id}`,
      { roles: ['support'] },
      {
        token: other.token,
      },
    )
    // staffMember's administrator has no password (never accepted an invitation): it does not count as one who can
    // log in again, so the seeded one stays the last.
    expect(demote.status).toBe(409)
    expect(demote.body.response.code).toBe('lastAdministrator')
  })
})
