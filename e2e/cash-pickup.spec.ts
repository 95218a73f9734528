/**
 * Cash pickup in a real browser (issue 14 item 3): a client whose payout account is a cash pickup (the sandbox
 * payout provider answers it with a pickup number, server/providers/payout.ts) applies, signs, and the journey
 * lands on /application/accepted-cash with the pickup number, whose "how to claim" opens /application/cash-pickup.
 * The flow-sync machine loads the actual application for the tmc_page step, whose destination is a choice on "the payout is a cash pickup and its pickup number
 * exists" (domain/journey/destinations.ts); without it the client landed on /application/accepted.
 */
import type { Page } from '@playwright/test'
import { adminToken, lastCode, readyClient } from './clients'
import { expect, test } from './fixtures'
import { logInAndApply } from './journey-steps'

/**
 * On /registration/summary: asks for the signing code (one SMS code a minute per phone, a second on the e2e
 * server: too soon after the sign-up SMS the screen counts the wait down and offers the button again) and signs
 * with it.
 */
async function sign(page: Page, readCode: () => Promise<string>) {
  await expect(page).toHaveURL(/\/registration\/summary$/, { timeout: 30_000 })
  const send = page.getByRole('button', { name: 'Send me the code' })
  const resend = page.getByRole('button', { name: 'Send a new code' })
  const tooSoon = page.locator('[data-error-key="codeMinuteLimit"]')
  await send.click()
  await expect(resend.or(tooSoon)).toBeVisible()
  if (await tooSoon.isVisible()) {
    // The e2e server's interval is a second (playwright.config.ts); the real minute would not fit here.
    await expect(send).toBeEnabled({ timeout: 15_000 })
    await send.click()
  }
  await expect(resend).toBeVisible()
  await page.getByLabel('Code from the SMS').fill(await readCode())
  await page.getByRole('button', { name: 'Sign the agreement' }).click()
}

test('cash pickup: the signed loan waits at the counter and the journey shows the pickup number', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000)
  const admin = await adminToken(request)
  const client = await readyClient(request, 'Juan', { type: 'cash_pickup', provider: 'cebuana' })

  await logInAndApply(page, client, /\/registration\/summary$/)
  // The application as the app reads it once the payout is done: its answer carries the pickup number.
  const actual = page.waitForResponse(
    async (r) =>
      r.url().endsWith('/web/private/client/application/actual') &&
      r.ok() &&
      !!(await r.json()).data?.cashPickupNumber,
    { timeout: 120_000 },
  )
  await sign(page, () => lastCode(request, admin, client.phone))

  // Signed: the payout job answers a cash pickup, the step becomes tmc_page, and the journey routes by the
  // application to the accepted-cash page (spec section 2, tmc_page), not /application/accepted.
  await expect(page).toHaveURL(/\/application\/accepted-cash$/, { timeout: 45_000 })
  await expect(page.getByRole('heading', { level: 1, name: 'Your cash loan is approved' })).toBeVisible()
  const number = page.locator('[data-figure="cash-pickup-number"] dd')
  await expect(number).toHaveText(/^CP\d{10}$/)
  const answered = (await (await actual).json()).data as { cashPickupNumber: string }
  await expect(number).toHaveText(answered.cashPickupNumber)

  // How to claim: the cash-pickup page, a page the step allows beside it, says where to go and what to bring.
  await page.getByRole('link', { name: 'How to claim your cash' }).click()
  await expect(page).toHaveURL(/\/application\/cash-pickup$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Pick up your cash' })).toBeVisible()
  await expect(number).toHaveText(answered.cashPickupNumber)
  // The application names the partner the client chose, so the page says where to go.
  await expect(page.locator('[data-figure="provider"]')).toContainText('Cebuana Lhuillier')
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'Pick up your cash' })).toBeVisible()

  // The journey keeps the client there: my loan and the accepted page route back to the accepted-cash page.
  for (const path of ['/profile/my-loan', '/application/accepted']) {
    await page.goto(path)
    await expect(page).toHaveURL(/\/application\/accepted-cash$/, { timeout: 30_000 })
  }
  await expect(number).toHaveText(answered.cashPickupNumber)
})
