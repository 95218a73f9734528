/**
 * Getting paid back in a real browser (issue 16, "Done when"): each test registers its own client over the API
 * (e2e/clients.ts), applies for the apply page's defaults (PHP 5 000 for 30 days), signs and lands on my loan
 * with the active loan (e2e/journey-steps.ts), then pays:
 *
 * - in full through the e-wallet sandbox checkout (repayment page -> GCash -> Pay): the loan is paid, the
 *   journey reaches no_loan_page, and the calculator offers the repeat-client tab with a larger amount;
 * - in part at a payment centre, through the sandbox gateway's QA endpoint (`POST /web/private/back-office/
 *   sandbox/payments`, which sends its signed webhook): My loan updates by itself, with a toast, and the
 *   outstanding falls exactly in the allocation order (penalties, fees, interest, principal);
 * - more than the payoff: the surplus is the client's credit on the statement, and the refund job pays it back.
 *
 * All at 360 px, the phone width the product is built for; the new screens are checked with axe on the way.
 */

import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Page } from '@playwright/test'
import { formatPhp } from '../domain/format'
import { adminToken, readyClient } from './clients'
import { expect, test } from './fixtures'
import { logInAndApply, outboxCode, signAndSeeLoan } from './journey-steps'

let admin: string

test.beforeAll(async ({ request }) => {
  admin = await adminToken(request)
})

test.use({ viewport: { width: 360, height: 740 } })

/** axe's serious and critical findings (and the rules e2e/a11y.spec.ts names) on the page as it stands: none. */
async function expectAccessible(page: Page, what: string) {
  const named = new Set(['region', 'landmark-unique', 'scrollable-region-focusable', 'color-contrast'])
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze()
  const findings = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || named.has(v.id))
    .flatMap((v) => v.nodes.map((n) => `${what}: ${v.id} (${v.impact}): ${n.target.join(' ')}`))
  expect(findings).toEqual([])
  // Nothing wider than the phone: wide tables scroll inside their own box.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
}

const figure = (page: Page, name: string) => page.locator(`[data-figure="${name}"] dd`).first()

/** '₱5,250.00' -> 525000 centavos. */
function centavos(text: string | null): number {
  const match = /^(-?)₱([\d,]+)\.(\d{2})$/.exec((text ?? '').trim())
  if (!match) throw new Error(`not an amount: ${text}`)
  const value = Number(match[2]!.replace(/,/g, '')) * 100 + Number(match[3])
  return match[1] ? -value : value
}

/** A fresh client with an active loan of PHP 5 000, on my loan. */
async function clientWithLoan(page: Page, request: APIRequestContext) {
  const client = await readyClient(request)
  await logInAndApply(page, client, /\/registration\/summary$/)
  await signAndSeeLoan(page, client, '5,000.00', outboxCode(request, admin))
  await expect(figure(page, 'payment-reference')).toHaveText(/^\d{10}$/)
  return client
}

/** The session token the browser holds (cookie auth.token), for the API calls the test makes as the client. */
async function clientToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'auth.token')
  if (!cookie) throw new Error('no auth.token cookie')
  return decodeURIComponent(cookie.value)
}

/** What My loan shows as owed today, by part, in centavos. */
async function partsOnMyLoan(page: Page) {
  const part = async (name: string) =>
    (await page.locator(`[data-figure="${name}"]`).count())
      ? centavos(await figure(page, name).textContent())
      : 0
  return {
    penalties: await part('part-penalty'),
    fees: await part('part-fees'),
    interest: await part('part-interest'),
    principal: await part('part-principal'),
  }
}

/** The sandbox gateway receives a payment at a channel and sends its signed webhook to Hiram. */
async function sandboxPayment(
  request: APIRequestContext,
  reference: string,
  amount: number,
  channel: string,
) {
  const answer = await request.post('/web/private/back-office/sandbox/payments', {
    headers: { authorization: `Bearer ${admin}` },
    data: { reference, amount, channel },
  })
  expect(answer.status(), await answer.text()).toBe(200)
  return (await answer.json()).data as { chargeId: string; delivered: boolean }
}

test('pays in full through the e-wallet checkout: the loan is paid and the client borrows again as a repeat client', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000)
  await clientWithLoan(page, request)
  const due = (await figure(page, 'amount-due').textContent())!.trim()

  // My loan -> Pay in full -> GCash: the payment intention, then the gateway's checkout.
  await page.getByRole('link', { name: 'Pay in full' }).click()
  await expect(page).toHaveURL(/\/profile\/repayment$/)
  await expect(page.getByLabel(`Pay in full: ${due}`)).toBeChecked()
  await page.getByRole('radio', { name: 'GCash' }).check()
  const intention = page.waitForResponse(
    (r) => r.url().endsWith('/web/private/client/payment-intention') && r.request().method() === 'POST',
  )
  await page.getByRole('button', { name: 'Show me how to pay' }).click()
  expect((await intention).request().postDataJSON()).toEqual({ purpose: 'full_repayment', channel: 'gcash' })
  await expect(page.getByRole('heading', { name: `Pay ${due} with GCash` })).toBeVisible()
  await expectAccessible(page, 'repayment instructions')
  await page.getByRole('link', { name: 'Continue to GCash' }).click()

  // The sandbox gateway's page: no money moves; Pay.
  await expect(page).toHaveURL(/\/sandbox\/checkout\/chg_[A-Za-z0-9]+$/)
  await expect(page.getByRole('note', { name: 'Sandbox: no money moves' })).toBeVisible()
  await expect(figure(page, 'merchant')).toHaveText(/^Hiram/)
  await expect(figure(page, 'amount')).toHaveText(due)
  await expect(figure(page, 'channel')).toHaveText('GCash')
  await expectAccessible(page, 'sandbox checkout')
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(page.getByText(/Payment successful/)).toBeVisible()
  await page.getByRole('link', { name: 'Back to Hiram' }).click()

  // Back at Hiram (My loan, the checkout's return): the webhook posts the payment, the loan is paid, and the
  // journey, not the page, moves the client on: my loan -> the no-loan page (no_loan_page, closed loans).
  await expect(page).toHaveURL(/\/profile\/no-loan$|\/application\/apply$/, { timeout: 30_000 })
  const token = await clientToken(page)
  await expect
    .poll(
      async () => {
        const answer = await request.get('/web/private/client', {
          headers: { authorization: `Bearer ${token}` },
        })
        return ((await answer.json()).data as { closedLoansCount?: number }).closedLoansCount
      },
      { timeout: 30_000 },
    )
    .toBe(1)
  await page.goto('/profile/no-loan')
  await expect(page).toHaveURL(/\/profile\/no-loan$/)

  // A repeat client: a logged-in client is offered only the tab their history gives (spec section 2, Loan
  // calculator; domain/calculator-rules.ts offeredTabs), here the repeat-client one, with its limits: more than a
  // first loan's PHP 10 000 and up to 60 days.
  const calculator = page.getByRole('region', { name: 'Loan calculator' }).last()
  await expect(calculator.getByRole('tab', { name: 'New client' })).toHaveCount(0)
  await expect(calculator.getByText('Welcome back. Your repayment history is already on file.')).toBeVisible()
  const amount = calculator.getByRole('slider', { name: 'Amount' })
  await expect.poll(async () => Number(await amount.getAttribute('max'))).toBeGreaterThan(1_000_000)
  await expect(calculator.getByRole('slider', { name: 'Term' })).toHaveAttribute('max', '60')
  await expect(calculator.getByRole('button', { name: 'Apply now' })).toBeVisible()
})

test('a partial payment at a payment centre lowers the outstanding in the allocation order', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000)
  await clientWithLoan(page, request)
  const reference = (await figure(page, 'payment-reference').textContent())!.trim()
  const before = await partsOnMyLoan(page)
  expect(before.penalties).toBe(0)
  expect(before.fees).toBeGreaterThan(0)
  expect(before.principal).toBe(500_000)

  // Enough for the penalties, the fees, the interest and ₱123.45 of principal: principal is paid last.
  const toPrincipal = 12_345
  const amount = before.penalties + before.fees + before.interest + toPrincipal
  const sent = await sandboxPayment(request, reference, amount, 'seven_eleven')
  expect(sent.chargeId).toBeTruthy()

  // My loan updates by itself (the payment watch): a toast and the new parts.
  await expect(page.getByText(`Payment of ${formatPhp(amount)} received`)).toBeVisible({ timeout: 30_000 })
  await expect(figure(page, 'part-principal')).toHaveText(formatPhp(before.principal - toPrincipal))
  await expect(figure(page, 'part-fees')).toHaveText('₱0.00')
  await expect(figure(page, 'part-interest')).toHaveText('₱0.00')
  await expect(page.locator('[data-figure="part-penalty"]')).toHaveCount(0)
  await expect(figure(page, 'amount-due')).toHaveText(formatPhp(before.principal - toPrincipal))

  // The history says where the money went, in that order.
  const row = page.getByRole('table', { name: 'Your payments' }).getByRole('row').nth(1)
  await expect(row.getByRole('cell').nth(1)).toHaveText(formatPhp(amount))
  await expect(row.getByRole('cell').nth(2)).toHaveText('7-Eleven (CLiQQ)')
  const applied = [
    before.fees ? `Fees ${formatPhp(before.fees)}` : null,
    before.interest ? `Interest ${formatPhp(before.interest)}` : null,
    `Principal ${formatPhp(toPrincipal)}`,
  ].filter(Boolean)
  await expect(row.getByRole('cell').nth(3)).toHaveText(applied.join(' · '))

  // The statement shows the allocation lines.
  const statement = page.getByRole('table', { name: 'Statement of account entries' })
  await expect(statement.getByRole('row').filter({ hasText: 'Payment applied: principal' })).toHaveCount(1)
  await expect(statement.getByRole('row').filter({ hasText: 'Payment applied: fees' })).toHaveCount(1)
  await expectAccessible(page, 'my loan with a payment')

  // The repayment form with another amount: labelled, and refused above what is owed today.
  await page.getByRole('link', { name: 'Pay another amount' }).click()
  await expect(page).toHaveURL(/\/profile\/repayment\?amount=custom$/)
  const field = page.getByLabel('Amount in pesos')
  await expect(field).toBeFocused()
  await field.fill('999999')
  await page.getByRole('radio', { name: 'ECPay' }).check()
  await page.getByRole('button', { name: 'Show me how to pay' }).click()
  await expect(page.locator('[data-error-key="error-amount-max"]')).toBeVisible()
  await expectAccessible(page, 'repayment form with an error')
})

test('an overpayment becomes the client’s credit and is refunded', async ({ page, request }) => {
  test.setTimeout(180_000)
  await clientWithLoan(page, request)
  const reference = (await figure(page, 'payment-reference').textContent())!.trim()
  const payoff = centavos(await figure(page, 'amount-due').textContent())
  const token = await clientToken(page)
  const headers = { authorization: `Bearer ${token}` }
  const loan = (await (await request.get('/web/private/client/loan/active', { headers })).json()).data as {
    id: number
  }

  const extra = 50_000
  await sandboxPayment(request, reference, payoff + extra, 'bayad')
  await expect(page.getByText(`Payment of ${formatPhp(payoff + extra)} received`)).toBeVisible({
    timeout: 30_000,
  })

  // The statement: the loan is paid, the surplus was kept as credit, then refunded to the payout account.
  type Entry = { kind: string; part: string; amount: number; creditAfter: number }
  const statement = async () =>
    (await (await request.get(`/web/private/client/loan/${loan.id}/statement`, { headers })).json()).data as {
      balances: { credit: number; principal: number; interest: number; fees: number; penalties: number }
      entries: Entry[]
    }
  await expect
    .poll(
      async () => (await statement()).entries.some((e) => e.kind === 'overpayment' && e.amount === extra),
      {
        timeout: 30_000,
      },
    )
    .toBe(true)
  await expect
    .poll(async () => (await statement()).entries.some((e) => e.kind === 'refund' && e.amount === -extra), {
      timeout: 30_000,
    })
    .toBe(true)
  const settled = await statement()
  expect(settled.balances).toEqual({ principal: 0, interest: 0, fees: 0, penalties: 0, credit: 0 })
  // Nothing owed, the credit held at its peak was exactly the surplus.
  expect(Math.max(...settled.entries.map((e) => e.creditAfter))).toBe(extra)

  // The journey moves the client off my loan: the loan is paid.
  await expect(page).toHaveURL(/\/profile\/no-loan$|\/application\/apply$/, { timeout: 30_000 })
})

test('a checkout the sandbox gateway does not know is the 404 page', async ({ page }) => {
  for (const path of ['/sandbox/checkout/chg_unknown0000000000', '/sandbox/checkout/not-a-charge']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1, name: 'This page could not be found' })).toBeVisible()
  }
})
