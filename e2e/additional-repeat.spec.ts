/**
 * Additional and repeat loans in a real browser (issue 18 items 5 and 6, "Done when"; docs/decisions/0030). Each
 * test registers its own client over the API (e2e/clients.ts), applies for the apply page's defaults (PHP 5 000
 * for 30 days), signs and lands on My loan with the active loan (e2e/journey-steps.ts), then:
 *
 * - takes an additional loan from the home page's calculator: the calculator offers the rest of the first-loan
 *   limit (PHP 10 000 less the PHP 5 000 owed) from the additional-loan minimum (PHP 500), and its submit creates
 *   the application and goes to the loading page (spec section 4, Submit from the calculator); the decision, the
 *   signature and the payout follow as for any loan, and the client has two loans;
 * - repays on time (the sandbox gateway's webhook) and sees a larger amount on the repeat tab: the first-loan
 *   limit plus the on-time step (PHP 12 000).
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { adminToken, type ReadyClient, readyClient } from './clients'
import { expect, test } from './fixtures'
import { logInAndApply, outboxCode, signAndSeeLoan } from './journey-steps'

let admin: string

test.beforeAll(async ({ request }) => {
  admin = await adminToken(request)
})

const figure = (page: Page, name: string) => page.locator(`[data-figure="${name}"] dd`).first()

async function clientToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'auth.token')
  if (!cookie) throw new Error('no auth.token cookie')
  return decodeURIComponent(cookie.value)
}

type Me = {
  availableLoanAmount: { amount: number }
  closedLoansCount: number
  additionalLoan?: { openLoans: number }
}

async function me(request: APIRequestContext, token: string): Promise<Me> {
  const answer = await request.get('/web/private/client', { headers: { authorization: `Bearer ${token}` } })
  expect(answer.status()).toBe(200)
  return (await answer.json()).data as Me
}

/** A fresh client with an active loan of PHP 5 000, on My loan. */
async function clientWithLoan(page: Page, request: APIRequestContext) {
  const client = await readyClient(request)
  await logInAndApply(page, client, /\/registration\/summary$/)
  await signAndSeeLoan(page, client, '5,000.00', outboxCode(request, admin))
  return client
}

/** Signs the summary of the application waiting for the signature; the payout ends on My loan. */
async function signSummary(page: Page, request: APIRequestContext, client: ReadyClient, principal: string) {
  await expect(page).toHaveURL(/\/registration\/summary$/, { timeout: 30_000 })
  const disclosure = page.getByLabel('What your loan costs', { exact: true })
  await expect(disclosure.locator('[data-figure="principal"] dd')).toContainText(principal)
  const send = page.getByRole('button', { name: 'Send me the code' })
  const resend = page.getByRole('button', { name: 'Send a new code' })
  const tooSoon = page.locator('[data-error-key="codeMinuteLimit"]')
  await send.click()
  await expect(resend.or(tooSoon)).toBeVisible()
  if (await tooSoon.isVisible()) {
    await expect(send).toBeEnabled({ timeout: 15_000 })
    await send.click()
  }
  await expect(resend).toBeVisible()
  await page.getByLabel('Code from the SMS').fill(await outboxCode(request, admin)(client))
  await page.getByRole('button', { name: 'Sign the agreement' }).click()
  await expect(page).toHaveURL(/\/profile\/my-loan$/, { timeout: 30_000 })
}

test('a client with an active loan takes an additional loan from the calculator', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000)
  const client = await clientWithLoan(page, request)
  const token = await clientToken(page)
  expect((await me(request, token)).availableLoanAmount.amount).toBe(500_000)

  // The home page's calculator: from the additional-loan minimum up to what is left of the limit.
  await page.goto('/')
  const calculator = page.getByRole('region', { name: 'Loan calculator' }).last()
  const amount = calculator.getByRole('slider', { name: 'Amount' })
  await expect(amount).toHaveAttribute('min', '50000')
  await expect(amount).toHaveAttribute('max', '500000')
  await amount.fill('200000')
  await expect(amount).toHaveAttribute('aria-valuetext', 'PHP 2 000.00')

  // Submit: the application is created from the calculator and the client goes to the loading page.
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/web/private/client/application') && r.request().method() === 'POST',
  )
  await calculator.getByRole('button', { name: 'Apply now' }).click()
  const answer = await created
  expect(answer.status()).toBe(201)
  expect(answer.request().postDataJSON()).toMatchObject({ loanAmount: { amount: 200_000, currency: 'PHP' } })
  await expect(page).toHaveURL(/\/application\/loading$|\/registration\/summary$/)

  // The decision approves it; its own disclosure and signature; the payout; back on My loan.
  await signSummary(page, request, client, '2,000.00')
  await expect(figure(page, 'principal')).toBeVisible()
  await expect
    .poll(async () => (await me(request, token)).additionalLoan?.openLoans, { timeout: 30_000 })
    .toBe(2)
  // Two loans run: nothing more is available until one is repaid.
  expect((await me(request, token)).availableLoanAmount.amount).toBe(0)
})

test('a client who repaid on time sees a larger amount on the repeat tab', async ({ page, request }) => {
  test.setTimeout(180_000)
  await clientWithLoan(page, request)
  const token = await clientToken(page)
  const reference = (await figure(page, 'payment-reference').textContent())!.trim()
  const due = (await figure(page, 'amount-due').textContent())!.trim()
  const centavos = Number(due.replace(/[₱,]/g, '').replace('.', ''))

  // Paid in full on the due day's side of it: the sandbox gateway's webhook posts it.
  const paid = await request.post('/web/private/back-office/sandbox/payments', {
    headers: { authorization: `Bearer ${admin}` },
    data: { reference, amount: centavos, channel: 'seven_eleven' },
  })
  expect(paid.status(), await paid.text()).toBe(200)
  await expect.poll(async () => (await me(request, token)).closedLoansCount, { timeout: 30_000 }).toBe(1)
  expect((await me(request, token)).availableLoanAmount.amount).toBe(1_200_000)

  // The repeat tab: up to the first-loan limit plus the on-time step.
  await page.goto('/profile/no-loan')
  await expect(page).toHaveURL(/\/profile\/no-loan$/)
  await expect(page.locator('[data-figure="available-amount"]')).toHaveText(
    'You can borrow up to ₱12 000.00 now. Each loan repaid on time raises your limit.',
  )
  const calculator = page.getByRole('region', { name: 'Loan calculator' }).last()
  await expect(calculator.getByText('Welcome back. Your repayment history is already on file.')).toBeVisible()
  const amount = calculator.getByRole('slider', { name: 'Amount' })
  await expect(amount).toHaveAttribute('max', '1200000')
  await amount.fill('1200000')
  await expect(amount).toHaveAttribute('aria-valuetext', 'PHP 12 000.00')
  await expect(calculator.getByRole('button', { name: 'Apply now' })).toBeVisible()
})
