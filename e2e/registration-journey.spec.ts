/**
 * Issue 5 item 8: a new visitor walks the whole registration in the browser, from the calculator on `/` to the
 * point where they can apply. At every step the URL is the one the server's step maps to (ADR 0011: the journey
 * guard moves the client, pages never navigate), checked against `GET /web/private/client/flow` with the page's
 * own token, and a reload on the step lands on the same step.
 *
 * Sandbox data (README): codes from the outbox (back-office token from SANDBOX_ADMIN_DEVICE_ID), identity
 * verification decided by the last name ("Declined" is declined), bank linking with `sandbox` / `sandbox`.
 */
import { deflateSync } from 'node:zlib'
import type { APIRequestContext, BrowserContext, Locator, Page } from '@playwright/test'
import { adminToken, lastCode, uniqueEmail, uniquePhone } from './clients'
import { expect, test } from './fixtures'
import { watchConsole } from './support'

/** A small valid PNG (a 2x2 grey square) made here, so the upload's bytes really are an image. */
function pngPhoto(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([length, body, sum])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(2, 0) // width
  header.writeUInt32BE(2, 4) // height
  header[8] = 8 // bit depth
  header[9] = 0 // greyscale
  const rows = Buffer.from([0, 0x80, 0x80, 0, 0x80, 0x80]) // filter byte + 2 pixels, twice
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** The page's own access token (the auth cookie the app keeps, ADR 0009). */
async function pageToken(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'auth.token')
  if (!cookie) throw new Error('no auth.token cookie in the page')
  return decodeURIComponent(cookie.value).replace(/^Bearer\s+/i, '')
}

async function serverFlow(page: Page, request: APIRequestContext) {
  const answer = await request.get('/web/private/client/flow', {
    headers: { authorization: `Bearer ${await pageToken(page.context())}` },
  })
  expect(answer.status()).toBe(200)
  return (await answer.json()).data as { step: string; status: string }
}

/**
 * The page is on `path`, the server's step is `step` (active), and a reload lands on the same page with its form.
 * `ready` is something only that step's screen shows once it is loaded.
 */
async function expectStep(
  page: Page,
  request: APIRequestContext,
  step: string,
  path: string,
  ready: () => Locator,
) {
  const url = new RegExp(`${path.replace(/\//g, '\\/')}$`)
  await expect(page).toHaveURL(url, { timeout: 15_000 })
  await expect(ready()).toBeVisible()
  expect(await serverFlow(page, request)).toEqual({ step, status: 'active' })
  await page.reload()
  await expect(page).toHaveURL(url)
  await expect(ready()).toBeVisible()
  // Still there after the app has restored the session and fetched the flow again.
  await page.waitForLoadState('networkidle')
  await expect(page).toHaveURL(url)
}

/** Waits until a select (a PSGC level) has its options and picks the first real one. */
async function chooseFirst(select: Locator) {
  await expect(select).toBeEnabled()
  await expect.poll(async () => select.locator('option:not([value=""])').count()).toBeGreaterThan(0)
  const value = await select.locator('option:not([value=""])').first().getAttribute('value')
  await select.selectOption(value!)
}

/** From the calculator to a verified phone, through the sign-up screen. */
async function signUpFromCalculator(page: Page, request: APIRequestContext, admin: string) {
  const phone = uniquePhone()
  const email = uniqueEmail('journey')
  const password = 'Secret123'

  await page.goto('/')
  const calculator = page.getByRole('region', { name: 'Loan calculator' }).last()
  const amount = calculator.getByRole('slider', { name: 'Amount' })
  await expect(amount).toHaveAttribute('aria-valuetext', 'PHP 5 000.00')
  await amount.focus()
  await page.keyboard.press('ArrowRight')
  await expect(amount).toHaveAttribute('aria-valuetext', 'PHP 5 100.00')
  await calculator.getByRole('button', { name: 'Apply now' }).click()
  await expect(page).toHaveURL(/\/registration$/)

  await page.getByLabel('Mobile number', { exact: true }).fill(phone)
  await page.getByLabel('E-mail', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Repeat the password').fill(password)
  await page.getByLabel(/terms and conditions/).check()
  await page.getByLabel(/RA 10173/).check()
  await page.getByRole('button', { name: 'Create my account' }).click()
  // The sign-up hashes the password (argon2) and sends a code: on a loaded CI box that has taken over 10 s.
  await expect(page.getByRole('heading', { name: 'Verify your mobile number' })).toBeVisible({
    timeout: 30_000,
  })
  await page.getByLabel('Verification code').fill(await lastCode(request, admin, phone))
  await page.getByRole('button', { name: 'Verify' }).click()
  return { phone, email }
}

const continueButton = (page: Page) => page.getByRole('button', { name: 'Continue' })

async function fillDetails(page: Page, lastName: string) {
  await page.getByLabel('First name').fill('Maria')
  await page.getByLabel('Last name').fill(lastName)
  await page.getByLabel('Date of birth').fill('05/14/1990')
  await page.getByLabel('Female').check()
  await page.getByLabel('Civil status').selectOption('single')
  await continueButton(page).click()
}

async function fillEmployment(page: Page) {
  await page.getByLabel('Employment type').selectOption('employed_private')
  await page.getByLabel('Company or business name').fill('Acme Trading Inc')
  await page.getByLabel('Monthly income (PHP)').fill('25000')
  await page.getByLabel('Monthly expenses (PHP)').fill('12000')
  await continueButton(page).click()
}

async function fillReference(page: Page) {
  await page.getByLabel('Full name').fill('Jose Santos')
  await page.getByLabel('Relation to you').selectOption('sibling')
  await page.getByLabel('Mobile number').fill('09181234567')
  await continueButton(page).click()
}

async function fillAddress(page: Page) {
  await chooseFirst(page.getByLabel('Region'))
  await chooseFirst(page.getByLabel('Province or city'))
  await chooseFirst(page.getByLabel('City or municipality'))
  await chooseFirst(page.getByLabel('Barangay'))
  await page.getByLabel('House number and street').fill('12 Rizal Street')
  await continueButton(page).click()
}

async function fillDocuments(page: Page) {
  await page.getByLabel('ID type').selectOption('SSS')
  // The mask writes the dashes itself.
  await page.getByLabel('ID number').fill('3412345678')
  await expect(page.getByLabel('ID number')).toHaveValue('34-1234567-8')
  // Photos are taken just before they are sent: the file's time is the capture time the app sends.
  for (const side of ['Front of the ID', 'Back of the ID']) {
    await page.getByLabel(side).setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: pngPhoto() })
  }
  await expect(page.getByText('Uploaded')).toHaveCount(2)
  await continueButton(page).click()
}

/** Sign-up and the steps up to the identity check, whose result is asked for; the last name decides it. */
async function walkToIdentityCheck(page: Page, request: APIRequestContext, lastName: string) {
  const admin = await adminToken(request)
  await signUpFromCalculator(page, request, admin)
  await expect(page).toHaveURL(/\/registration\/details$/, { timeout: 15_000 })
  await fillDetails(page, lastName)
  await expect(page).toHaveURL(/\/registration\/employment$/, { timeout: 15_000 })
  await fillEmployment(page)
  await expect(page).toHaveURL(/\/registration\/reference$/, { timeout: 15_000 })
  await fillReference(page)
  await expect(page).toHaveURL(/\/registration\/address$/, { timeout: 15_000 })
  await fillAddress(page)
  await expect(page).toHaveURL(/\/registration\/documents$/, { timeout: 15_000 })
  await fillDocuments(page)
  await expect(page).toHaveURL(/\/registration\/document-verification$/, { timeout: 15_000 })
  await page.getByRole('button', { name: 'Start identity check' }).click()
  await page.getByRole('button', { name: 'Check the result' }).click()
}

test('a new visitor goes from the calculator through every registration step to apply', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000)
  const errors = watchConsole(page)
  const refused: string[] = []
  page.on('response', (response) => {
    if (response.status() >= 400)
      refused.push(`${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`)
  })
  const admin = await adminToken(request)
  await signUpFromCalculator(page, request, admin)

  // Details (new_client_created, no first name yet).
  await expectStep(page, request, 'new_client_created', '/registration/details', () =>
    page.getByLabel('First name'),
  )
  await fillDetails(page, 'Dela Cruz')

  await expectStep(page, request, 'work_info', '/registration/employment', () =>
    page.getByLabel('Employment type'),
  )
  await fillEmployment(page)

  await expectStep(page, request, 'relative_info', '/registration/reference', () =>
    page.getByLabel('Full name'),
  )
  await fillReference(page)

  await expectStep(page, request, 'address', '/registration/address', () => page.getByLabel('Region'))
  await fillAddress(page)

  await expectStep(page, request, 'document_upload', '/registration/documents', () =>
    page.getByLabel('ID type'),
  )
  await fillDocuments(page)

  // Identity check with the sandbox provider: any last name but "Declined"/"Resubmit" is approved.
  await expectStep(page, request, 'veriff', '/registration/document-verification', () =>
    page.getByRole('button', { name: 'Start identity check' }),
  )
  await page.getByRole('button', { name: 'Start identity check' }).click()
  await expect(page.getByText('Sandbox test data')).toBeVisible()
  await page.getByRole('button', { name: 'Check the result' }).click()

  // Bank link with the sandbox credentials.
  await expectStep(page, request, 'kontomatik', '/registration/bank-data', () =>
    page.getByLabel('Bank', { exact: true }),
  )
  await page.getByLabel('Bank', { exact: true }).selectOption('sandbox-bdo')
  await page.getByLabel('Online banking user name').fill('sandbox')
  await page.getByLabel('Online banking password').fill('sandbox')
  await page.getByRole('button', { name: 'Link bank' }).click()

  // Payout: a bank transfer account, selected, then finish.
  await expectStep(page, request, 'disbursement_type', '/registration/payment', () =>
    page.getByRole('heading', { name: 'Add a payout account' }),
  )
  await page.getByLabel('Bank transfer').check()
  await chooseFirst(page.getByLabel('Bank', { exact: true }))
  await page.getByLabel('Account number').fill('123456789012')
  await page.getByRole('button', { name: 'Save payout account' }).click()
  // The new account is listed and selected; only then can registration be finished.
  const saved = page.locator('.reg-card--selected')
  await expect(saved).toContainText('Bank transfer')
  await expect(saved).toContainText('123456789012')
  await expect(saved.locator('[aria-current="true"]')).toHaveText('Selected')
  await expect(page.getByRole('button', { name: 'Finish registration' })).toBeVisible()
  await page.getByRole('button', { name: 'Finish registration' }).click()

  // Ready to apply: no loan yet, the journey maps no_loan_page to the apply page.
  await expect(page).toHaveURL(/\/application\/apply$/, { timeout: 15_000 })
  expect(await serverFlow(page, request)).toEqual({ step: 'no_loan_page', status: 'active' })
  await page.reload()
  await expect(page).toHaveURL(/\/application\/apply$/)
  await page.waitForLoadState('networkidle')
  await expect(page).toHaveURL(/\/application\/apply$/)
  await expect(page.getByRole('heading', { name: 'Apply for a loan', level: 1 })).toBeVisible()
  // The amount chosen on the calculator at the start is still the one offered.
  await expect(page.getByRole('region', { name: 'Loan calculator' })).toContainText('5 100')

  // No script error; the only refused calls are the identity-check screen asking for a session before one
  // exists (404 is its "none yet", on the first visit and on the reload).
  expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([])
  expect(refused).toEqual([
    'GET /web/private/client/veriff/session 404',
    'GET /web/private/client/veriff/session 404',
  ])
  expect(errors).toHaveLength(refused.length)
})

test('a declined identity check ends on the rejected page, and stays there on reload', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000)
  await walkToIdentityCheck(page, request, 'Declined')

  await expect(page).toHaveURL(/\/application\/rejected$/, { timeout: 15_000 })
  expect(await serverFlow(page, request)).toEqual({ step: 'reject_page', status: 'active' })
  await expect(page.getByRole('heading', { name: 'We cannot offer a loan right now' })).toBeVisible()
  await page.reload()
  await page.waitForLoadState('networkidle')
  await expect(page).toHaveURL(/\/application\/rejected$/)
  await expect(page.getByRole('heading', { name: 'We cannot offer a loan right now' })).toBeVisible()
})

test('a verification asking for new photos keeps the client on the identity check, also after a reload', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000)
  await walkToIdentityCheck(page, request, 'Resubmit')

  await expect(page.getByText('We need new photos of your ID.')).toBeVisible()
  await expectStep(page, request, 'veriff', '/registration/document-verification', () =>
    page.getByRole('button', { name: 'Start again' }),
  )
  // A new session can be started from the same screen.
  await page.getByRole('button', { name: 'Start again' }).click()
  await expect(page.getByRole('button', { name: 'Check the result' })).toBeVisible()
})

test('a client who skips bank linking and chooses an e-wallet payout also reaches apply', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000)
  await walkToIdentityCheck(page, request, 'Reyes')
  await expectStep(page, request, 'kontomatik', '/registration/bank-data', () =>
    page.getByRole('button', { name: 'Continue without linking' }),
  )
  await page.getByRole('button', { name: 'Continue without linking' }).click()

  await expectStep(page, request, 'disbursement_type', '/registration/payment', () =>
    page.getByRole('heading', { name: 'Add a payout account' }),
  )
  await page.getByRole('radio', { name: 'E-wallet' }).check()
  await chooseFirst(page.getByRole('combobox', { name: 'E-wallet' }))
  await page.getByLabel('E-wallet mobile number').fill('09171234568')
  await page.getByRole('button', { name: 'Save payout account' }).click()
  await expect(page.locator('.reg-card--selected')).toContainText('E-wallet')
  await page.getByRole('button', { name: 'Finish registration' }).click()

  await expect(page).toHaveURL(/\/application\/apply$/, { timeout: 15_000 })
  expect(await serverFlow(page, request)).toEqual({ step: 'no_loan_page', status: 'active' })
})
