/**
 * Applying in a real browser (issue 6 items 1 and 6): the demo client lands on its ready-to-apply step, and a
 * fresh client of its own walks the approved path: apply, the decision, the summary and signing with the
 * code from the sandbox outbox, and the active loan on my loan. The destructive path uses its own client: the
 * demo client is shared by the other tests of the run (one database per run).
 */
import { expect, test } from '@playwright/test'
import { adminToken, logInAsClient, readyClient, useDemoDevice } from './clients'
import { applyInBrowser, outboxCode, signAndSeeLoan } from './journey-steps'
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
  const sent = await applyInBrowser(page)
  expect(sent.headers()['idempotency-key']).toMatch(/^apply-/)
  expect(sent.postDataJSON()).toMatchObject({
    loanAmount: { amount: 500_000, currency: 'PHP' },
    term: { value: 30, unit: 'day' },
    consents: { acceptBorrowersAdvantagePackageFee: true },
  })

  // The journey moves the client on: the loading page while the decision runs (gone at once when the sandbox
  // decides before the page asks), then the summary to sign.
  await signAndSeeLoan(page, client, '5 000.00', outboxCode(request, admin))
})
