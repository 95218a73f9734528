import { expect, test } from './fixtures'
import { expectLayout, watchConsole } from './support'

// The demo lead seeded on every non-production database (README, "Affiliate lead"; docs/decisions/0014).
const DEMO_LEAD = 'de300000-1ead-4000-8000-000000000001'

test('a lead link prefills the sign-up form and keeps the lead id for 3 days', async ({ page, context }) => {
  const errors = watchConsole(page)
  await page.goto(`/registration?lead_id=${DEMO_LEAD}&redirected-from-affiliates=true`)
  await expect(page.getByLabel('Mobile number', { exact: true })).toHaveValue('09170000002')
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue('lead@hiram.local')
  const cookie = (await context.cookies()).find((c) => c.name === 'leadId')
  expect(cookie?.value).toBe(DEMO_LEAD)
  expect(cookie?.path).toBe('/')
  // Max age 259200 seconds (spec section 9): the expiry is about three days from now.
  const secondsLeft = (cookie?.expires ?? 0) - Date.now() / 1000
  expect(secondsLeft).toBeGreaterThan(259_200 - 120)
  expect(secondsLeft).toBeLessThanOrEqual(259_200 + 5)
  expect(errors).toEqual([])
})

test('a lead link with unexpected values is the 404 page', async ({ page }) => {
  for (const query of [
    `lead_id=${DEMO_LEAD}&redirected-from-affiliates=yes`,
    'lead_id=not-a-uuid&redirected-from-affiliates=true',
    `lead_id=${DEMO_LEAD}`,
  ]) {
    await page.goto(`/registration?${query}`)
    await expectLayout(page)
    await expect(page.getByText('This page could not be found')).toBeVisible()
  }
})
