/**
 * The back office's payments in a real browser (issue 16, item 8, with the sandbox tools of items 2 and 5): a
 * client gets an active loan (e2e/journey-steps.ts); an admin opens /admin/router and makes a payment arrive for
 * the client's reference at 7-Eleven (the sandbox gateway sends its signed webhook), opens /admin/payments, finds
 * the payment by its reference, reverses it with a reason and sees it reversed; then posts one by hand (a double
 * click posts once), moves the client's business clock a day, and checks the page with axe at 360 px.
 */
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Browser, Page } from '@playwright/test'
import { adminToken, presentDevice, readyClient, submitBackOfficeLogin } from './clients'
import { expect, test } from './fixtures'
import { logInAndApply, outboxCode, signAndSeeLoan } from './journey-steps'
import { E2E_ADMIN_DEVICE_ID } from './sandbox'
import { staffPage } from './staff'
import { watchConsole } from './support'

/** An admin's browser on /admin: the sandbox admin device is trusted, so the login asks no second factor. */
async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await presentDevice(page, E2E_ADMIN_DEVICE_ID)
  await submitBackOfficeLogin(page)
  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Back office' })).toBeVisible()
  return page
}

/** The client's id, payment reference and loan number, read over the API with the browser's session. */
async function clientLoan(page: Page, request: APIRequestContext) {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'auth.token')
  if (!cookie) throw new Error('no auth.token cookie')
  const headers = { authorization: `Bearer ${decodeURIComponent(cookie.value)}` }
  const get = async (path: string) => {
    const answer = await request.get(path, { headers })
    expect(answer.status(), await answer.text()).toBe(200)
    return (await answer.json()).data
  }
  const client = (await get('/web/private/client')) as { id: number }
  const loan = (await get('/web/private/client/loan/active')) as { id: number }
  const statement = (await get(`/web/private/client/loan/${loan.id}/statement`)) as {
    paymentReference: string
    loanNumber: string
  }
  return { clientId: client.id, reference: statement.paymentReference, loanNumber: statement.loanNumber }
}

test('an admin makes a sandbox payment arrive, finds it, reverses it with a reason, and posts one by hand', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000)
  const token = await adminToken(request)
  const client = await readyClient(request)
  await logInAndApply(page, client, /\/registration\/summary$/)
  await signAndSeeLoan(page, client, '5,000.00', outboxCode(request, token))
  const { clientId, reference, loanNumber } = await clientLoan(page, request)
  expect(reference).toMatch(/^\d{10}$/)

  const admin = await adminPage(browser)
  const errors = watchConsole(admin)

  // /admin/router: the sandbox gateway receives ₱123.45 at 7-Eleven for the client's reference.
  await admin.getByRole('link', { name: 'Sandbox router' }).click()
  await expect(admin).toHaveURL(/\/admin\/router$/)
  const arrive = admin.getByRole('form', { name: 'Make a payment arrive' })
  await arrive.getByLabel('Payment reference').fill(reference)
  await arrive.getByLabel('Amount in pesos').fill('123.45')
  await arrive.getByLabel('Channel').selectOption({ label: '7-Eleven (CLiQQ)' })
  await arrive.getByRole('button', { name: 'Send the payment' }).click()
  await expect(
    admin.getByText(/^Delivered to our webhook \(HTTP 200\): event \S+, charge chg_\w+\.$/),
  ).toBeVisible({
    timeout: 15_000,
  })

  // /admin/payments: found by its reference, posted to the client's loan.
  await admin.getByRole('link', { name: 'Payments', exact: true }).click()
  await expect(admin).toHaveURL(/\/admin\/payments$/)
  await expect(admin.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible()
  const filters = admin.getByRole('form', { name: 'Find payments' })
  await filters.getByLabel('Payment reference').fill(reference)
  await filters.getByLabel('Channel').selectOption({ label: '7-Eleven (CLiQQ)' })
  await filters.getByRole('button', { name: 'Show payments' }).click()
  const table = admin.getByRole('table', { name: 'Payments, newest first' })
  const arrived = table.getByRole('row').filter({ hasText: '₱123.45' })
  await expect(arrived).toHaveCount(1)
  await expect(arrived.getByRole('rowheader')).toHaveText(reference)
  await expect(arrived).toContainText('7-Eleven (CLiQQ)')
  await expect(arrived).toContainText('Posted')
  await expect(arrived).toContainText(loanNumber)
  await expect(arrived).toContainText('Gateway')
  await expect(arrived.getByRole('cell').first()).toHaveText(
    /^[A-Z][a-z]{2} \d{2}, \d{4} \d{1,2}:\d{2} [AP]M$/,
  )

  // Reversed with a reason, after a confirmation.
  const reverse = arrived.getByRole('button', { name: /^Reverse payment \d+$/ })
  const id = /(\d+)$/.exec((await reverse.textContent()) ?? '')?.[1]
  expect(id).toBeTruthy()
  await reverse.click()
  const panel = admin.getByRole('region', { name: `Reverse payment ${id}` })
  await panel.getByRole('button', { name: 'Continue' }).click()
  await expect(panel.getByText('Give a reason of at least 3 characters.')).toBeVisible()
  await panel.getByLabel('Reason for the reversal').fill('Chargeback reported by 7-Eleven')
  await panel.getByRole('button', { name: 'Continue' }).click()
  await panel.getByRole('button', { name: `Yes, reverse payment ${id}` }).click()
  // Maker-checker (issue 19 item 5): a proposal, waiting for a second person; the payment stays posted.
  await expect(
    admin.getByText(
      new RegExp(
        `^Reversal of payment ${id} proposed \\(proposal \\d+\\): waiting for a second approval\\.$`,
      ),
    ),
  ).toBeVisible()
  await expect(arrived).toContainText('Posted')
  const waiting = admin.getByRole('article', { name: new RegExp(`: reverse payment ${id}$`) })
  await expect(waiting).toContainText('Your proposal: another user must decide it.')
  await expect(waiting.getByRole('button')).toHaveCount(0)
  // A second administrator approves it on their /admin/payments: the reversal is carried out.
  const checker = await staffPage(browser, request, 'administrator')
  await checker.goto('/admin/payments')
  const proposal = checker.getByRole('article', { name: new RegExp(`: reverse payment ${id}$`) })
  await proposal.getByRole('button', { name: /^Approve proposal \d+$/ }).click()
  await expect(checker.getByText(/^Proposal \d+ approved and carried out\.$/)).toBeVisible()
  await expect(proposal).toHaveCount(0)
  await checker.context().close()
  await admin.reload()
  await filters.getByLabel('Payment reference').fill(reference)
  await filters.getByRole('button', { name: 'Show payments' }).click()
  await expect(arrived).toContainText('Reversed')
  await expect(arrived).toContainText(/Reversed by user \d+, .+: Chargeback reported by 7-Eleven/)
  await expect(arrived.getByRole('button')).toHaveCount(0)

  // The list by status: the reversed one is there.
  await filters.getByLabel('Status').selectOption({ label: 'Reversed' })
  await filters.getByRole('button', { name: 'Show payments' }).click()
  await expect(table.getByRole('row').filter({ hasText: '₱123.45' })).toContainText('Reversed')

  // Posted by hand: a double click posts once (one idempotency key per form).
  const manual = admin.getByRole('form', { name: 'Post a payment by hand' })
  await manual.getByLabel('Payment reference').fill(reference)
  await manual.getByLabel('Amount in pesos').fill('50')
  await manual.getByLabel('Channel').selectOption({ label: 'Cebuana Lhuillier' })
  await manual.getByLabel('Note (optional)').fill('Deposit slip 0042, Cebuana Makati')
  await manual.getByRole('button', { name: 'Post the payment' }).dblclick()
  await expect(
    admin.getByText(new RegExp(`^Payment \\d+ of ₱50\\.00 posted to loan ${loanNumber}\\.$`)),
  ).toBeVisible()
  await filters.getByRole('button', { name: 'Clear the filters' }).click()
  await filters.getByLabel('Payment reference').fill(reference)
  await filters.getByRole('button', { name: 'Show payments' }).click()
  const byHand = table.getByRole('row').filter({ hasText: '₱50.00' })
  await expect(byHand).toHaveCount(1)
  await expect(byHand).toContainText('Cebuana Lhuillier')
  await expect(byHand).toContainText('By hand')
  await expect(byHand).toContainText(/Posted by user \d+/)
  await expect(table.getByRole('row')).toHaveCount(3)

  // The business clock of this client alone, a day forward (the instance's clock is the other tests' too).
  await admin.getByRole('link', { name: 'Sandbox router' }).click()
  const clock = admin.getByRole('form', { name: 'Move the business clock' })
  await clock.getByLabel('Days forward').fill('1')
  await clock.getByLabel('Client id (optional)').fill(String(clientId))
  await clock.getByRole('button', { name: 'Move the clock' }).click()
  await expect(
    admin.getByText(
      new RegExp(`^Today for client ${clientId}: [A-Z][a-z]{2} \\d{2}, \\d{4} \\(\\d+ days ahead\\)\\.$`),
    ),
  ).toBeVisible({
    timeout: 30_000,
  })
  await expect(admin.getByText(/^Servicing days run: \d+\.$/)).toBeVisible()

  // At 360 px: the page does not scroll sideways (the table scrolls inside its named region), and axe finds
  // nothing serious with the table and a row's action panel open.
  await admin.setViewportSize({ width: 360, height: 740 })
  await admin.getByRole('link', { name: 'Payments', exact: true }).click()
  await admin.getByRole('form', { name: 'Find payments' }).getByLabel('Payment reference').fill(reference)
  await admin.getByRole('button', { name: 'Show payments' }).click()
  await expect(admin.getByRole('region', { name: 'Payments (scrolls sideways)' })).toBeVisible()
  await admin.getByRole('button', { name: /^Reverse payment \d+$/ }).click()
  await expect(admin.getByLabel('Reason for the reversal')).toBeVisible()
  await admin.waitForLoadState('networkidle')
  const overflow = await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  const results = await new AxeBuilder({ page: admin })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze()
  const named = new Set([
    'region',
    'landmark-unique',
    'scrollable-region-focusable',
    'color-contrast',
    'label',
  ])
  const findings = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || named.has(v.id))
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`))
  expect(findings, findings.join('\n')).toEqual([])
  expect(errors).toEqual([])
})
