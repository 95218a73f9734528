/**
 * Manual verification decided by a person in the back office, in two browsers (issue 6 item 7): a client named
 * "Manual" (sandbox scoring: status 14) applies and waits; an admin logs in on /admin, finds the application in
 * the review queue and approves it with a reason; the client's journey moves on to the summary, and the client
 * signs with the code the admin reads on the sandbox outbox screen, ending with the active loan on my loan.
 * Also: the sandbox router sets and removes the QA cookie.
 */

import type { Browser, Page } from '@playwright/test'
import { formatPhone } from '../domain/format'
import { presentDevice, readyClient, submitBackOfficeLogin } from './clients'
import { expect, test } from './fixtures'
import { logInAndApply, signAndSeeLoan } from './journey-steps'
import { E2E_ADMIN_DEVICE_ID } from './sandbox'
import { watchConsole } from './support'

/** An admin's browser: the sandbox admin device is trusted, so the login asks no second factor. */
async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await presentDevice(page, E2E_ADMIN_DEVICE_ID)
  await submitBackOfficeLogin(page)
  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Back office' })).toBeVisible()
  return page
}

/** The newest code sent to `recipient`, read on the admin's outbox screen as a tester would. */
async function codeOnOutboxScreen(admin: Page, recipient: string): Promise<string> {
  const outbox = admin.getByRole('region', { name: 'Sandbox outbox' })
  await outbox.getByRole('searchbox', { name: 'Mobile number or e-mail' }).fill(recipient)
  await outbox.getByRole('button', { name: 'Show messages' }).click()
  const newest = outbox.getByRole('row').nth(1)
  await expect(newest).toContainText(formatPhone(recipient))
  const code = /\b(\d{3})\b/.exec((await newest.getByRole('cell').last().textContent()) ?? '')?.[1]
  if (!code) throw new Error(`no code on the outbox screen for ${recipient}`)
  return code
}

test('manual verification: an admin approves the application in the back office, the client signs and gets the loan', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(150_000)
  const client = await readyClient(request, 'Manual')
  await logInAndApply(page, client, /\/application\/manual-verification$/)
  await expect(
    page.getByRole('heading', { level: 1, name: 'We are reviewing your application' }),
  ).toBeVisible()

  const admin = await adminPage(browser)
  const errors = watchConsole(admin)
  const card = admin.getByRole('article').filter({ hasText: formatPhone(client.phone) })
  await expect(card).toContainText('Manual Santos Dela Cruz')
  await expect(card).toContainText('₱5,000.00')
  await expect(card).toContainText('sandbox: first name Manual')
  const title = (await card.getByRole('heading', { level: 3 }).textContent()) ?? ''
  const id = /Application (\d+)/.exec(title)?.[1]
  expect(id).toBeTruthy()

  // A reason is required; then the approval goes through and the application leaves the queue.
  await card.getByRole('button', { name: `Approve application ${id}` }).click()
  await expect(card.getByText('A reason of at least 3 characters is required.')).toBeVisible()
  await card.getByLabel('Reason for the decision', { exact: false }).fill('Payslip checked by phone.')
  await card.getByRole('button', { name: `Approve application ${id}` }).click()
  await expect(admin.getByText(`Application ${id} approved: the client can now sign.`)).toBeVisible()
  await expect(admin.getByRole('article', { name: `Application ${id}` })).toHaveCount(0)
  expect(errors).toEqual([])

  // The client's journey polls every 10 seconds; a reload asks at once.
  await page.reload()
  await signAndSeeLoan(page, client, '5,000.00', (c) => codeOnOutboxScreen(admin, c.phone))
})

test('the sandbox router sets and removes the QA flow cookie', async ({ browser }) => {
  const admin = await adminPage(browser)
  await admin.getByRole('link', { name: 'Sandbox router' }).click()
  await expect(admin).toHaveURL(/\/admin\/router$/)
  await expect(admin.getByRole('cell', { name: 'Manual', exact: true })).toBeVisible()
  const cookie = async () =>
    (await admin.context().cookies()).find((c) => c.name === 'qa-disable-flow')?.value ?? null
  expect(await cookie()).toBeNull()
  await admin.getByRole('button', { name: 'Set the qa-disable-flow cookie' }).click()
  await expect(admin.getByRole('status').filter({ hasText: 'cookie is set' })).toBeVisible()
  expect(await cookie()).toBe('1')
  await admin.getByRole('button', { name: 'Remove the qa-disable-flow cookie' }).click()
  expect(await cookie()).toBeNull()
  await expect(admin.getByRole('link', { name: /^\/application\/apply/ })).toHaveAttribute(
    'href',
    '/application/apply',
  )
})
