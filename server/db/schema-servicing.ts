/**
 * Extensions (the spec's rollovers) and payment schedules (issue 17), and the signed documents that amend a loan.
 * docs/decisions/0025-extensions-and-payment-schedules.md. Money is integer centavos in `bigint`; dates are
 * Manila calendar dates.
 *
 * Rows are written under the client's journey lock and the loan's row lock (server/services/payments/loans.ts
 * `loanTransaction`); the partial unique indexes keep one live choice per type and one schedule in force even
 * if a caller skipped the locks.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { client } from './schema-identity'
import { loan } from './schema-lending'
import { payment } from './schema-payments'

const ts = (name: string) => timestamp(name, { withTimezone: true })
const money = (name: string) => bigint(name, { mode: 'number' })
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity()
const loanRef = () =>
  bigint('loan_id', { mode: 'number' })
    .notNull()
    .references(() => loan.id)
const clientRef = () =>
  bigint('client_id', { mode: 'number' })
    .notNull()
    .references(() => client.id)
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' })

/**
 * An extension of a loan (a rollover): offered as a draft (status inactive, invoice draft, priced live), chosen
 * (invoice unpaid, fee fixed), signed, then paid (status active: the due date moved) or left to expire.
 */
export const loanExtension = pgTable(
  'loan_extension',
  {
    id: id(),
    loanId: loanRef(),
    clientId: clientRef(),
    type: text('type').notNull(),
    /** inactive (offered or chosen), active (paid, in effect), expired (chosen and never paid in time). */
    status: text('status').notNull(),
    invoiceStatus: text('invoice_status').notNull(),
    /** Days added; the fee and the principal it was priced on, fixed when chosen. */
    term: integer('term'),
    fee: money('fee'),
    principalBasis: money('principal_basis'),
    payableUntil: date('payable_until', { mode: 'string' }),
    chosenAt: ts('chosen_at'),
    signedAt: ts('signed_at'),
    paidAt: ts('paid_at'),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => payment.id),
    dueDateBefore: date('due_date_before', { mode: 'string' }),
    dueDateAfter: date('due_date_after', { mode: 'string' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('loan_extension_loan_idx').on(t.loanId, t.id),
    uniqueIndex('loan_extension_live_uq')
      .on(t.loanId, t.type)
      .where(sql`${t.invoiceStatus} in ('draft', 'unpaid')`),
    check('loan_extension_status_ck', sql`${t.status} in ('inactive', 'active', 'expired')`),
    check(
      'loan_extension_invoice_ck',
      sql`${t.invoiceStatus} in ('draft', 'unpaid', 'paid', 'expired', 'cancelled')`,
    ),
  ],
)

/** The extension application of a chosen extension: what its documents and signature hang on. */
export const extensionApplication = pgTable(
  'extension_application',
  {
    id: id(),
    extensionId: bigint('extension_id', { mode: 'number' })
      .notNull()
      .references(() => loanExtension.id),
    loanId: loanRef(),
    clientId: clientRef(),
    /** new, signed, cancelled (its extension went back to draft or expired). */
    status: text('status').notNull(),
    createdAt: ts('created_at').notNull(),
    signedAt: ts('signed_at'),
  },
  (t) => [
    uniqueIndex('extension_application_live_uq')
      .on(t.extensionId)
      .where(sql`${t.status} in ('new', 'signed')`),
    check('extension_application_status_ck', sql`${t.status} in ('new', 'signed', 'cancelled')`),
  ],
)

/**
 * A payment-schedule special offer and, once agreed, the schedule in force: offered (one per type), active,
 * completed (the loan was repaid), withdrawn (the other offer once one is agreed, or no longer made).
 */
export const paymentSchedule = pgTable(
  'payment_schedule',
  {
    id: id(),
    loanId: loanRef(),
    clientId: clientRef(),
    type: text('type').notNull(),
    status: text('status').notNull(),
    /** The decision, rule by rule, as made when the client agreed (the configuration's terms that day). */
    decision: jsonb('decision'),
    owed: money('owed'),
    interest: money('interest'),
    interestAtRate: money('interest_at_rate'),
    total: money('total'),
    principalBasis: money('principal_basis'),
    days: integer('days'),
    offeredAt: ts('offered_at').notNull(),
    agreedAt: ts('agreed_at'),
    agreedOn: date('agreed_on', { mode: 'string' }),
    completedAt: ts('completed_at'),
  },
  (t) => [
    index('payment_schedule_loan_idx').on(t.loanId),
    uniqueIndex('payment_schedule_offer_uq').on(t.loanId, t.type).where(sql`${t.status} = 'offered'`),
    uniqueIndex('payment_schedule_active_uq').on(t.loanId).where(sql`${t.status} = 'active'`),
    check('payment_schedule_status_ck', sql`${t.status} in ('offered', 'active', 'completed', 'withdrawn')`),
  ],
)

/** One instalment of a schedule in force; `paid_amount` grows as payments are spread oldest first. */
export const scheduleInstalment = pgTable(
  'schedule_instalment',
  {
    id: id(),
    scheduleId: bigint('schedule_id', { mode: 'number' })
      .notNull()
      .references(() => paymentSchedule.id),
    loanId: loanRef(),
    seq: integer('seq').notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    /** The day the period starts: its interest is booked then. */
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    amount: money('amount').notNull(),
    interest: money('interest').notNull(),
    paidAmount: money('paid_amount').notNull().default(0),
    paidAt: ts('paid_at'),
  },
  (t) => [
    uniqueIndex('schedule_instalment_seq_uq').on(t.scheduleId, t.seq),
    index('schedule_instalment_loan_idx').on(t.loanId),
    check('schedule_instalment_paid_ck', sql`${t.paidAmount} >= 0 and ${t.paidAmount} <= ${t.amount}`),
  ],
)

/**
 * The signed documents of an amendment (an extension application's, a schedule's): rendered outside any
 * transaction, stored with their hash, never rendered again once signed.
 */
export const amendmentDocument = pgTable(
  'amendment_document',
  {
    id: id(),
    loanId: loanRef(),
    clientId: clientRef(),
    /** extension (subject_id: the extension application) or schedule (the payment schedule). */
    subject: text('subject').notNull(),
    subjectId: bigint('subject_id', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    content: bytea('content').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    /** The figures the document shows: signing checks they are still today's. */
    figures: jsonb('figures').notNull(),
    renderedAt: ts('rendered_at').notNull(),
    signedAt: ts('signed_at'),
  },
  (t) => [
    uniqueIndex('amendment_document_uq').on(t.subject, t.subjectId, t.type),
    index('amendment_document_loan_idx').on(t.loanId),
    check('amendment_document_subject_ck', sql`${t.subject} in ('extension', 'schedule')`),
  ],
)
