/**
 * Configuration with maker-checker in a real browser (issue 19 item 6, "Done when"): an administrator proposes a
 * pricing change on /admin/config, sees before sending what it does to sample offers and why an unlawful value
 * would be refused; a second administrator, in a browser of their own, approves it; the version history shows it.
 * The change takes effect years from now, so the offers other specs price meanwhile stay the same.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { staffPage } from './staff'

/** axe's serious and critical findings on the page as it stands: none; nothing wider than a phone. */
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
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 1280,
  )
}

test('an administrator proposes a pricing change and a second administrator approves it', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000)
  const maker = await staffPage(browser, request, 'administrator')
  const checker = await staffPage(browser, request, 'administrator')
  await maker.setViewportSize({ width: 360, height: 740 })

  await maker.goto('/admin')
  await maker.getByRole('link', { name: 'Configuration' }).click()
  await expect(maker.getByRole('heading', { level: 1, name: 'Configuration' })).toBeVisible()
  await expect(maker.getByLabel('Document')).toHaveValue('pricing')
  const rate = maker.getByLabel('interestPpmPerDay.new', { exact: true })
  await expect(rate).toHaveValue(/^\d+$/)
  const before = Number(await rate.inputValue())

  // An unlawful rate: refused before sending, with the cap it breaks.
  await rate.fill('2500')
  const refusal = maker.getByRole('alert', { name: 'This change would be refused:' })
  await expect(refusal).toBeVisible()
  await expect(refusal.getByText('pricing.interestPpmPerDay')).not.toHaveCount(0)

  // A lawful one: the sample offers show the totals now and with the change.
  await rate.fill(String(before - 100))
  await expect(refusal).toHaveCount(0)
  const samples = maker.getByRole('region', { name: 'Sample offers: total to repay before and after' })
  await expect(samples.getByText('changed')).not.toHaveCount(0)
  const years = new Date(Date.now() + 5 * 365 * 86_400_000)
  const local = `${years.getUTCFullYear()}-06-01T09:00`
  await maker.getByLabel('Takes effect at (Manila time)').fill(local)
  await maker.getByLabel('Note for the approver').fill('E2E: a lower new-client rate, years from now')
  await expectAccessible(maker, 'config form')
  await maker.getByRole('button', { name: 'Propose the change' }).click()
  const sent = maker.getByRole('status').filter({ hasText: /Proposal \d+ sent/ })
  await expect(sent).toBeVisible()
  const id = /Proposal (\d+) sent/.exec((await sent.textContent()) ?? '')![1]!
  // The proposer cannot approve their own.
  const mine = maker.getByRole('article', { name: new RegExp(`Proposal ${id}:`) })
  await expect(mine.getByText('Your proposal: another administrator must decide it.')).toBeVisible()
  await expect(mine.getByRole('button', { name: `Approve proposal ${id}` })).toHaveCount(0)

  await checker.goto('/admin/config')
  const theirs = checker.getByRole('article', { name: new RegExp(`Proposal ${id}:`) })
  await expect(theirs).toBeVisible()
  await expect(theirs.getByText('E2E: a lower new-client rate, years from now')).toBeVisible()
  await expectAccessible(checker, 'config proposals')
  await theirs.getByRole('button', { name: `Approve proposal ${id}` }).click()
  await expect(theirs).toHaveCount(0)
  const history = checker.getByRole('region', { name: 'Version history' })
  const row = history.getByRole('row').filter({ hasText: 'E2E: a lower new-client rate, years from now' })
  await expect(row).toContainText('Scheduled')
  await expect(row).toContainText('Pricing')

  // The offers priced today are unchanged: the version in force is still the one before.
  await maker.reload()
  await expect(maker.getByLabel('interestPpmPerDay.new', { exact: true })).toHaveValue(String(before))
  await maker.context().close()
  await checker.context().close()
})
