/**
 * The extension page's harness: the servicing screens' app (tests/features/repayment/harness.tsx: messages, the
 * fake API, a client session, the app shell with its toasts) and a fake server for the extension calls that keeps
 * the issue 17 server's rules: choosing a type makes its invoice unpaid and puts the other back to draft; asking
 * for the application twice answers the same one; the document call without a code renders the PDFs and sends the
 * code, with code 123 it signs; the fee's payment intention answers the signed invoice's fee; and when the fee
 * posts (`postFee`), the rollover is active, its invoice paid and the loan due on its newDueDate.
 */
import type { Rollover } from '../../../domain/contract/servicing-answers'
import { ApiError } from '../../../src/api/client'
import { type FakeCall, routedApi } from '../../support/fake-api'
import { activeLoan, INTENTION, LOAN, PAYMENTS, pageOf, paymentOf } from '../repayment/harness'
import {
  APPLICATION_ID,
  applicationOf,
  DUE_DATE,
  documents,
  intentionOf,
  LOAN_ID,
  signedDocuments,
} from './fixtures'

export { Harness } from '../repayment/harness'
export { INTENTION, LOAN, PAYMENTS }

export const CHOOSE = 'PUT /private/client/loan/active/rollover'
export const applicationPath = (rid: number) =>
  `POST /private/client/loan/${LOAN_ID}/rollover/${rid}/application`
export const documentPath = (rid: number) =>
  `POST /private/client/loan/${LOAN_ID}/rollover/${rid}/application/${APPLICATION_ID}/document`
export const downloadPath = (docId: number) =>
  `GET /private/client/loan/${LOAN_ID}/amendment-document/${docId}/download`

export const conflict = (code: string, message: string) => new ApiError(409, '/web/x', code, message, [])

export interface FakeServerOptions {
  /** The loan's extensions so far, and the most it may have. */
  extensions?: { taken: number; max: number }
  /** Refuse these calls with this error (a 409 with the server's message, a 422...). */
  refuse?: Partial<Record<'choose' | 'application' | 'code' | 'sign' | 'intention', ApiError>>
}

/** The issue 17 server's extension rules over `rollovers`, behind a routed fake API. */
export function fakeServer(rollovers: Rollover[], options: FakeServerOptions = {}) {
  const state = {
    rollovers,
    dueDate: DUE_DATE,
    payments: [] as ReturnType<typeof paymentOf>[],
    extensions: options.extensions ?? { taken: 0, max: 3 },
  }
  const refuse = (what: keyof NonNullable<FakeServerOptions['refuse']>) => {
    const error = options.refuse?.[what]
    if (error) throw error
  }
  const find = (rid: number) => {
    const found = state.rollovers.find((r) => r.id === rid)
    if (!found) throw new ApiError(404, '/web/x', 'notFound', 'Rollover not found', [])
    return found
  }
  const update = (rid: number, change: (r: Rollover) => Rollover) => {
    state.rollovers = state.rollovers.map((r) => (r.id === rid ? change(r) : r))
    return find(rid)
  }
  const unpaidInvoice = (r: Rollover) => ({
    ...r.invoices[0]!,
    status: 'unpaid' as const,
    payableUntil: '2026-11-25',
  })
  const draftInvoice = (r: Rollover) => ({ ...r.invoices[0]!, status: 'draft' as const, payableUntil: null })
  const chosen = () => state.rollovers.find((r) => r.invoices.some((i) => i.status === 'unpaid'))

  const choose = ({ body }: FakeCall) => {
    refuse('choose')
    const { type } = body as { type: Rollover['type'] }
    const target = state.rollovers.find((r) => r.type === type && r.status === 'inactive')
    if (!target?.available)
      throw conflict('extensionNotAvailable', target?.refusal?.message ?? 'Not offered.')
    for (const other of state.rollovers)
      if (other.id !== target.id && other.status === 'inactive')
        update(other.id, (r) => ({ ...r, invoices: [draftInvoice(r)], applicationId: null, signed: false }))
    return update(target.id, (r) => ({ ...r, invoices: [unpaidInvoice(r)] }))
  }
  const application = (rid: number) => () => {
    refuse('application')
    const rollover = update(rid, (r) => ({ ...r, applicationId: APPLICATION_ID }))
    return applicationOf(rollover, rollover.signed ? 'signed' : 'new')
  }
  const document =
    (rid: number) =>
    ({ body }: FakeCall) => {
      const { code } = body as { code?: string }
      if (code === undefined) {
        refuse('code')
        return {
          sent: true,
          nextCodeAt: new Date(Date.now() + 60_000).toISOString(),
          codeExpiresAt: new Date(Date.now() + 300_000).toISOString(),
          documents,
        }
      }
      refuse('sign')
      if (code !== '123')
        throw new ApiError(422, '/web/x', 'codeIncorrect', 'Phone verification not passed', [
          { propertyPath: 'code', message: 'Phone verification not passed' },
        ])
      const rollover = update(rid, (r) => ({ ...r, signed: true }))
      return { ...applicationOf(rollover, 'signed'), documents: signedDocuments }
    }
  const intention = ({ body }: FakeCall) => {
    refuse('intention')
    const { purpose, channel } = body as { purpose: string; channel: 'gcash' | 'seven_eleven' }
    const fee = chosen()
    if (purpose !== 'extension_fee' || !fee?.signed)
      throw conflict('purposeNotAvailable', 'There is no signed extension waiting for its fee on this loan.')
    return intentionOf(channel, fee.fee.amount)
  }

  const ids = state.rollovers.map((r) => r.id)
  const fake = routedApi({
    [LOAN]: () =>
      activeLoan({
        rollovers: state.rollovers,
        dueDate: state.dueDate,
        repaymentInvoice: { dueDate: state.dueDate, dueDays: 9, amount: { amount: 525_000 } },
        extensions: state.extensions,
        legalRoom: { amount: 400_000 },
        plan: 'on_terms',
      }),
    [PAYMENTS]: () => pageOf(state.payments),
    [CHOOSE]: choose,
    [INTENTION]: intention,
    ...Object.fromEntries(ids.map((rid) => [applicationPath(rid), application(rid)])),
    ...Object.fromEntries(ids.map((rid) => [documentPath(rid), document(rid)])),
    ...Object.fromEntries(
      [...documents].map((doc) => [
        downloadPath(doc.id),
        () => new Blob(['%PDF-1.7'], { type: 'application/pdf' }),
      ]),
    ),
  })

  /** The chosen, signed extension's fee posts: the extension is in effect and the loan is due later. */
  const postFee = () => {
    const paid = chosen()
    if (!paid?.signed) throw new Error('no signed extension to pay')
    update(paid.id, (r) => ({
      ...r,
      status: 'active',
      available: false,
      invoices: [{ ...r.invoices[0]!, status: 'paid', paidAt: '2026-11-24T03:00:05.000Z' }],
    }))
    state.dueDate = paid.newDueDate
    state.extensions = { ...state.extensions, taken: state.extensions.taken + 1 }
    state.payments = [paymentOf(31, paid.fee.amount, { fees: paid.fee.amount }), ...state.payments]
  }

  const sent = (key: string) => fake.calls.filter((c) => `${c.method} ${c.path}` === key).map((c) => c.body)
  return { ...fake, state, postFee, sent }
}
