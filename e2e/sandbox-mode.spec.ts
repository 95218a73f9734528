/**
 * Sandbox mode for one client, switched on from the back office (issue 20 item 1; docs/decisions/0039): an
 * administrator turns it on in the client's file; the client logs in without the QA cookie, finds the sandbox panel
 * in the banner and, in two clicks, puts themself 10 days overdue, landing on My loan showing it. At 360 px, checked
 * with axe. The instance's switch is only looked at on /admin/router, never turned on: it would put every other
 * test of the run in sandbox mode.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { SANDBOX_COOKIE } from '../domain/journey/routing'
import { logInAsClient, presentDevice, readyClient, submitBackOfficeLogin } from './clients'
import { expect, test } from './fixtures'
import { E2E_ADMIN_DEVICE_ID } from './sandbox'

test.use({ viewport: { width: 360, height: 740 } })

test('an admin turns sandbox mode on for a client, who puts themself 10 days overdue from the panel', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000)
  const client = await readyClient(request)

  // The administrator finds the client and turns their sandbox mode on in the client's file.
  const admin = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage()
  await presentDevice(admin, E2E_ADMIN_DEVICE_ID)
  await submitBackOfficeLogin(admin)
  await expect(admin).toHaveURL(/\/admin$/)
  await admin.goto('/admin/router')
  const instance = admin.getByRole('region', { name: 'Sandbox mode for this instance' })
  await expect(instance.getByRole('switch', { name: 'Sandbox mode for this instance' })).not.toBeChecked()
  await admin.goto('/admin/clients')
  await admin.getByRole('searchbox', { name: 'Find a client' }).fill(client.phone)
  await admin.getByRole('button', { name: 'Search', exact: true }).click()
  const results = admin.getByRole('region', { name: 'Clients found (scrolls sideways)' })
  await expect(results.getByRole('row')).toHaveCount(2)
  await results.getByRole('link', { name: /Juan Dela Cruz/ }).click()
  await expect(admin).toHaveURL(/\/admin\/clients\/\d+$/)
  const mode = admin.getByRole('region', { name: 'Sandbox mode', exact: true })
  const toggle = mode.getByRole('switch', { name: 'Sandbox mode for this client' })
  await expect(toggle).not.toBeChecked()
  await expect(mode.getByRole('status')).toHaveText('Off: never turned on.')
  await toggle.click()
  await expect(toggle).toBeChecked()
  await expect(mode.getByRole('status')).toContainText('On since')
  await expectAccessible(admin)
  await admin.context().close()

  // The client, without the QA cookie, is in sandbox mode: the panel is in the banner.
  await logInAsClient(page, client.phone, client.password)
  expect((await page.context().cookies()).some((cookie) => cookie.name === SANDBOX_COOKIE)).toBe(false)
  const panel = page.getByRole('region', { name: 'Sandbox panel' })
  await expect(panel).toBeVisible()
  // Only "me": making fresh clients needs the QA cookie or the instance's sandbox mode.
  await expect(panel.getByRole('radio')).toHaveCount(0)
  await expect(panel.getByRole('button', { name: 'Leave sandbox mode' })).toHaveCount(0)
  await panel.getByRole('button', { name: /^Overdue loan with its penalty \(10 days\)$/ }).click()
  await panel.getByRole('link', { name: /^Open the client’s page/ }).click()
  await expect(page).toHaveURL(/\/profile\/my-loan$/, { timeout: 30_000 })
  await expect(page.getByRole('heading', { name: 'Your payment is overdue' })).toBeVisible()
  await expect(page.getByText('10 days overdue').first()).toBeVisible()
  await expect(panel.getByRole('status')).toContainText('You are still logged in as yourself')

  await expectAccessible(page)
})

/** No serious or critical axe finding, and nothing wider than the phone. */
async function expectAccessible(page: Page) {
  const axe = await new AxeBuilder({ page }).setLegacyMode().analyze()
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
}
