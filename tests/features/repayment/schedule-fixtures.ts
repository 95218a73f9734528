/**
 * Payment schedules as the issue 17 server answers them (domain/contract/servicing-answers.ts), for the accept
 * flow's machine test and My loan's tests: loan 9 owing ₱5,250.00, offered 2 monthly instalments of ₱2,782.50
 * (₱315.00 of schedule interest) or 4 semi-monthly ones of ₱1,391.25. Plain data, no React.
 */
import type {
  AmendmentDocument,
  PaymentSchedule,
  ScheduleOffer,
} from '../../../domain/contract/servicing-answers'

const money = (amount: number) => ({ amount })

export const LOAN_ID = 9
export const MONTHLY_ID = 31
export const SEMI_MONTHLY_ID = 32

export function scheduleDocumentOf(
  id: number,
  type: AmendmentDocument['type'],
  signed = false,
): AmendmentDocument {
  return {
    id,
    type,
    name: type === 'schedule_agreement' ? 'Payment schedule agreement' : 'Disclosure statement',
    sha256: 'cd'.repeat(32),
    size: 2048,
    renderedAt: '2026-11-22T02:00:00.000Z',
    signed,
    signedAt: signed ? '2026-11-22T02:05:00.000Z' : null,
    url: `/web/private/client/loan/${LOAN_ID}/amendment-document/${id}/download`,
  }
}

export const scheduleDocuments = [
  scheduleDocumentOf(601, 'schedule_agreement'),
  scheduleDocumentOf(602, 'disclosure_statement'),
]

/** What the loan answers in `specialOffers`. */
export function offerSummaries(available = true) {
  return [
    {
      id: MONTHLY_ID,
      type: 'monthly' as const,
      available,
      reason: available ? null : 'Offered from 3 days before the due date.',
      instalments: 2,
      firstAmount: money(278_250),
      firstDueDate: '2026-12-22',
      total: money(556_500),
    },
    {
      id: SEMI_MONTHLY_ID,
      type: 'semi_monthly' as const,
      available,
      reason: available ? null : 'Offered from 3 days before the due date.',
      instalments: 4,
      firstAmount: money(139_125),
      firstDueDate: '2026-12-07',
      total: money(556_500),
    },
  ]
}

/** GET .../special-offer/submit/31: the monthly offer as it would be agreed today. */
export function monthlyOffer(overrides: Partial<ScheduleOffer> = {}): ScheduleOffer {
  return {
    id: MONTHLY_ID,
    loanId: LOAN_ID,
    type: 'monthly',
    status: 'offered',
    available: true,
    reason: null,
    rules: [{ rule: 'window', passed: true }],
    owed: money(525_000),
    interest: money(31_500),
    interestAtRate: money(31_500),
    total: money(556_500),
    days: 60,
    payments: [
      { seq: 1, dueDate: '2026-12-22', amount: money(278_250), interest: money(15_750) },
      { seq: 2, dueDate: '2027-01-21', amount: money(278_250), interest: money(15_750) },
    ],
    legalRoom: money(400_000),
    documents: [],
    ...overrides,
  }
}

type Instalment = PaymentSchedule['payments'][number]

/** The schedule in force: the first instalment 3 days overdue, the second not due yet. */
export function scheduleInForce(overrides: Partial<PaymentSchedule> = {}): PaymentSchedule {
  const instalment = (seq: number, dueDate: string, dueDays: number, extra: Partial<Instalment> = {}) => ({
    id: 700 + seq,
    seq,
    status: 'unpaid' as const,
    dueDate,
    dueDays,
    overdue: dueDays > 0,
    amount: money(278_250),
    paid: money(0),
    interest: money(15_750),
    ...extra,
  })
  return {
    id: MONTHLY_ID,
    loanId: LOAN_ID,
    type: 'monthly',
    status: 'active',
    agreedAt: '2026-11-22T02:05:00.000Z',
    owed: money(525_000),
    interest: money(31_500),
    total: money(556_500),
    payments: [instalment(1, '2026-12-22', 3), instalment(2, '2027-01-21', -27)],
    toPayNow: money(278_250),
    ...overrides,
  }
}

/** The same schedule once the first instalment is paid: nothing overdue, the next one to pay. */
export function scheduleFirstPaid(): PaymentSchedule {
  const schedule = scheduleInForce()
  const [first, second] = schedule.payments as [Instalment, Instalment]
  return {
    ...schedule,
    payments: [{ ...first, status: 'paid', overdue: false, paid: money(278_250) }, second],
    toPayNow: money(278_250),
  }
}
