/**
 * Overdue loans and penalties in a real browser (issue 18, "Done when"): a fresh client takes a PHP 5 000 loan and
 * lands on My loan (e2e/journey-steps.ts); the sandbox clock moves the client's business days past the due date
 * (each skipped day run by the daily servicing run), and My loan shows the loan overdue with the penalty exactly
 * as configured: the configured grace days free, then the configured daily rate of the amount overdue, each day
 * rounded down to the centavo. Moved far enough, the penalty stops at the lifetime cap (all costs together equal
 * the principal) and My loan says no more will be charged. At 360 px, checked with axe.
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

const figure = (page: Page, name: string) => page.locator(`[data-figure="${name}"] dd`).first()

async function clientToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'auth.token')
  if (!cookie) throw new Error('no auth.token cookie')
  return decodeURIComponent(cookie.value)
}

interface Loan {
  principal: { amount: number }
  amountDue: {
    amount: number
    parts: Record<'principal' | 'interest' | 'fees' | 'penalties', { amount: number }>
  }
  repaymentInvoice: { dueDays: number }
  standing: string
  overdueDays: number
  legalRoom: { amount: number }
  penaltyTerms: { enabled: boolean; graceDays: number; ratePpmPerDay: number }
}

async function activeLoan(request: APIRequestContext, token: string): Promise<Loan> {
  const answer = await request.get('/web/private/client/loan/active', {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(answer.status()).toBe(200)
  return (await answer.json()).data as Loan
}

async function moveClock(request: APIRequestContext, clientId: number, days: number) {
  const moved = await request.post('/web/private/back-office/sandbox/clock', {
    headers: { authorization: `Bearer ${admin}` },
    data: { clientId, days },
  })
  expect(moved.status(), await moved.text()).toBe(200)
}

test('an overdue loan: My loan shows the configured penalty, and it stops at the legal cap', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000)
  const client = await readyClient(request)
  await logInAndApply(page, client, /\/registration\/summary$/)
  await signAndSeeLoan(page, client, '5,000.00', outboxCode(request, admin))
  const token = await clientToken(page)
  const me = await request.get('/web/private/client', { headers: { authorization: `Bearer ${token}` } })
  const clientId = ((await me.json()).data as { id: number }).id
  const before = await activeLoan(request, token)
  expect(before.standing).toBe('current')
  await expect(page.getByTestId('overdue-notice')).toHaveCount(0)

  // Three days of penalty: the due date, then the grace days, then three more.
  const { graceDays, ratePpmPerDay } = before.penaltyTerms
  await moveClock(request, clientId, before.repaymentInvoice.dueDays + graceDays + 3)
  const overdue = await activeLoan(request, token)
  expect(overdue.standing).toBe('overdue')
  const parts = overdue.amountDue.parts
  const owed = parts.principal.amount + parts.interest.amount + parts.fees.amount
  const expected = 3 * Math.floor((owed * ratePpmPerDay) / 1_000_000)
  expect(parts.penalties.amount).toBe(expected)

  await page.goto('/profile/my-loan')
  const notice = page.getByRole('region', { name: 'Your payment is overdue' })
  await expect(notice).toBeVisible({ timeout: 30_000 })
  await expect(notice).toContainText(`${graceDays + 3} days`)
  await expect(notice).toContainText(`${ratePpmPerDay / 10_000}% a day`)
  await expect(figure(page, 'part-penalty')).toHaveText(formatPhp(expected))
  await expect(figure(page, 'amount-due')).toHaveText(formatPhp(owed + expected))
  await expect(figure(page, 'days-left')).toHaveText(`${graceDays + 3} days overdue`)
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze()
  expect(
    results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

  // Far past the due date: the penalty stops where all costs together reach the principal.
  await moveClock(request, clientId, 400)
  await moveClock(request, clientId, 400)
  const capped = await activeLoan(request, token)
  expect(capped.legalRoom.amount).toBe(0)
  const p = capped.amountDue.parts
  const charges = p.interest.amount + p.fees.amount + p.penalties.amount
  expect(charges).toBe(capped.principal.amount)
  await page.reload()
  await expect(notice).toContainText('no more penalties will be charged', { timeout: 30_000 })
  await expect(figure(page, 'part-penalty')).toHaveText(formatPhp(p.penalties.amount))
})
