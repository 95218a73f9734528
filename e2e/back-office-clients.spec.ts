/**
 * The client desk in a real browser (issue 19, "Done when"): a support user finds a client by payment reference
 * and sees the whole timeline. The client is registered over the API (e2e/clients.ts), applies and signs in the
 * browser (e2e/journey-steps.ts) until the active loan shows on My loan with its payment reference; then a support
 * user (e2e/staff.ts) searches that reference at 360 px, opens the client's file and reads every step of the
 * journey and of the loan, the loan's ledger and the documents. Both pages are checked with axe; support's
 * actions show, collections' promise form does not.
 */

import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { formatPhone } from '../domain/format'
import { adminToken, readyClient } from './clients'
import { expect, test } from './fixtures'
import { logInAndApply, outboxCode, signAndSeeLoan } from './journey-steps'
import { staffPage } from './staff'

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

test('a support user finds a client by payment reference and sees the whole timeline', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000)
  const admin = await adminToken(request)
  const client = await readyClient(request)
  await logInAndApply(page, client, /\/registration\/summary$/)
  await signAndSeeLoan(page, client, '5,000.00', outboxCode(request, admin))
  const reference =
    (await page.locator('[data-figure="payment-reference"] dd').first().textContent())?.trim() ?? ''
  expect(reference).toMatch(/^\d{10}$/)

  const support = await staffPage(browser, request, 'support')
  await support.setViewportSize({ width: 360, height: 740 })
  await support.goto('/admin')
  await support.getByRole('link', { name: 'Clients', exact: true }).click()
  await expect(support).toHaveURL(/\/admin\/clients$/)
  await expect(support.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible()

  await support.getByRole('searchbox', { name: 'Find a client' }).fill(reference)
  await support.getByRole('button', { name: 'Search', exact: true }).click()
  const results = support.getByRole('region', { name: 'Clients found (scrolls sideways)' })
  await expect(results.getByRole('row')).toHaveCount(2)
  await expect(results.getByRole('row').nth(1)).toContainText(reference)
  await expect(results.getByRole('row').nth(1)).toContainText(formatPhone(client.phone))
  await expectAccessible(support, 'client search')

  await results.getByRole('link', { name: /Juan Dela Cruz/ }).click()
  await expect(support).toHaveURL(/\/admin\/clients\/\d+$/)
  const profile = support.getByRole('region', { name: 'Profile and status' })
  await expect(profile).toContainText(reference)
  await expect(profile).toContainText('loan_page')

  // The whole timeline: every step the server recorded for the client, from the sign-up's first to My loan and the
  // loan's own steps, is on the page with its call.
  const timeline = support.getByRole('region', { name: 'Timeline (scrolls sideways)' })
  await expect(timeline).toContainText('new_client_created')
  const clientId = Number(/\/admin\/clients\/(\d+)$/.exec(support.url())?.[1])
  const recorded = await request.get(`/web/private/back-office/clients/${clientId}/timeline`, {
    headers: { authorization: `Bearer ${admin}` },
    params: { perPage: 500 },
  })
  const steps = (await recorded.json()).data as { machine: string; fromState: string; toState: string }[]
  expect(steps.filter((step) => step.toState === 'loan_page').length).toBeGreaterThan(0)
  for (const step of steps.filter((s) => s.machine === 'clientJourney' && s.fromState !== s.toState))
    await expect(timeline.getByRole('cell', { name: new RegExp(`→ ${step.toState}$`) }).first()).toBeVisible()
  await expect(timeline.getByRole('cell', { name: /^draft → active/ })).toBeVisible()
  await expect(timeline.getByRole('cell', { name: /^PUT \/web\/private\/client/ }).first()).toBeVisible()

  // The loan with its ledger, and the documents the client signed.
  await expect(support.getByRole('heading', { level: 3, name: /^Loan L\d{8}$/ })).toBeVisible()
  await expect(support.getByRole('region', { name: /^Ledger of loan L\d{8}/ })).toContainText('disbursement')
  const documents = support.getByRole('region', { name: 'Documents (scrolls sideways)' })
  await expect(documents).toContainText('loan_agreement')
  await documents.getByRole('button', { name: 'Preview loan_agreement' }).click()
  await expect(documents.getByRole('link', { name: 'Open loan_agreement (PDF)' })).toBeVisible()

  // Support may resend a code and issue a single link; the promise to pay is collections' work.
  const actions = support.getByRole('region', { name: 'Actions', exact: true })
  await expect(actions.getByRole('button', { name: 'Send the pending code again' })).toBeVisible()
  await expect(actions.getByRole('button', { name: 'Issue a single link' })).toBeVisible()
  await expect(actions.getByRole('form', { name: 'Record a promise to pay' })).toHaveCount(0)
  await actions.getByRole('button', { name: 'Issue a single link' }).click()
  await expect(actions.getByRole('status')).toContainText('/affiliate/sleeper-otp?lead_id=')
  await expect(support.getByRole('region', { name: 'Single-link issues' })).toContainText(/\d/)
  await expectAccessible(support, 'client file')

  // Back returns to the same results.
  await support.goBack()
  await expect(support).toHaveURL(/\/admin\/clients$/)
  await expect(support.getByRole('searchbox', { name: 'Find a client' })).toHaveValue(reference)
  await expect(results.getByRole('row').nth(1)).toContainText(reference)
})
