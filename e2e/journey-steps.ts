/**
 * The browser steps of applying and signing that every decision-outcome test shares (e2e/offer-outcomes.spec.ts,
 * e2e/back-office.spec.ts): apply with the calculator's figures, and sign the summary with the code from the
 * sandbox outbox until the active loan shows on my loan.
 */
import { type APIRequestContext, expect, type Page, type Request } from '@playwright/test'
import { lastCode, logInAsClient, messageCount, newCode, type ReadyClient } from './clients'

/** Sends the apply form as it stands and returns the request the browser sent (answered 201). */
export async function applyInBrowser(page: Page): Promise<Request> {
  const form = page.getByRole('form', { name: 'Apply' })
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/web/private/client/application') && r.request().method() === 'POST',
  )
  await form.getByRole('button', { name: 'Apply', exact: true }).click()
  const answer = await created
  expect(answer.status()).toBe(201)
  return answer.request()
}

/**
 * Logs a ready client in, applies for the apply page's defaults (PHP 5 000 for 30 days) and waits for the
 * journey to land on `decided` once the decision is taken.
 */
export async function logInAndApply(page: Page, client: ReadyClient, decided: RegExp) {
  await logInAsClient(page, client.phone, client.password)
  await page.goto('/application/apply')
  await expect(page.getByText('₱5 000.00 for 30 days')).toBeVisible()
  await applyInBrowser(page)
  await expect(page).toHaveURL(decided, { timeout: 30_000 })
}

/** The SMS code the client reads: by default the newest in the sandbox outbox, read over the API. */
export const outboxCode = (request: APIRequestContext, admin: string) => (client: ReadyClient) =>
  lastCode(request, admin, client.phone)

/**
 * On /registration/summary: reads the Truth in Lending figures on the screen, signs (`signSummary`) and waits for
 * the payout to leave the active loan of `principal` on my loan.
 */
export async function signAndSeeLoan(
  page: Page,
  client: ReadyClient,
  principal: string,
  readCode: (client: ReadyClient) => Promise<string>,
) {
  await expect(page).toHaveURL(/\/registration\/summary$/, { timeout: 30_000 })
  await expect(page.getByRole('heading', { level: 1, name: 'Review and sign' })).toBeVisible()
  const disclosure = page.getByLabel('What your loan costs', { exact: true })
  await expect(disclosure.locator('[data-figure="principal"] dd')).toContainText(principal)
  for (const line of ['interest', 'processing-fee', 'package-fee', 'finance-charge', 'total'])
    await expect(disclosure.locator(`[data-figure="${line}"] dd`)).toHaveText(/^₱[\d,]+\.\d{2}/)
  await expect(disclosure.locator('[data-figure="due-date"] dd')).toHaveText(/^[A-Z][a-z]+ \d{2}, \d{4}$/)
  await expect(disclosure.locator('[data-figure="effective-rate"] dd')).toHaveText(
    /^\d+\.\d{2}% a month \(\d+\.\d{2}% a year\)$/,
  )
  await expect(
    page.getByRole('region', { name: "The borrower's advantage package is optional" }),
  ).toBeVisible()

  await signSummary(page, client, readCode)

  // Signed: the payout runs as a job, and the journey ends on my loan with the active loan.
  await expect(page).toHaveURL(/\/profile\/my-loan$/, { timeout: 30_000 })
  await expect(page.locator('[data-figure="principal"] dd')).toContainText(principal)
  await expect(page.locator('[data-figure="due-date"] dd')).toHaveText(/^[A-Z][a-z]+ \d{2}, \d{4}$/)
}

/**
 * On the summary: asks for the signing code (one SMS code a minute per phone, a second on the e2e server: asked
 * for too soon after the sign-up SMS, the screen counts the wait down and offers the button again, issue 13) and
 * signs with the code `readCode` finds. What follows (the payout) is the caller's to wait for.
 */
export async function signSummary(
  page: Page,
  client: ReadyClient,
  readCode: (client: ReadyClient) => Promise<string>,
) {
  const send = page.getByRole('button', { name: 'Send me the code' })
  const resend = page.getByRole('button', { name: 'Send a new code' })
  const tooSoon = page.locator('[data-error-key="codeMinuteLimit"]')
  await send.click()
  await expect(resend.or(tooSoon)).toBeVisible()
  if (await tooSoon.isVisible()) {
    // Not "Something went wrong": the wait, counted down, then the button again.
    await expect(page.getByText(/^You can ask for a new code in \d+ s\.$/)).toBeVisible()
    await expect(send).toBeDisabled()
    // The e2e server's interval is a second (playwright.config.ts); the real minute would not fit here.
    await expect(send).toBeEnabled({ timeout: 15_000 })
    await send.click()
  }
  await expect(resend).toBeVisible()
  await page.getByLabel('Code from the SMS').fill(await readCode(client))
  await page.getByRole('button', { name: 'Sign the agreement' }).click()
}

/**
 * On "Sign the payment schedule": asks for the amendment code (counting the wait down when asked too soon after the
 * last code), signs with the new code the outbox holds for `phone`, and accepts the schedule.
 */
export async function signSchedule(page: Page, request: APIRequestContext, admin: string, phone: string) {
  const sentBefore = await messageCount(request, admin, phone)
  await page.getByRole('button', { name: 'Prepare my documents and send the code' }).click()
  const code = page.getByLabel('Code from the SMS')
  const tooSoon = page.locator('[data-error-key="codeMinuteLimit"]')
  await expect(code.or(tooSoon)).toBeVisible({ timeout: 30_000 })
  if (await tooSoon.isVisible())
    await page.getByRole('button', { name: /code/ }).first().click({ timeout: 30_000 })
  await expect(code).toBeVisible({ timeout: 30_000 })
  await code.fill(await newCode(request, admin, phone, sentBefore))
  await page.getByRole('button', { name: 'Accept the payment schedule' }).click()
}
