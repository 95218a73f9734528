/**
 * The registration screens as a new client fills them in the browser (e2e/registration-journey.spec.ts,
 * e2e/model-sample.spec.ts): sign-up from the calculator, each step's form with valid sandbox data, and the server's
 * flow read with the page's own token.
 *
 * Sandbox data (README): codes from the outbox (back-office token from SANDBOX_ADMIN_DEVICE_ID), identity
 * verification decided by the last name ("Declined" is declined), bank linking with `sandbox` / `sandbox`.
 */
import { deflateSync } from 'node:zlib'
import type { APIRequestContext, BrowserContext, Locator, Page } from '@playwright/test'
import { lastCode, uniqueEmail, uniquePhone } from './clients'
import { expect } from './fixtures'

/** A small valid PNG (a 2x2 grey square) made here, so the upload's bytes really are an image. */
export function pngPhoto(): Buffer {
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
export async function pageToken(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'auth.token')
  if (!cookie) throw new Error('no auth.token cookie in the page')
  return decodeURIComponent(cookie.value).replace(/^Bearer\s+/i, '')
}

export async function serverFlow(page: Page, request: APIRequestContext) {
  const answer = await request.get('/web/private/client/flow', {
    headers: { authorization: `Bearer ${await pageToken(page.context())}` },
  })
  expect(answer.status()).toBe(200)
  return (await answer.json()).data as { step: string; status: string }
}

/** Waits until a select (a PSGC level) has its options and picks the first real one. */
export async function chooseFirst(select: Locator) {
  await expect(select).toBeEnabled()
  await expect.poll(async () => select.locator('option:not([value=""])').count()).toBeGreaterThan(0)
  const value = await select.locator('option:not([value=""])').first().getAttribute('value')
  await select.selectOption(value!)
}

/** From the calculator to a verified phone, through the sign-up screen. */
export async function signUpFromCalculator(page: Page, request: APIRequestContext, admin: string) {
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

export const continueButton = (page: Page) => page.getByRole('button', { name: 'Continue' })

export async function fillDetails(page: Page, lastName: string, firstName = 'Maria') {
  await page.getByLabel('First name').fill(firstName)
  await page.getByLabel('Last name').fill(lastName)
  await page.getByLabel('Date of birth').fill('05/14/1990')
  await page.getByLabel('Female').check()
  await page.getByLabel('Civil status').selectOption('single')
  await continueButton(page).click()
}

export async function fillEmployment(page: Page) {
  await page.getByLabel('Employment type').selectOption('employed_private')
  await page.getByLabel('Company or business name').fill('Acme Trading Inc')
  await page.getByLabel('Monthly income (PHP)').fill('25000')
  await page.getByLabel('Monthly expenses (PHP)').fill('12000')
  await continueButton(page).click()
}

export async function fillReference(page: Page) {
  await page.getByLabel('Full name').fill('Jose Santos')
  await page.getByLabel('Relation to you').selectOption('sibling')
  await page.getByLabel('Mobile number').fill('09181234567')
  await continueButton(page).click()
}

export async function fillAddress(page: Page) {
  await chooseFirst(page.getByLabel('Region'))
  await chooseFirst(page.getByLabel('Province or city'))
  await chooseFirst(page.getByLabel('City or municipality'))
  await chooseFirst(page.getByLabel('Barangay'))
  await page.getByLabel('House number and street').fill('12 Rizal Street')
  await continueButton(page).click()
}

export async function fillDocuments(page: Page) {
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
