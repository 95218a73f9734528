/**
 * Extensions and payment schedules in a real browser (issue 17, "Done when"): each test registers its own client
 * over the API (e2e/clients.ts), applies for the apply page's defaults (PHP 5 000 for 30 days), signs and lands on
 * My loan with the active loan (e2e/journey-steps.ts), then:
 *
 * - extends the loan with the cheap extension at /profile/rollover: choose, review the disclosure, sign with the
 *   SMS code (read from the outbox), pay the fee through the sandbox e-wallet checkout; the flow ends with the new
 *   due date, and My loan shows it and the fee in the statement;
 * - accepts a semi-monthly payment schedule from My loan once the client's clock is 2 days before the due date,
 *   signs it with the code, and pays the first instalment (My loan's "Pay … now", the repayment page's "What to
 *   pay now", the sandbox GCash checkout): My loan shows it paid and the next one to pay.
 *
 * At 360 px; the new screens are checked with axe on the way.
 */
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Page } from '@playwright/test'
import { adminToken, messageCount, newCode, readyClient } from './clients'
import { expect, test } from './fixtures'
import { logInAndApply, outboxCode, signAndSeeLoan, signSchedule } from './journey-steps'

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

const figure = (page: Page, name: string) => page.locator(`[data-figure="${name}"] dd`).first()

/** The session token the browser holds (cookie auth.token), for the API calls the test makes as the client. */
async function clientToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'auth.token')
  if (!cookie) throw new Error('no auth.token cookie')
  return decodeURIComponent(cookie.value)
}

async function activeLoan(request: APIRequestContext, token: string) {
  const answer = await request.get('/web/private/client/loan/active', {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(answer.status()).toBe(200)
  return (await answer.json()).data as {
    id: number
    dueDate: string
    paymentReference: string
    repaymentInvoice: { dueDays: number }
    rollovers: { id: number; type: string; status: string; fee: { amount: number }; newDueDate: string }[]
  }
}

/** 'Dec 25, 2026' as My loan prints a Manila date. */
const longDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  })

/** A fresh client with an active loan of PHP 5 000, on My loan. */
async function clientWithLoan(page: Page, request: APIRequestContext) {
  const client = await readyClient(request)
  await logInAndApply(page, client, /\/registration\/summary$/)
  await signAndSeeLoan(page, client, '5,000.00', outboxCode(request, admin))
  await expect(figure(page, 'payment-reference')).toHaveText(/^\d{10}$/)
  return client
}

test('extends a loan with the cheap extension: sign with the code, pay the fee, the due date moves', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000)
  const client = await clientWithLoan(page, request)
  const token = await clientToken(page)
  const before = await activeLoan(request, token)
  const cheap = before.rollovers.find((r) => r.type === 'cheap')!

  await page.goto('/profile/rollover')
  await expect(page.getByRole('heading', { name: 'Choose your extension' })).toBeVisible()
  await expectAccessible(page, 'extension: choose')
  await page.getByRole('radio', { name: /^7 more days for/ }).check()
  await page.getByRole('button', { name: 'Continue' }).click()

  await expect(page.getByRole('heading', { name: 'Review what it costs' })).toBeVisible()
  await expectAccessible(page, 'extension: review')
  await page.getByRole('button', { name: 'Continue to sign' }).click()

  await expect(page.getByRole('heading', { name: 'Sign the extension' })).toBeVisible()
  const sentBefore = await messageCount(request, admin, client.phone)
  await page.getByRole('button', { name: 'Prepare my documents and send the code' }).click()
  const tooSoon = page.locator('[data-error-key="codeMinuteLimit"]')
  const code = page.getByLabel('Code from the SMS')
  await expect(code.or(tooSoon)).toBeVisible({ timeout: 30_000 })
  if (await tooSoon.isVisible()) {
    // One code a minute per phone (a second on the e2e server): the screen counts down and offers it again.
    await page.getByRole('button', { name: /code/ }).first().click({ timeout: 30_000 })
  }
  await expect(code).toBeVisible({ timeout: 30_000 })
  await expect(
    page
      .getByRole('link', { name: /Extension agreement/ })
      .or(page.getByText(/Extension agreement/))
      .first(),
  ).toBeVisible()
  await expectAccessible(page, 'extension: sign')
  await code.fill(await newCode(request, admin, client.phone, sentBefore))
  await page.getByRole('button', { name: 'Sign the extension' }).click()

  await expect(page.getByRole('heading', { name: 'Pay the extension fee' })).toBeVisible({ timeout: 30_000 })
  await page.getByRole('radio', { name: 'GCash' }).check()
  const intention = page.waitForResponse(
    (r) => r.url().endsWith('/web/private/client/payment-intention') && r.request().method() === 'POST',
  )
  await page.getByRole('button', { name: 'Show me how to pay' }).click()
  expect((await intention).request().postDataJSON()).toEqual({ purpose: 'extension_fee', channel: 'gcash' })
  await expectAccessible(page, 'extension: pay')
  await page.getByRole('link', { name: 'Continue to GCash' }).click()

  await expect(page).toHaveURL(/\/sandbox\/checkout\/chg_[A-Za-z0-9]+$/)
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(page.getByText(/Payment successful/)).toBeVisible()
  await page.getByRole('link', { name: 'Back to Hiram' }).click()

  // Back in the flow: the webhook posts the fee and the flow says the loan is extended, with the new date.
  await expect(page).toHaveURL(new RegExp(`/profile/rollover/${cheap.id}$`))
  await expect(page.getByRole('heading', { name: 'Your loan is extended' })).toBeVisible({ timeout: 30_000 })
  const after = await activeLoan(request, token)
  expect(after.dueDate).toBe(cheap.newDueDate)
  expect(after.rollovers.find((r) => r.id === cheap.id)!.status).toBe('active')

  // My loan: the new due date, and the fee in the statement.
  await page.goto('/profile/my-loan')
  await expect(figure(page, 'due-date')).toHaveText(longDate(cheap.newDueDate))
  await expect(page.getByRole('cell', { name: 'Extension fee' }).first()).toBeVisible()
})

test('accepts a semi-monthly payment schedule near the due date and pays its first instalment', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000)
  const client = await clientWithLoan(page, request)
  const token = await clientToken(page)
  const loan = await activeLoan(request, token)
  const me = await request.get('/web/private/client', { headers: { authorization: `Bearer ${token}` } })
  const clientId = ((await me.json()).data as { id: number }).id
  // The client's business clock two days before the due date: the special offer is made (servicing config).
  const moved = await request.post('/web/private/back-office/sandbox/clock', {
    headers: { authorization: `Bearer ${admin}` },
    data: { clientId, days: loan.repaymentInvoice.dueDays - 2 },
  })
  expect(moved.status(), await moved.text()).toBe(200)

  await page.goto('/profile/my-loan')
  const offers = page.getByRole('region', { name: 'Split what you owe' })
  await expect(offers).toBeVisible({ timeout: 30_000 })
  await expectAccessible(page, 'my loan: schedule offers')
  await offers.getByRole('button', { name: 'Review: Instalments twice a month' }).click()
  await expect(page.getByRole('heading', { name: 'Review: Instalments twice a month' })).toBeVisible()
  await expect(
    page.getByRole('table', { name: 'Instalments of this payment schedule' }).getByRole('row'),
  ).toHaveCount(5)
  await expectAccessible(page, 'schedule: review')
  await page.getByRole('button', { name: 'Continue to sign' }).click()

  await expect(page.getByRole('heading', { name: 'Sign the payment schedule' })).toBeVisible()
  await signSchedule(page, request, admin, client.phone)

  // My loan: the schedule in force, four instalments, the first to pay now.
  const table = page.getByRole('table', { name: 'Your instalments' })
  await expect(table).toBeVisible({ timeout: 30_000 })
  await expect(table.getByRole('row')).toHaveCount(5)
  await expectAccessible(page, 'my loan: schedule')
  const schedule = await request.get('/web/private/client/loan/active/payment-schedule', {
    headers: { authorization: `Bearer ${token}` },
  })
  const { toPayNow, payments } = (await schedule.json()).data as {
    toPayNow: { amount: number }
    payments: { amount: { amount: number } }[]
  }
  expect(toPayNow.amount).toBe(payments[0]!.amount.amount)

  // The first instalment, from My loan's "Pay … now": the repayment page starts on what to pay now; GCash.
  await page.getByRole('link', { name: /^Pay ₱[\d,]+\.\d{2} now$/ }).click()
  await expect(page).toHaveURL(/\/profile\/repayment\?purpose=instalment$/)
  await expect(page.getByRole('radio', { name: /^What to pay now: / })).toBeChecked()
  await page.getByRole('radio', { name: 'GCash' }).check()
  const intention = page.waitForResponse(
    (r) => r.url().endsWith('/web/private/client/payment-intention') && r.request().method() === 'POST',
  )
  await page.getByRole('button', { name: 'Show me how to pay' }).click()
  const sent = await intention
  expect(sent.request().postDataJSON()).toEqual({ purpose: 'instalment', channel: 'gcash' })
  expect(((await sent.json()).data as { amount: number }).amount).toBe(toPayNow.amount)
  await page.getByRole('link', { name: 'Continue to GCash' }).click()
  await expect(page).toHaveURL(/\/sandbox\/checkout\/chg_[A-Za-z0-9]+$/)
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(page.getByText(/Payment successful/)).toBeVisible()
  await page.getByRole('link', { name: 'Back to Hiram' }).click()
  await expect(page).toHaveURL(/\/profile\/my-loan$/)
  await expect(table.getByRole('row').nth(1)).toContainText('Paid', { timeout: 30_000 })
  await expect(table.getByRole('row').nth(2)).toContainText('To pay')
})
