/**
 * Extensions (rollovers) as the issue 17 server answers them (domain/contract/servicing-answers.ts), for the
 * extension flow's machine test and the screen's tests: a loan (id 9, due Dec 01, 2026) offered a 7-day
 * extension for ₱350 and a 30-day one for ₱1,500, at each moment of their life. Plain data, no React.
 */
import type { PaymentIntention } from '../../../domain/contract/payments'
import type {
  AmendmentDocument,
  Rollover,
  RolloverApplication,
} from '../../../domain/contract/servicing-answers'

const money = (amount: number) => ({ amount })

export const LOAN_ID = 9
export const DUE_DATE = '2026-12-01'
export const APPLICATION_ID = 70

type Overrides = Partial<Omit<Rollover, 'invoices'>> & { invoice?: Partial<Rollover['invoices'][number]> }

function rolloverOf(base: Pick<Rollover, 'id' | 'type' | 'term' | 'newDueDate'> & { fee: number }) {
  return ({ invoice, ...overrides }: Overrides = {}): Rollover => {
    const fee = overrides.fee?.amount ?? base.fee
    return {
      id: base.id,
      loanId: LOAN_ID,
      type: base.type,
      status: 'inactive',
      term: base.term,
      fee: money(fee),
      newDueDate: base.newDueDate,
      legalRoom: money(400_000),
      legalRoomAfter: money(400_000 - fee),
      available: true,
      refusal: null,
      applicationId: null,
      signed: false,
      ...overrides,
      invoices: [
        { id: base.id, status: 'draft', amount: money(fee), payableUntil: null, paidAt: null, ...invoice },
      ],
    }
  }
}

export const cheap = rolloverOf({ id: 11, type: 'cheap', term: 7, fee: 35_000, newDueDate: '2026-12-08' })
export const expensive = rolloverOf({
  id: 12,
  type: 'expensive',
  term: 30,
  fee: 150_000,
  newDueDate: '2026-12-31',
})
/** The drafts offered again after the first two expired (new rows, new ids). */
export const cheapAgain = rolloverOf({
  id: 13,
  type: 'cheap',
  term: 7,
  fee: 35_000,
  newDueDate: '2026-12-08',
})
export const expensiveAgain = rolloverOf({
  id: 14,
  type: 'expensive',
  term: 30,
  fee: 150_000,
  newDueDate: '2026-12-31',
})

const unpaid = { status: 'unpaid' as const, payableUntil: '2026-11-25' }

/** Chosen: the invoice is unpaid at the fee fixed that day, payable until Nov 25. */
export const chosen = (make: typeof cheap, overrides: Overrides = {}) =>
  make({ invoice: unpaid, ...overrides })
/** Chosen and applied for. */
export const applied = (make: typeof cheap) => chosen(make, { applicationId: APPLICATION_ID })
/** Signed: its fee is payable. */
export const signed = (make: typeof cheap) => chosen(make, { applicationId: APPLICATION_ID, signed: true })
/** The fee posted: in effect. */
export const inEffect = (make: typeof cheap) =>
  make({
    status: 'active',
    available: false,
    applicationId: APPLICATION_ID,
    signed: true,
    invoice: { status: 'paid', payableUntil: '2026-11-25', paidAt: '2026-11-24T03:00:05.000Z' },
  })
/** Chosen and never paid in time. */
export const expired = (make: typeof cheap) =>
  make({
    status: 'expired',
    available: false,
    invoice: { status: 'expired', payableUntil: '2026-11-25' },
  })

export const maxCount = {
  code: 'maxCount',
  message: 'This loan has had the most extensions it may have (3).',
}
/** Refused by the server (a cap, the count, the window): not available, with the reason. */
export const refused = (make: typeof cheap, refusal = maxCount) => make({ available: false, refusal })

export function documentOf(id: number, type: AmendmentDocument['type'], isSigned = false): AmendmentDocument {
  return {
    id,
    type,
    name: type === 'extension_agreement' ? 'Extension agreement' : 'Disclosure statement',
    sha256: 'ab'.repeat(32),
    size: 2048,
    renderedAt: '2026-11-22T02:00:00.000Z',
    signed: isSigned,
    signedAt: isSigned ? '2026-11-22T02:05:00.000Z' : null,
    url: `/web/private/client/loan/${LOAN_ID}/amendment-document/${id}/download`,
  }
}

export const documents = [documentOf(501, 'extension_agreement'), documentOf(502, 'disclosure_statement')]
export const signedDocuments = [
  documentOf(501, 'extension_agreement', true),
  documentOf(502, 'disclosure_statement', true),
]

export function applicationOf(rollover: Rollover, status: RolloverApplication['status'] = 'new') {
  return {
    id: APPLICATION_ID,
    rolloverId: rollover.id,
    loanId: LOAN_ID,
    status,
    documents: status === 'signed' ? signedDocuments : [],
    rollover,
  } satisfies RolloverApplication
}

export function intentionOf(channel: 'gcash' | 'seven_eleven' = 'gcash', amount = 35_000): PaymentIntention {
  return {
    id: 88,
    purpose: 'extension_fee',
    loanId: LOAN_ID,
    amount,
    reference: '1234567897',
    virtualAccount: '88011234567897',
    channel,
    instructions: null,
    checkoutUrl: channel === 'gcash' ? '/sandbox/checkout/chg_abcdefgh12345678' : null,
    expiresAt: '2026-11-25T15:59:59.999Z',
    status: 'open',
  }
}
