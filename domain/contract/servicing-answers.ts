/**
 * What the extension and payment-schedule calls answer (issue 17; spec section 3: Loan rollovers and invoices,
 * Payment schedule), apart from their contracts in servicing.ts so the active loan's schema (lending-answers.ts)
 * can embed them. Money is `{ amount }` in integer centavos; dates are Manila calendar dates (YYYY-MM-DD).
 */
import * as v from 'valibot'
import { extensionTypes, scheduleTypes } from '../loan/servicing-config'

const money = v.object({ amount: v.number() })

export const rolloverStatuses = ['inactive', 'active', 'expired'] as const
export const invoiceStatuses = ['draft', 'unpaid', 'paid', 'expired', 'cancelled'] as const

/** An extension's invoice: its fee. `draft` until chosen, `unpaid` once chosen, `paid` when it took effect. */
export const rolloverInvoiceSchema = v.object({
  id: v.number(),
  status: v.picklist(invoiceStatuses),
  amount: money,
  /** The last Manila day an unpaid invoice can be paid; null for a draft. */
  payableUntil: v.nullable(v.string()),
  paidAt: v.nullable(v.string()),
})

export const amendmentDocumentSchema = v.object({
  id: v.number(),
  type: v.picklist(['extension_agreement', 'schedule_agreement', 'disclosure_statement']),
  name: v.string(),
  sha256: v.string(),
  size: v.number(),
  renderedAt: v.string(),
  signed: v.boolean(),
  signedAt: v.nullable(v.string()),
  /** Where the PDF is downloaded from. */
  url: v.string(),
})
export type AmendmentDocument = v.InferOutput<typeof amendmentDocumentSchema>

/**
 * A rollover (extension) of the spec: available when its status is `inactive` and it has an `unpaid` or `draft`
 * invoice (spec section 3). `active` is an extension in effect (its fee paid); `expired`, one chosen and never
 * paid in time.
 */
export const rolloverSchema = v.object({
  id: v.number(),
  loanId: v.number(),
  type: v.picklist(extensionTypes),
  status: v.picklist(rolloverStatuses),
  /** Days added to the due date. */
  term: v.number(),
  /** The fee: today's price for a draft, the price fixed at the choice otherwise. */
  fee: money,
  /** The due date once the fee is paid (for an extension in effect: the due date it gave). */
  newDueDate: v.string(),
  /** The loan's legal room (100% of principal minus every cost so far and to come), and what this fee leaves. */
  legalRoom: money,
  legalRoomAfter: money,
  /** Whether the client may choose, sign or pay it now; when not, why (a cap, maxCount, the window...). */
  available: v.boolean(),
  refusal: v.nullable(v.object({ code: v.string(), message: v.string() })),
  /** The extension application and whether its agreement is signed (the fee is payable only once it is). */
  applicationId: v.nullable(v.number()),
  signed: v.boolean(),
  invoices: v.array(rolloverInvoiceSchema),
})
export type Rollover = v.InferOutput<typeof rolloverSchema>

export const rolloverApplicationSchema = v.object({
  id: v.number(),
  rolloverId: v.number(),
  loanId: v.number(),
  status: v.picklist(['new', 'signed', 'cancelled']),
  documents: v.array(amendmentDocumentSchema),
  rollover: rolloverSchema,
})
export type RolloverApplication = v.InferOutput<typeof rolloverApplicationSchema>

/** One instalment: the spec's payment with status and dueDays (days PAST its due date; overdue when above 0). */
export const schedulePaymentSchema = v.object({
  id: v.number(),
  seq: v.number(),
  status: v.picklist(['unpaid', 'paid']),
  dueDate: v.string(),
  /** Spec section 4: days past the due date, negative before it; an unpaid instalment is overdue above 0. */
  dueDays: v.number(),
  overdue: v.boolean(),
  amount: money,
  paid: money,
  /** Of the amount, the schedule's interest for this instalment's period. */
  interest: money,
})

/** The payment schedule in force (spec section 3): its payments, and what to pay now. */
export const paymentScheduleSchema = v.object({
  id: v.number(),
  loanId: v.number(),
  type: v.picklist(scheduleTypes),
  status: v.picklist(['active', 'completed']),
  agreedAt: v.string(),
  /** What was owed at the agreement, the schedule's interest, and their sum: the instalments' total. */
  owed: money,
  interest: money,
  total: money,
  payments: v.array(schedulePaymentSchema),
  /** Every unpaid instalment due by today, or else the next one. */
  toPayNow: money,
})
export type PaymentSchedule = v.InferOutput<typeof paymentScheduleSchema>

/** A payment-schedule special offer: what the client would agree to today, with the decision behind it. */
export const scheduleOfferSchema = v.object({
  id: v.number(),
  loanId: v.number(),
  type: v.picklist(scheduleTypes),
  status: v.picklist(['offered', 'accepted', 'withdrawn']),
  /** Whether it may be accepted today and, when not, why. */
  available: v.boolean(),
  reason: v.nullable(v.string()),
  /** The configuration's rules as decided for this loan today. */
  rules: v.array(v.object({ rule: v.string(), passed: v.boolean() })),
  owed: money,
  interest: money,
  /** What the configured rate would charge; the interest is lower only when the legal room is. */
  interestAtRate: money,
  total: money,
  days: v.number(),
  payments: v.array(v.object({ seq: v.number(), dueDate: v.string(), amount: money, interest: money })),
  legalRoom: money,
  documents: v.array(amendmentDocumentSchema),
})
export type ScheduleOffer = v.InferOutput<typeof scheduleOfferSchema>

/** The special offers on the active loan (shown on My loan): a summary of each. */
export const scheduleOfferSummarySchema = v.object({
  id: v.number(),
  type: v.picklist(scheduleTypes),
  available: v.boolean(),
  reason: v.nullable(v.string()),
  instalments: v.number(),
  firstAmount: money,
  firstDueDate: v.string(),
  total: money,
})
