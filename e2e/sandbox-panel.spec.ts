/**
 * The sandbox panel (issue 20 item 1, "Done when"): a person holding the QA cookie picks a state in the panel
 * of any page's sandbox banner and, in two clicks (pick the state, open the client's page), is logged in as a fresh
 * client the real services put in that state, on the page the client's journey is on: overdue by 10 days on My loan,
 * a sold debt on /profile/debt-sold, a repeat client on /profile/no-loan. At 360 px, checked with axe.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { SANDBOX_COOKIE } from '../domain/journey/routing'
import { expect, test } from './fixtures'

test.use({ viewport: { width: 360, height: 740 } })

test.beforeEach(async ({ context, baseURL }) => {
  await context.addCookies([{ name: SANDBOX_COOKIE, value: '1', url: baseURL! }])
})

/** The two clicks: the state in the panel's list (open on arrival), then the link to the client's page. */
async function pick(page: Page, scenario: RegExp, reopen = false) {
  const panel = page.getByRole('region', { name: 'Sandbox panel' })
  // After a run the list closes; picking another state then takes a click to open it again.
  if (reopen) await panel.getByText('Put me in a state').click()
  await panel.getByRole('button', { name: scenario }).click()
  await panel.getByRole('link', { name: /^Open the client’s page/ }).click()
  return panel
}

test('overdue by 10 days: two clicks from the home page to My loan showing it', async ({ page }) => {
  test.setTimeout(90_000)
  await page.goto('/')
  const panel = await pick(page, /^Overdue loan with its penalty \(10 days\)$/)
  await expect(page).toHaveURL(/\/profile\/my-loan$/, { timeout: 30_000 })
  await expect(page.getByRole('heading', { name: 'Your payment is overdue' })).toBeVisible()
  await expect(page.getByText('10 days overdue').first()).toBeVisible()
  await expect(panel.getByRole('status')).toContainText('You are logged in as the client')
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
})

test('a sold debt and a repeat client land on their own pages', async ({ page }) => {
  test.setTimeout(120_000)
  await page.goto('/about')
  await pick(page, /^Debt sold to a collection agency/)
  await expect(page).toHaveURL(/\/profile\/debt-sold$/, { timeout: 30_000 })
  await expect(page.getByText('Your loan was sold to a collection agency.')).toBeVisible()

  await pick(page, /^Loan repaid: a repeat client$/, true)
  await expect(page).toHaveURL(/\/profile\/no-loan$/, { timeout: 30_000 })
  await expect(page.getByRole('heading', { name: 'No active loan' })).toBeVisible()
})

test('the panel hides, and leaving sandbox mode takes the QA cookie away', async ({ page, context }) => {
  await page.goto('/')
  const panel = page.getByRole('region', { name: 'Sandbox panel' })
  await panel.getByRole('button', { name: 'Hide the sandbox panel' }).click()
  await expect(panel).toHaveCount(0)
  await page.reload()
  await page.getByRole('button', { name: 'Show the sandbox panel' }).click()
  await page.getByRole('button', { name: 'Leave sandbox mode' }).click()
  await expect(page.getByText('Sandbox mode is off in this browser')).toBeVisible()
  expect((await context.cookies()).some((c) => c.name === SANDBOX_COOKIE)).toBe(false)
})
