/**
 * Issue 19 item 4, done-when: an underwriter approves from the queue and cannot change the configuration
 * (docs/decisions/0036-review-queue.md). A client named "Manual" (sandbox scoring: status 14) applies and waits;
 * an underwriter logs in, finds the application among the unassigned ones, takes it, finds it again under
 * "assigned to me" and approves it with a reason. The underwriter may read the configuration but its screen offers
 * no change, and the configuration API refuses a change with the underwriter's own token (403).
 */

import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { formatPhone } from '../domain/format'
import { readyClient } from './clients'
import { expect, test } from './fixtures'
import { logInAndApply } from './journey-steps'
import { staffPage } from './staff'
import { watchConsole } from './support'

/** The Bearer token the page sends: the session lives in memory only, so read it off the page's own calls. */
function watchToken(page: Page): () => string | null {
  let token: string | null = null
  page.on('request', (request) => {
    const authorization = request.headers().authorization
    if (request.url().includes('/web/private/back-office/') && authorization)
      token = authorization.replace(/^Bearer\s+/i, '')
  })
  return () => token
}

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
}

test('an underwriter approves from the queue and cannot change the configuration', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(150_000)
  const client = await readyClient(request, 'Manual')
  await logInAndApply(page, client, /\/application\/manual-verification$/)

  const underwriter = await staffPage(browser, request, 'underwriter')
  const tokenOf = watchToken(underwriter)
  const errors = watchConsole(underwriter)
  const queue = underwriter.getByRole('region', { name: 'Review queue' })
  const filters = queue.getByRole('form', { name: 'Filter the review queue' })

  // Among the unassigned applications: take it.
  await filters.getByLabel('Assigned to').selectOption('unassigned')
  await filters.getByRole('button', { name: 'Show applications' }).click()
  const card = queue.getByRole('article').filter({ hasText: formatPhone(client.phone) })
  await expect(card).toContainText('Manual Santos Dela Cruz')
  await expect(card).toContainText('₱5,000.00')
  await expect(card).not.toContainText('Four-eyes approval')
  const title = (await card.getByRole('heading', { level: 3 }).textContent()) ?? ''
  const id = /Application (\d+)/.exec(title)?.[1]
  expect(id).toBeTruthy()
  // An underwriter takes an application for themself; giving it to someone else is an administrator's.
  await expect(card.getByLabel(`Assign application ${id} to user number`)).toHaveCount(0)
  await card.getByRole('button', { name: `Take application ${id}` }).click()
  await expect(queue.getByText(`Application ${id} is assigned to you.`)).toBeVisible()

  // Now it is the underwriter's: under "assigned to me", with the release button instead of take.
  await filters.getByLabel('Assigned to').selectOption('me')
  await filters.getByRole('button', { name: 'Show applications' }).click()
  const mine = queue.getByRole('article', { name: `Application ${id}` })
  await expect(mine.getByRole('button', { name: `Release application ${id}` })).toBeVisible()
  await expect(mine.getByRole('button', { name: `Take application ${id}` })).toHaveCount(0)
  await expectAccessible(underwriter, '/admin as an underwriter')

  await mine.getByLabel('Reason for the decision', { exact: false }).fill('Payslip checked by phone.')
  await mine.getByRole('button', { name: `Approve application ${id}` }).click()
  await expect(queue.getByText(`Application ${id} approved: the client can now sign.`)).toBeVisible()
  await expect(queue.getByRole('article', { name: `Application ${id}` })).toHaveCount(0)

  // The configuration is readable by an underwriter, not changeable: its screen offers no proposal or approval.
  await underwriter.getByRole('link', { name: 'Configuration' }).click()
  await expect(underwriter).toHaveURL(/\/admin\/config$/)
  await expect(underwriter.getByRole('heading', { level: 1, name: 'Configuration' })).toBeVisible()
  await expect(underwriter.getByRole('button', { name: /propose|approve|save/i })).toHaveCount(0)
  await expect(underwriter.getByRole('form')).toHaveCount(0)
  // ...and the API refuses a change with the underwriter's own token, even one that changes nothing.
  const token = tokenOf()
  expect(token).toBeTruthy()
  const headers = { authorization: `Bearer ${token}` }
  const current = await request.get('/web/private/back-office/config/lending', { headers })
  expect(current.status()).toBe(200)
  const pricing = ((await current.json()).data as { pricing?: unknown }).pricing ?? {}
  const change = await request.put('/web/private/back-office/config/pricing', { headers, data: pricing })
  expect(change.status()).toBe(403)
  expect(errors).toEqual([])
})
