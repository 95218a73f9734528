/**
 * The apply page in a real browser (issue 6 items 1 and 6): the demo client lands on its ready-to-apply step.
 * Applying, with every decision outcome through to the loan, is e2e/offer-outcomes.spec.ts; those tests use
 * clients of their own, since the demo client is shared by the other tests of the run (one database per run).
 */
import { logInAsClient, useDemoDevice } from './clients'
import { expect, test } from './fixtures'
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
  await expect(page.getByRole('button', { name: 'Apply', exact: true })).toBeEnabled()
  await expect(page.getByRole('button', { name: 'Apply the promo code' })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(errors).toEqual([])
})
