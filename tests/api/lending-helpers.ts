/**
 * Shared steps of the lending API tests: a registered client whose first name picks the sandbox scoring outcome
 * and whose payout account picks the sandbox payout outcome (README, Sandbox), applying, running the jobs, and
 * reading the text of a PDF.
 */
import { inflateSync } from 'node:zlib'
import { PDFArray, PDFDocument, PDFName, type PDFRawStream, type PDFStream } from 'pdf-lib'
import type { DecisionInputs } from '../../server/services/lending/decision'
import { type Answer, call, lastCode, type SignedUp, type TestApp } from './identity-helpers'
import { aMinuteLater, applyBody, clientAt, expectOk, type PayoutChoice } from './journey-helpers'

export { adminToken, aMinuteLater, applyBody, type PayoutChoice, runJobs } from './journey-helpers'

/** A client at no_loan_page (registration complete), named `firstName`, paid out through `payout`. */
export async function readyClient(
  t: TestApp,
  firstName = 'Juan',
  payout: PayoutChoice = { type: 'bank_transfer' },
): Promise<SignedUp> {
  return clientAt(t, 'no_loan_page', { firstName, payout })
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

export const apply = (
  t: TestApp,
  c: SignedUp,
  body: unknown = applyBody(),
  headers: Record<string, string> = {},
) => call<AppView>(t, 'POST', '/private/client/application', body, { token: c.token, headers })

export const actual = async (t: TestApp, c: SignedUp) =>
  (await call<AppView>(t, 'GET', '/private/client/application/actual', undefined, { token: c.token })).body
    .data

export async function flowOf(t: TestApp, c: SignedUp) {
  return (
    await call<{ step: string; status: string }>(t, 'GET', '/private/client/flow', undefined, {
      token: c.token,
    })
  ).body.data
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

/** A first-time applicant who passes every rule of the decision engine, with `over` changed. */
export const decisionInputs = (over: Partial<DecisionInputs> = {}): DecisionInputs => ({
  applicationId: 1,
  applicationVersion: 1,
  amount: 5_000_00,
  term: 14,
  total: 5_200_00,
  clientStatus: 1,
  age: 35,
  monthlyIncome: 28_000_00,
  monthlyExpenses: 12_000_00,
  identityVerification: 'approved',
  closedLoans: 0,
  activeLoans: 0,
  availableAmount: 10_000_00,
  minAmount: 1_000_00,
  interval: 100_00,
  ...over,
})
