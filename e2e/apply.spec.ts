/**
 * Applying in a real browser (issue 6 items 1 and 6): the demo client lands on its ready-to-apply step, and a
 * fresh client of its own walks the approved path: apply, the loading page, the summary and signing with the
 * code from the sandbox outbox, and the active loan on my loan. The destructive path uses its own client: the
 * demo client is shared by the other tests of the run (one database per run).
 */
import { expect, test } from '@playwright/test'
import { adminToken, lastCode, logInAsClient, readyClient, useDemoDevice } from './clients'
import { watchConsole } from './support'

test('the demo client logs in and lands on the apply page of its step', async ({ page }) => {
  const errors = watchConsole(page)
  await useDemoDevice(page)
  await logInAsClient(page, '09170000001', 'demo1234')
  await page.goto('/application/apply')
  await expect(page).toHaveURL(/\/application\/apply$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Apply for a loan' })).toBeVisible()
  await expect(page.getByRole('checkbox', { name: 'Add the borrowers advantage package' })).toBeChecked()
  await expect(page.getByLabel('Promo code', { exact: false }).first()).toBeVisible()
  await expect(page.getByRole('button', { name: 'Apply', exact: true }).last()).toBeEnabled()
  await page.waitForLoadState('networkidle')
  expect(errors).toEqual([])
})

test('a ready client applies, is approved, signs with the SMS code and sees the active loan', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000)
  const admin = await adminToken(request)
  const client = await readyClient(request, 'Juan')
  await logInAsClient(page, client.phone, client.password)
  await page.goto('/application/apply')
  await expect(page).toHaveURL(/\/application\/apply$/)

  // The application is what the calculator says: PHP 5 000 for 30 days, with the package (the defaults).
  await expect(page.getByText('₱5 000.00 for 30 days')).toBeVisible()
  const form = page.getByRole('form', { name: 'Apply' })
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/web/private/client/application') && r.request().method() === 'POST',
  )
  await form.getByRole('button', { name: 'Apply', exact: true }).click()
  const answer = await created
  expect(answer.status()).toBe(201)
  expect(answer.request().headers()['idempotency-key']).toMatch(/^apply-/)
  expect(answer.request().postDataJSON()).toMatchObject({
    loanAmount: { amount: 500_000, currency: 'PHP' },
    term: { value: 30, unit: 'day' },
    consents: { acceptBorrowersAdvantagePackageFee: true },
  })

  // The journey moves the client: the loading page while the decision runs, then the summary to sign.
  await expect(page).toHaveURL(/\/application\/loading$/)
  await expect(page).toHaveURL(/\/registration\/summary$/, { timeout: 30_000 })
  await expect(page.getByRole('heading', { level: 1, name: 'Review and sign' })).toBeVisible()

  // One SMS code a minute per phone: the sign-up code was the last one.
  await page.waitForTimeout(Math.max(0, Date.parse(client.nextCodeAt) - Date.now() + 1000))
  await page.getByRole('button', { name: 'Send me the code' }).click()
  await expect(page.getByRole('button', { name: 'Send a new code' })).toBeVisible()
  await page.getByLabel('Code from the SMS').fill(await lastCode(request, admin, client.phone))
  await page.getByRole('button', { name: 'Sign the agreement' }).click()

  // Signed: the payout runs as a job, and the journey ends on my loan with the active loan.
  await expect(page).toHaveURL(/\/profile\/my-loan$/, { timeout: 30_000 })
  await expect(page.locator('[data-figure="principal"] dd')).toContainText('5 000.00')
  await expect(page.locator('[data-figure="due-date"] dd')).toHaveText(/^[A-Z][a-z]+ \d{2}, \d{4}$/)
})
