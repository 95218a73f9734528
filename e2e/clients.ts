/**
 * Clients for end-to-end tests, made over the API: a fresh client walked through the whole registration to the
 * ready-to-apply step (no_loan_page), so a test that applies never changes the shared demo client. Codes come
 * from the sandbox outbox with the back-office token of the trusted sandbox device (e2e/sandbox.ts).
 */
import { type APIRequestContext, expect, type Page } from '@playwright/test'
import { E2E_ADMIN, E2E_ADMIN_DEVICE_ID } from './sandbox'

export async function adminToken(request: APIRequestContext): Promise<string> {
  const answer = await request.post('/web/public/user/login', {
    headers: { 'x-device-id': E2E_ADMIN_DEVICE_ID },
    data: { ...E2E_ADMIN, captchaToken: 'e2e', deviceId: E2E_ADMIN_DEVICE_ID },
  })
  expect(answer.status()).toBe(200)
  // The sandbox admin device is trusted: no second factor.
  expect((await answer.json()).data.mfa).toBe(false)
  return answer.headers().authorization!.replace(/^Bearer\s+/i, '')
}

/** The newest 3-digit code sent to a number or e-mail, from the sandbox outbox. */
export async function lastCode(
  request: APIRequestContext,
  token: string,
  recipient: string,
): Promise<string> {
  // A page shows its code field as soon as the send call answers; on a loaded machine the test may ask before
  // the first message to a recipient is listed, so an empty outbox is asked again for a while.
  let code: string | undefined
  await expect
    .poll(
      async () => {
        const answer = await request.get('/web/private/back-office/outbox', {
          headers: { authorization: `Bearer ${token}` },
          params: { recipient },
        })
        expect(answer.status()).toBe(200)
        const [newest] = (await answer.json()).data as { body: string }[]
        code = /\b(\d{3})\b/.exec(newest?.body ?? '')?.[1]
        return code !== undefined
      },
      { message: `no code in the outbox for ${recipient}`, timeout: 15_000 },
    )
    .toBe(true)
  return code!
}

/** How many messages the sandbox outbox holds for a number or e-mail (to tell a new code from an earlier one). */
export async function messageCount(
  request: APIRequestContext,
  token: string,
  recipient: string,
): Promise<number> {
  const answer = await request.get('/web/private/back-office/outbox', {
    headers: { authorization: `Bearer ${token}` },
    params: { recipient, perPage: '100' },
  })
  expect(answer.status()).toBe(200)
  return ((await answer.json()).data as unknown[]).length
}

/**
 * The code of a message sent after `before` messages: waits for it, so a test never types the previous code
 * (the screen may show the code field while a new code is still on its way, e.g. after "Send a new code").
 */
export async function newCode(
  request: APIRequestContext,
  token: string,
  recipient: string,
  before: number,
): Promise<string> {
  await expect
    .poll(() => messageCount(request, token, recipient), { timeout: 30_000 })
    .toBeGreaterThan(before)
  return lastCode(request, token, recipient)
}

let sequence = 0
/**
 * Playwright runs several workers at once (playwright.config.ts), each with its own sequence: the worker's
 * parallel index in the number (09WW…, two digits) and the e-mail keeps them apart. A worker started again after
 * a failure has the same index and a later clock.
 */
const worker = Number(process.env.TEST_PARALLEL_INDEX ?? 0)
const next = () => Date.now() + sequence++
/** A mobile number no other test of the run uses (the seeded demo numbers are 0917…). */
export const uniquePhone = () => `09${String(worker % 100).padStart(2, '0')}${String(next()).slice(-7)}`
/** An e-mail no other test of the run uses; `tag` says which test made it. */
export const uniqueEmail = (tag: string) => `e2e.${tag}.${next()}.${worker}@example.ph`

export interface ReadyClient {
  phone: string
  email: string
  password: string
  /**
   * When the phone may get its next SMS code from a device the client has not used (the sign-up code was the
   * last one; the e2e server allows one a second, SANDBOX_CODE_INTERVAL_SECONDS in playwright.config.ts).
   */
  nextCodeAt: string
}

/** A client just signed up: the same login as a ready client, with its id and the sign-up's session. */
export interface SignedUpClient extends ReadyClient {
  id: number
  /** The session the sign-up opened (Bearer token). */
  authorization: string
}

/** Signs a client up over the API (a fresh phone and e-mail), the phone not verified yet. */
export async function signUpClient(request: APIRequestContext, password: string): Promise<SignedUpClient> {
  const phone = uniquePhone()
  const email = uniqueEmail('client')
  const created = await request.post('/web/public/client', {
    data: {
      mobilePhone: { number: phone },
      email,
      password,
      passwordRepeat: password,
      consents: { terms: true, privacy: true },
      captchaToken: 'e2e',
    },
  })
  expect(created.status()).toBe(201)
  const { client, nextCodeAt } = (await created.json()).data as { client: { id: number }; nextCodeAt: string }
  return {
    id: client.id,
    phone,
    email,
    password,
    nextCodeAt,
    authorization: created.headers().authorization!,
  }
}

// A JPEG by its first bytes: the server recognises the format from the bytes (README, Identity photos).
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 2, 3])

/** A payout account as POST /disbursement-type takes it; a bank transfer to a succeeding account unless given. */
export type PayoutAccount = Record<string, unknown>

/** The data a registration over the API enters: the sandbox providers answer by the names and the payout account. */
export interface RegistrationData {
  email: string
  phone: string
  /** The sandbox scoring decides by the first name ("Juan" is approved). */
  firstName: string
  /** The sandbox identity check decides by the last name ("Declined", "Resubmit"). */
  lastName: string
  /** A bank transfer to a succeeding account unless given. */
  payout?: PayoutAccount
}

type Headers = Record<string, string>
type RegistrationCall = (
  request: APIRequestContext,
  headers: Headers,
  data: RegistrationData,
) => Promise<void>

async function ok(answer: Promise<import('@playwright/test').APIResponse>, status = 200) {
  const res = await answer
  if (res.status() !== status) throw new Error(`${res.url()}: ${res.status()} ${await res.text()}`)
  return res
}

const verification: RegistrationCall = async (request, headers) => {
  const session = await ok(request.post('/web/private/client/veriff/session', { headers, data: {} }), 201)
  const sessionId = (await session.json()).data.id as string
  await ok(request.get(`/web/private/client/veriff/decision/${sessionId}`, { headers }))
}

/**
 * The registration over the API, by the journey event each call sends (the same calls as the screens): what
 * `readyClient` walks whole, and what the model-based browser sample (e2e/model-sample.spec.ts) replays for the part
 * of a path an earlier path already drove through the screens.
 */
export const registrationCalls = {
  SUBMIT_DETAILS: async (request, headers, data) => {
    await ok(
      request.put('/web/private/client', {
        headers,
        data: {
          firstName: data.firstName,
          middleName: 'Santos',
          lastName: data.lastName,
          birthDate: '1990-05-17',
          gender: 'male',
          civilStatus: 'married',
          email: data.email,
        },
      }),
    )
  },
  SUBMIT_EMPLOYMENT: async (request, headers) => {
    await ok(
      request.put('/web/private/client/complete-step-two', {
        headers,
        data: {
          employmentType: 'employed_private',
          companyName: 'Ayala Land Inc.',
          monthlyIncome: '28000',
          monthlyExpenses: '12000',
        },
      }),
    )
  },
  SUBMIT_REFERENCE: async (request, headers) => {
    await ok(
      request.put('/web/private/client/complete-step-three', {
        headers,
        data: { fullName: 'Maria Dela Cruz', relation: 'spouse', phone: '09998887766' },
      }),
    )
  },
  SUBMIT_ADDRESS: async (request, headers) => {
    await ok(
      request.put('/web/private/client/complete-step-four', {
        headers,
        data: {
          regionId: '1300000000',
          cityId: '1381300000',
          districtId: '1381300000',
          wardId: '1381300001',
          street: '12 Kalayaan Ave.',
        },
      }),
    )
  },
  FINISH_ID_DOCUMENT: async (request, headers) => {
    await ok(
      request.post('/web/private/client/id-document/upload', {
        headers,
        multipart: {
          type: 'front',
          capturedAt: new Date().toISOString(),
          file: { name: 'front.jpg', mimeType: 'image/jpeg', buffer: JPEG },
        },
      }),
      201,
    )
    await ok(
      request.post('/web/private/client/id-document/finish', {
        headers,
        data: { documentType: 'SSS', documentNumber: '34-1234567-8' },
      }),
    )
  },
  // The sandbox identity check answers by the last name: the same calls for every outcome.
  VERIFICATION_APPROVED: verification,
  VERIFICATION_RESUBMISSION: verification,
  VERIFICATION_DECLINED: verification,
  SKIP_BANK_DATA: async (request, headers) => {
    await ok(request.post('/web/private/client/kontomatik/skip', { headers, data: {} }))
  },
  BANK_DATA_IMPORTED: async (request, headers) => {
    await ok(
      request.post('/web/private/client/kontomatik/import', {
        headers,
        data: { bank: 'sandbox-bdo', login: 'sandbox', password: 'sandbox' },
      }),
    )
  },
  // Finishing saves the payout account first, as the screen does.
  FINISH: async (request, headers, data) => {
    await ok(
      request.post('/web/private/client/disbursement-type', {
        headers,
        data: data.payout ?? {
          type: 'bank_transfer',
          bankId: 1,
          accountNumber: `00${data.phone.slice(-8)}12`,
        },
      }),
      201,
    )
    await ok(request.put('/web/private/client/finish', { headers, data: {} }))
  },
} satisfies Record<string, RegistrationCall>

export type RegistrationEvent = keyof typeof registrationCalls

/** A client signed up over the API with the phone verified: the session's headers for the registration calls. */
export async function verifiedClient(request: APIRequestContext, password: string) {
  const admin = await adminToken(request)
  const { id, authorization, ...client } = await signUpClient(request, password)
  const headers = { authorization }
  const code = await lastCode(request, admin, client.phone)
  await ok(request.post('/web/private/client/phone/verify', { headers, data: { code } }))
  return { id, client, headers }
}

/**
 * Signs a client up and completes every registration step over the API (the same calls as the screens), named
 * `firstName` (the sandbox scoring approves "Juan"), paid out by bank transfer to a succeeding account, or to
 * `payout` (e.g. `{ type: 'cash_pickup', provider: 'cebuana' }`, which the sandbox pays out as a cash pickup).
 */
export async function readyClient(
  request: APIRequestContext,
  firstName = 'Juan',
  payout?: PayoutAccount,
): Promise<ReadyClient> {
  const { client, headers } = await verifiedClient(request, 'Ready1234')
  const data = { email: client.email, phone: client.phone, firstName, lastName: 'Dela Cruz', payout }
  const walk: RegistrationEvent[] = [
    'SUBMIT_DETAILS',
    'SUBMIT_EMPLOYMENT',
    'SUBMIT_REFERENCE',
    'SUBMIT_ADDRESS',
    'FINISH_ID_DOCUMENT',
    'VERIFICATION_APPROVED',
    'SKIP_BANK_DATA',
    'FINISH',
  ]
  for (const event of walk) await registrationCalls[event](request, headers, data)
  const flow = await ok(request.get('/web/private/client/flow', { headers }))
  expect((await flow.json()).data).toEqual({ step: 'no_loan_page', status: 'active' })
  return client
}

/**
 * The browser every e2e test uses for the demo client. The server trusts an account's first device and asks a
 * second factor of any other (docs/decisions/0006), so tests that log the shared demo client in from separate
 * browser contexts present one device id, whatever order the spec files run in.
 */
export const DEMO_DEVICE_ID = 'e2e-demo-client-device'

/** Makes the page's app present `deviceId` as its device (the id the app keeps in local storage). */
export async function presentDevice(page: Page, deviceId: string) {
  await page.addInitScript((id) => localStorage.setItem('hiram:device-id', id), deviceId)
}

export const useDemoDevice = (page: Page) => presentDevice(page, DEMO_DEVICE_ID)

/** Opens /login and sends the client login form; what follows (a violation, a second factor) is the caller's. */
export async function submitClientLogin(page: Page, login: string, password: string) {
  await page.goto('/login')
  await page.getByRole('tab', { name: 'Client' }).click()
  await page.getByLabel('Mobile number or e-mail').fill(login)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

/** Logs a client in and waits until the login page is left. */
export async function logInAsClient(page: Page, login: string, password: string) {
  await submitClientLogin(page, login, password)
  await expect(page).not.toHaveURL(/\/login/, { timeout: 15_000 })
}

/** Opens /admin logged out and sends the back-office login form (a new device then asks for an e-mailed code). */
export async function submitBackOfficeLogin(page: Page) {
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fadmin/)
  await page.getByRole('tab', { name: 'Back office' }).click()
  await page.getByLabel('E-mail', { exact: true }).fill(E2E_ADMIN.email)
  await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password)
  await page.getByRole('button', { name: 'Log in' }).click()
}
