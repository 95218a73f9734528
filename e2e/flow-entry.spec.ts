/**
 * /flow, the journey's entry (spec section 2, public routes; domain/journey/routing.ts, page `flow`): a link or a
 * bookmark that means "wherever I am". The flow guard and the step table send each kind of user on; the page
 * never navigates by itself.
 */
import { logInAsClient, readyClient } from './clients'
import { expect, test } from './fixtures'
import { watchConsole } from './support'

test('a visitor is sent to registration, with the progress at 30 %', async ({ page }) => {
  const errors = watchConsole(page)
  await page.goto('/flow')
  await expect(page).toHaveURL(/\/registration$/)
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '30')
  await page.waitForLoadState('networkidle')
  expect(errors).toEqual([])
})

test('a client is sent to the page of their step, also when opening /flow after a reload', async ({
  page,
  request,
}) => {
  const errors = watchConsole(page)
  // Registered, no loan yet: the step is no_loan_page, which is the apply page for a first-time client.
  const client = await readyClient(request)
  await logInAsClient(page, client.phone, client.password)
  await expect(page).toHaveURL(/\/profile$/)
  await page.waitForLoadState('networkidle')
  await page.goto('/flow')
  await expect(page).toHaveURL(/\/application\/apply$/, { timeout: 15_000 })
  await expect(page.getByRole('heading', { level: 1, name: 'Apply for a loan' })).toBeVisible()
  // Back does not bounce into /flow again: the entry replaced itself in the history.
  await page.goBack()
  await expect(page).toHaveURL(/\/profile$/)
  await page.waitForLoadState('networkidle')
  expect(errors).toEqual([])
})

test('the marketing parameters of the landing address are kept in the analytics-query cookie for 600 minutes', async ({
  page,
  context,
}) => {
  await page.goto('/?utm_source=fb&utm_campaign=payday&email=someone%40example.ph&gclid=abc')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect
    .poll(async () => (await context.cookies()).find((c) => c.name === 'analytics-query')?.value)
    .toBe(encodeURIComponent('utm_source=fb&utm_campaign=payday&gclid=abc'))
  const cookie = (await context.cookies()).find((c) => c.name === 'analytics-query')!
  const lifetime = cookie.expires - Date.now() / 1000
  expect(lifetime).toBeGreaterThan(600 * 60 - 120)
  expect(lifetime).toBeLessThanOrEqual(600 * 60 + 5)
})
