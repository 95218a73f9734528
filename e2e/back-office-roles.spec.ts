/**
 * Issue 19 items 1, 2 and 8 in the browser: an administrator invites a colleague on /admin/users; the colleague
 * sets a password from the invitation link, logs in (confirming the new device with the e-mailed code) and sees
 * only the screens of their role; an auditor reads the invitation in the audit trail. At 360 px.
 */
import type { Browser, Page } from '@playwright/test'
import { adminToken, presentDevice, submitBackOfficeLogin } from './clients'
import { expect, test } from './fixtures'
import { E2E_ADMIN_DEVICE_ID } from './sandbox'
import { logInStaff, STAFF_PASSWORD, staffPage } from './staff'
import { watchConsole } from './support'

const phone = { width: 360, height: 740 }

async function adminPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext({ viewport: phone })).newPage()
  await presentDevice(page, E2E_ADMIN_DEVICE_ID)
  await submitBackOfficeLogin(page)
  await expect(page).toHaveURL(/\/admin$/)
  return page
}

test('an administrator invites a support agent, who sets a password and sees only support screens', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000)
  const admin = await adminPage(browser)
  const errors = watchConsole(admin)
  await admin.getByRole('link', { name: 'Users and roles' }).click()
  await expect(admin.getByRole('heading', { level: 1, name: 'Users and roles' })).toBeVisible()
  const email = `support.${Date.now().toString(36)}@staff.hiram.local`
  const invite = admin.getByRole('form', { name: 'Invite a user' })
  await invite.getByLabel('E-mail').fill(email)
  await invite.getByLabel('Name').fill('Liza Support')
  // Support is ticked by default; nothing else.
  await expect(invite.getByRole('checkbox', { name: 'Support' })).toBeChecked()
  await invite.getByRole('button', { name: 'Send the invitation' }).click()
  await expect(admin.getByText(`Invitation sent to ${email}.`)).toBeVisible()
  await expect(admin.getByRole('article', { name: 'Liza Support' })).toContainText('Invitation pending')

  // The invitation link from the e-mail (the sandbox outbox), opened in the colleague's own browser.
  const outbox = await request.get('/web/private/back-office/outbox', {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    params: { recipient: email },
  })
  const link = /(\/admin-invitation\?token=[\w-]+)/.exec(
    ((await outbox.json()).data[0] as { body: string }).body,
  )?.[1]
  expect(link).toBeTruthy()
  const colleague = await (await browser.newContext({ viewport: phone })).newPage()
  await colleague.goto(link!)
  await expect(colleague.getByRole('heading', { level: 1, name: 'Join the Hiram back office' })).toBeVisible()
  await colleague.getByLabel('Password', { exact: true }).fill(STAFF_PASSWORD)
  await colleague.getByLabel('Repeat the password').fill(STAFF_PASSWORD)
  await colleague.getByRole('button', { name: 'Set my password' }).click()
  await expect(colleague.getByText(`Your password is set. Log in with ${email}.`)).toBeVisible()

  const users = await request.get('/web/private/back-office/users', {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    params: { perPage: 200 },
  })
  const member = ((await users.json()).data as { id: number; email: string }[]).find(
    (u) => u.email === email,
  )!
  await logInStaff(colleague, request, { id: member.id, email, role: 'support' })
  const nav = colleague.getByRole('navigation', { name: 'Back office' })
  await expect(nav.getByRole('link', { name: 'Clients' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Payments' })).toBeVisible()
  for (const hidden of ['Users and roles', 'Audit trail', 'Sandbox router'])
    await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0)
  await expect(colleague.getByRole('heading', { name: 'Sandbox outbox' })).toBeVisible()
  // Typing the address of a screen the role does not hold: it says so, and the session stays.
  await colleague.goto('/admin/users')
  await expect(colleague.getByRole('alert')).toHaveText('Your role does not include this screen.')
  await colleague.goto('/admin')
  await expect(colleague).toHaveURL(/\/admin$/)

  await admin.reload()
  await expect(admin.getByRole('article', { name: 'Liza Support' })).toContainText('Active')
  expect(errors.filter((e) => !/403/.test(e))).toEqual([])
})

test('an auditor reads the trail at 360 px: who did what, before and after', async ({ browser, request }) => {
  test.setTimeout(90_000)
  const auditor = await staffPage(browser, request, 'auditor')
  await auditor.setViewportSize(phone)
  await auditor.getByRole('link', { name: 'Audit trail' }).click()
  await expect(auditor.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible()
  const trail = auditor.getByRole('region', { name: 'Audit entries, newest first' })
  await expect(trail.getByText('POST /web/private/back-office/users').first()).toBeVisible()
  // The auditor changes nothing: no screen that writes is offered.
  const nav = auditor.getByRole('navigation', { name: 'Back office' })
  await expect(nav.getByRole('link', { name: 'Users and roles' })).toHaveCount(0)
  const width = await auditor.evaluate(() => document.documentElement.scrollWidth)
  expect(width).toBeLessThanOrEqual(360)
})
