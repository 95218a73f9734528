/**
 * A sold loan in a real browser (issue 18, item 3, "Done when"): a client registered over the API applies for the
 * apply page's defaults and lands on My loan with the active loan; the client's sandbox clock moves past the due
 * date (the daily run marks the loan overdue); an admin proposes selling it on /admin/debts to the sandbox
 * collection agency and a second administrator approves the proposal there (maker-checker, issue 19 item 5);
 * the client's next visit to My loan is sent by the flow guard to /profile/debt-sold, which names the agency, its
 * contacts and how to pay them, the loan number and what was owed. At 360 px, both pages checked with axe.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { adminToken, presentDevice, readyClient, submitBackOfficeLogin } from './clients'
import { expect, test } from './fixtures'
import { logInAndApply, outboxCode, signAndSeeLoan } from './journey-steps'
import { E2E_ADMIN_DEVICE_ID } from './sandbox'
import { staffPage } from './staff'

/** The sandbox's collection agency (migration 0014). */
const AGENCY = 'Bantay Collections Inc. (sandbox)'

let admin: string

test.beforeAll(async ({ request }) => {
  admin = await adminToken(request)
})

test.use({ viewport: { width: 360, height: 740 } })

async function expectAccessible(page: Page, what: string) {
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze()
  const findings = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${what}: ${v.id} (${v.impact}): ${n.target.join(' ')}`))
  expect(findings).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
}

/** An admin's browser at 360 px: the sandbox admin device is trusted, so the login asks no second factor. */
async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } })
  const desk = await context.newPage()
  await presentDevice(desk, E2E_ADMIN_DEVICE_ID)
  await submitBackOfficeLogin(desk)
  await expect(desk).toHaveURL(/\/admin$/)
  return desk
}

async function clientToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'auth.token')
  if (!cookie) throw new Error('no auth.token cookie')
  return decodeURIComponent(cookie.value)
}

test('a sold loan sends its client to /profile/debt-sold, which names the agency', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000)
  const client = await readyClient(request)
  await logInAndApply(page, client, /\/registration\/summary$/)
  await signAndSeeLoan(page, client, '5,000.00', outboxCode(request, admin))
  const asClient = { authorization: `Bearer ${await clientToken(page)}` }
  const loan = (await (await request.get('/web/private/client/loan/active', { headers: asClient })).json())
    .data as { id: number; loanNumber: string; repaymentInvoice: { dueDays: number } }
  const me = (await (await request.get('/web/private/client', { headers: asClient })).json()).data as {
    id: number
  }

  // Two days past the due date: the daily run marks the loan overdue.
  const moved = await request.post('/web/private/back-office/sandbox/clock', {
    headers: { authorization: `Bearer ${admin}` },
    data: { clientId: me.id, days: loan.repaymentInvoice.dueDays + 2 },
  })
  expect(moved.status(), await moved.text()).toBe(200)

  // The back office sells it on /admin/debts: tick the loan, choose the sandbox agency, sell.
  const desk = await adminPage(browser)
  await desk.goto('/admin/debts')
  await expect(desk.getByRole('heading', { level: 1, name: 'Debt sales and write-offs' })).toBeVisible()
  const tick = desk.getByRole('checkbox', { name: `Select ${loan.loanNumber}` })
  await tick.check({ timeout: 30_000 })
  await desk.getByLabel('Collection agency').selectOption({ label: AGENCY })
  await expectAccessible(desk, 'admin: debt desk')
  await desk.getByRole('button', { name: 'Sell the selected loans' }).click()
  // Maker-checker (issue 19 item 5): a proposal, waiting for a second person on the same page.
  await expect(
    desk.getByText(/^Sale of 1 loan\(s\) proposed \(proposal \d+\): waiting for a second approval\.$/),
  ).toBeVisible()
  const waiting = desk.getByRole('article', { name: /: sell 1 loan\(s\) to agency \d+$/ }).last()
  await expect(waiting).toContainText('Your proposal: another user must decide it.')
  await expect(tick).toBeVisible()
  await desk.context().close()

  // A second administrator approves it on their /admin/debts: the loan is sold.
  const checker = await staffPage(browser, request, 'administrator')
  await checker.setViewportSize({ width: 360, height: 740 })
  await checker.goto('/admin/debts')
  const proposal = checker.getByRole('article', { name: /: sell 1 loan\(s\) to agency \d+$/ }).last()
  await expect(proposal.getByRole('button', { name: /^Approve proposal \d+$/ })).toBeVisible()
  await expectAccessible(checker, 'admin: debt desk, a proposal to decide')
  await proposal.getByRole('button', { name: /^Approve proposal \d+$/ }).click()
  await expect(checker.getByText(/^Proposal \d+ approved and carried out\.$/)).toBeVisible()
  await expect(checker.getByRole('checkbox', { name: `Select ${loan.loanNumber}` })).toHaveCount(0)
  await checker.context().close()

  await page.goto('/profile/my-loan')
  await expect(page).toHaveURL(/\/profile\/debt-sold$/, { timeout: 30_000 })
  await expect(page.getByRole('heading', { level: 1, name: 'Your loan was transferred' })).toBeVisible()
  await expect(page.locator('[data-figure="agency-name"] dd')).toHaveText(AGENCY)
  await expect(page.locator('[data-figure="loan-number"] dd')).toHaveText(loan.loanNumber)
  await expect(page.locator('[data-figure="amount-at-sale"] dd')).toHaveText(/^₱\d/)
  await expect(page.getByText(/pass it on to the agency/)).toBeVisible()
  await expectAccessible(page, 'debt sold')
})
