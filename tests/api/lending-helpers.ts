/**
 * Shared steps of the lending API tests: a registered client whose first name picks the sandbox scoring outcome
 * and whose payout account picks the sandbox payout outcome (README, Sandbox), applying, running the jobs, and
 * reading the text of a PDF.
 */
import { inflateSync } from 'node:zlib'
import { PDFArray, PDFDocument, PDFName, type PDFRawStream, type PDFStream } from 'pdf-lib'
import {
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  seedFirstUser,
} from '../../server/services/identity/users'
import { drainJobs } from '../../server/services/lending/jobs'
import {
  type Answer,
  call,
  lastCode,
  type SignedUp,
  type TestApp,
  tokenOf,
  verifiedClient,
} from './identity-helpers'
import { completeStep, details, expectOk } from './journey-helpers'

export type PayoutChoice =
  | { type: 'bank_transfer'; accountNumber?: string }
  | { type: 'cash_pickup' }
  | { type: 'ewallet' }

/** A client at no_loan_page (registration complete), named `firstName`, paid out through `payout`. */
export async function readyClient(
  t: TestApp,
  firstName = 'Juan',
  payout: PayoutChoice = { type: 'bank_transfer' },
): Promise<SignedUp> {
  const c = await verifiedClient(t)
  const opts = { token: c.token }
  await expectOk(call(t, 'PUT', '/private/client', details(c.email, { firstName }), opts))
  for (const step of [
    'work_info',
    'relative_info',
    'address',
    'document_upload',
    'veriff',
    'kontomatik',
  ] as const)
    await completeStep(t, c, step)
  const body =
    payout.type === 'cash_pickup'
      ? { type: 'cash_pickup', provider: 'cebuana' }
      : {
          type: 'bank_transfer',
          bankId: 1,
          accountNumber:
            payout.type === 'bank_transfer' ? (payout.accountNumber ?? '001234567890') : '001234567890',
        }
  await expectOk(call(t, 'POST', '/private/client/disbursement-type', body, opts), 201)
  await expectOk(call(t, 'PUT', '/private/client/finish', {}, opts))
  return c
}

export type AppView = {
  id: number
  status: number
  desiredLoanAmount: { amount: number }
  principalAmount: { amount: number }
  term: { value: number; unit: 'day' }
  offeredAmount: { amount: number } | null
  cashPickupNumber: string | null
  disbursementType: { type: string } | null
  borrowersAdvantagePackageFeeConsent: boolean
  promoCode: string | null
}

export const applyBody = (amount = 5_000_00, term = 14, extra: Record<string, unknown> = {}) => ({
  loanAmount: { amount, currency: 'PHP' },
  term: { value: term, unit: 'day' },
  paymentMethod: 'bank_transfer',
  consents: { acceptBorrowersAdvantagePackageFee: true },
  iovation: { ioBB: 'sandbox-blackbox' },
  ...extra,
})

export const apply = (
  t: TestApp,
  c: SignedUp,
  body: unknown = applyBody(),
  headers: Record<string, string> = {},
) => call<AppView>(t, 'POST', '/private/client/application', body, { token: c.token, headers })

export const actual = async (t: TestApp, c: SignedUp) =>
  (await call<AppView>(t, 'GET', '/private/client/application/actual', undefined, { token: c.token })).body
    .data

/** Runs the due jobs as the worker would, two minutes on (signatures are taken a minute ahead, see aMinuteLater). */
export const runJobs = (t: TestApp) =>
  drainJobs({ ...t.deps, now: () => new Date(t.deps.now().getTime() + 120_000) })

export async function flowOf(t: TestApp, c: SignedUp) {
  return (
    await call<{ step: string; status: string }>(t, 'GET', '/private/client/flow', undefined, {
      token: c.token,
    })
  ).body.data
}

/**
 * Runs `fn` with the server's clock a minute ahead: a phone gets one code a minute (codeMinuteLimit), and the
 * signing code follows the phone-verification code of sign-up within seconds in a test, never in real life.
 */
export async function aMinuteLater<T>(t: TestApp, fn: () => Promise<T>): Promise<T> {
  t.setClock(() => new Date(Date.now() + 61_000))
  try {
    return await fn()
  } finally {
    t.setClock(() => new Date())
  }
}

/** Asks for the signing code (documents rendered) and returns it from the SMS outbox. */
export async function signingCode(t: TestApp, c: SignedUp, applicationId: number): Promise<string> {
  await expectOk(
    call(t, 'POST', `/private/client/application/agreement/${applicationId}`, {}, { token: c.token }),
  )
  return lastCode(t, c.phone, 'agreement')
}

/** Renders the documents, asks for the code and signs with the code from the SMS outbox. */
export async function sign(t: TestApp, c: SignedUp, applicationId: number): Promise<Answer> {
  await expectOk(call(t, 'POST', '/private/client/render/document', {}, { token: c.token }), 201)
  return aMinuteLater(t, async () => {
    const code = await signingCode(t, c, applicationId)
    return call(
      t,
      'POST',
      `/private/client/application/agreement/${applicationId}`,
      { code },
      { token: c.token },
    )
  })
}

export async function adminToken(t: TestApp, deviceId = 'lending-admin-device') {
  await seedFirstUser(t.database.db, { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD })
  const pending = tokenOf(
    await call(t, 'POST', '/public/user/login', {
      email: DEFAULT_ADMIN_EMAIL,
      password: DEFAULT_ADMIN_PASSWORD,
      captchaToken: 'ok',
      deviceId,
    }),
  )
  const code = await lastCode(t, DEFAULT_ADMIN_EMAIL, 'login_mfa')
  return tokenOf(await call(t, 'POST', '/public/user/login/mfa', { code }, { token: pending }))
}

const hexText = (hex: string) => Buffer.from(hex.replace(/\s+/g, ''), 'hex').toString('latin1')

/** The text a PDF shows, from its pages' content streams (pdf-lib writes strings as hex in Tj operators). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes)
  const lines: string[] = []
  for (const page of doc.getPages()) {
    const contents = page.node.Contents()
    const streams: PDFStream[] = []
    if (contents instanceof PDFArray) {
      for (let i = 0; i < contents.size(); i++) streams.push(contents.lookup(i) as PDFStream)
    } else if (contents) streams.push(contents as PDFStream)
    for (const stream of streams) {
      const raw = stream as PDFRawStream
      const filter = raw.dict.get(PDFName.of('Filter'))
      const data = filter === PDFName.of('FlateDecode') ? inflateSync(raw.contents) : raw.contents
      const content = Buffer.from(data).toString('latin1')
      for (const match of content.matchAll(/<([0-9A-Fa-f\s]*)>\s*Tj/g)) lines.push(hexText(match[1]!))
      for (const match of content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) lines.push(match[1]!)
    }
  }
  return lines.join('\n')
}

/** expectOk keeping the answer's data type. */
export async function expectStatus<T>(
  answer: Promise<Answer<T>> | Answer<T>,
  status = 200,
): Promise<Answer<T>> {
  const a = await answer
  if (a.status !== status)
    throw new Error(`expected ${status}, got ${a.status}: ${JSON.stringify(a.body.response)}`)
  return a
}
