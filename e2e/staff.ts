/**
 * Back-office users of a given role for end-to-end tests (issue 19), made the way a new colleague joins: the
 * seeded administrator invites them over the API, the invitation's link (read from the sandbox outbox) sets their
 * password, and their browser logs in on /admin, confirming the new device with the e-mailed code.
 */
import type { APIRequestContext, Browser, Page } from '@playwright/test'
import type { Role } from '../domain/back-office/roles'
import { adminToken, lastCode, presentDevice } from './clients'
import { expect } from './fixtures'

export const STAFF_PASSWORD = 'Staff2026e2e'

let sequence = 0

export interface StaffMember {
  id: number
  email: string
  role: Role
}

/** Invites a user holding `role` and accepts the invitation (no browser). */
export async function inviteStaff(request: APIRequestContext, role: Role): Promise<StaffMember> {
  const admin = await adminToken(request)
  sequence += 1
  const email = `${role}.${process.pid}.${Date.now().toString(36)}${sequence}@staff.hiram.local`
  const auth = { authorization: `Bearer ${admin}` }
  const invited = await request.post('/web/private/back-office/users', {
    headers: auth,
    data: { email, name: `E2E ${role} ${sequence}`, roles: [role] },
  })
  expect(invited.status()).toBe(201)
  const { id } = (await invited.json()).data as { id: number }
  const outbox = await request.get('/web/private/back-office/outbox', {
    headers: auth,
    params: { recipient: email },
  })
  const [mail] = (await outbox.json()).data as { body: string }[]
  const token = /token=([\w-]+)/.exec(mail?.body ?? '')?.[1]
  if (!token) throw new Error(`no invitation in the outbox for ${email}`)
  const accepted = await request.post('/web/public/user/invitation', {
    data: { token, password: STAFF_PASSWORD },
  })
  expect(accepted.status()).toBe(200)
  return { id, email, role }
}

/** Logs `member` in on /admin in `page`, confirming the new device with the code the outbox holds. */
export async function logInStaff(page: Page, request: APIRequestContext, member: StaffMember) {
  await presentDevice(page, `e2e-staff-device-${member.id}`)
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fadmin/)
  await page.getByRole('tab', { name: 'Back office' }).click()
  await page.getByLabel('E-mail', { exact: true }).fill(member.email)
  await page.getByLabel('Password', { exact: true }).fill(STAFF_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('button', { name: 'Confirm' })).toBeVisible()
  const code = await lastCode(request, await adminToken(request), member.email)
  await page.getByLabel('Verification code').fill(code)
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page).toHaveURL(/\/admin$/, { timeout: 15_000 })
}

/** A browser of its own, logged in on /admin as a new user holding `role` (inviteStaff + logInStaff). */
export async function staffPage(browser: Browser, request: APIRequestContext, role: Role): Promise<Page> {
  const member = await inviteStaff(request, role)
  const page = await (await browser.newContext()).newPage()
  await logInStaff(page, request, member)
  return page
}

/**
 * A back-office session over the API for `member` (no browser), from a device of its own: the login e-mails a
 * code for the new device, read from the sandbox outbox, which confirms it. For a second person's approval.
 */
export async function staffToken(request: APIRequestContext, member: StaffMember): Promise<string> {
  const deviceId = `e2e-staff-api-device-${member.id}`
  const login = await request.post('/web/public/user/login', {
    headers: { 'x-device-id': deviceId },
    data: { email: member.email, password: STAFF_PASSWORD, captchaToken: 'e2e', deviceId },
  })
  expect(login.status(), await login.text()).toBe(200)
  const pending = login.headers().authorization!
  const code = await lastCode(request, await adminToken(request), member.email)
  const confirmed = await request.post('/web/public/user/login/mfa', {
    headers: { authorization: pending, 'x-device-id': deviceId },
    data: { code },
  })
  expect(confirmed.status(), await confirmed.text()).toBe(200)
  return (confirmed.headers().authorization ?? pending).replace(/^Bearer\s+/i, '')
}
