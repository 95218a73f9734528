/**
 * Servicing (issue 16): the loan ledger, payments as the gateways report them, payment intentions, credit
 * refunds, the sandbox gateway's own books, the business clock's offsets and the servicing jobs.
 * docs/decisions/0024-ledger-payments-and-allocation.md. Money is integer centavos in `bigint`.
 *
 * Append-only: `loan_ledger_entry` rows are never updated or deleted; a correction is a compensating entry
 * (`reverses_id`, unique, so an entry is reversed at most once). Idempotency lives in unique indexes: one
 * payment per gateway payment id, one inbox row per gateway event id.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
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
import { disbursementEntry } from './schema-journey'
import { loan } from './schema-lending'

const ts = (name: string) => timestamp(name, { withTimezone: true })
const money = (name: string) => bigint(name, { mode: 'number' })
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity()
const loanRef = (name = 'loan_id') => bigint(name, { mode: 'number' }).references(() => loan.id)
const clientRef = () => bigint('client_id', { mode: 'number' }).references(() => client.id)

/** Payments received from a gateway, a counter or entered by the back office. */
export const payment = pgTable(
  'payment',
  {
    id: id(),
    /** Who reported it: a gateway (`sandbox`, later `paymongo`, `xendit`) or `manual` (the back office). */
    provider: text('provider').notNull(),
    /** The gateway's own id of the payment (a manual posting's: its idempotency key). */
    providerPaymentId: text('provider_payment_id').notNull(),
    /** The reference the payer gave, digits only; may match no client. */
    reference: text('reference').notNull(),
    channel: text('channel').notNull(),
    amount: money('amount').notNull(),
    /** posted | unmatched | reversed */
    status: text('status').notNull(),
    loanId: loanRef(),
    clientId: clientRef(),
    intentionId: bigint('intention_id', { mode: 'number' }),
    /** webhook | reconciliation | manual | assignment */
    source: text('source').notNull(),
    /** When the payer paid (the gateway's time). */
    paidAt: ts('paid_at').notNull(),
    receivedAt: ts('received_at').notNull(),
    postedAt: ts('posted_at'),
    /** The Manila business day it was posted on. */
    businessDate: date('business_date', { mode: 'string' }),
    postedBy: bigint('posted_by', { mode: 'number' }),
    note: text('note'),
    reversedAt: ts('reversed_at'),
    reversedBy: bigint('reversed_by', { mode: 'number' }),
    reversalReason: text('reversal_reason'),
  },
  (t) => [
    uniqueIndex('payment_provider_uq').on(t.provider, t.providerPaymentId),
    index('payment_loan_idx').on(t.loanId, t.id),
    index('payment_client_idx').on(t.clientId, t.id),
    index('payment_received_idx').on(t.receivedAt),
    index('payment_unmatched_idx').on(t.id).where(sql`${t.status} = 'unmatched'`),
    check('payment_amount_ck', sql`${t.amount} > 0`),
    check('payment_status_ck', sql`${t.status} in ('posted', 'unmatched', 'reversed')`),
  ],
)

/**
 * Every money movement of a loan (domain/loan/ledger.ts): signed centavos on one part. The balances are the sums.
 */
export const loanLedgerEntry = pgTable(
  'loan_ledger_entry',
  {
    id: id(),
    loanId: loanRef().notNull(),
    clientId: clientRef().notNull(),
    kind: text('kind').notNull(),
    part: text('part').notNull(),
    amount: money('amount').notNull(),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => payment.id),
    refundId: bigint('refund_id', { mode: 'number' }),
    /** The entry this one compensates (a reversal). */
    reversesId: bigint('reverses_id', { mode: 'number' }),
    /** The Manila business day of the movement. */
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    at: ts('at').notNull(),
    /** What a statement line says beside the kind: the fee's name, the days accrued. Never personal data. */
    memo: text('memo'),
  },
  (t) => [
    index('loan_ledger_loan_idx').on(t.loanId, t.id),
    index('loan_ledger_payment_idx').on(t.paymentId),
    uniqueIndex('loan_ledger_reverses_uq').on(t.reversesId).where(sql`${t.reversesId} is not null`),
    check('loan_ledger_part_ck', sql`${t.part} in ('principal', 'interest', 'fees', 'penalties', 'credit')`),
  ],
)

/** What a client said they would pay, how, and for what (POST /private/client/payment-intention). */
export const paymentIntention = pgTable(
  'payment_intention',
  {
    id: id(),
    clientId: clientRef().notNull(),
    loanId: loanRef().notNull(),
    /** full_repayment | custom_amount | extension_fee | instalment */
    purpose: text('purpose').notNull(),
    channel: text('channel'),
    amount: money('amount').notNull(),
    reference: text('reference').notNull(),
    /** open | paid | failed | expired */
    status: text('status').notNull(),
    /** The gateway's checkout (e-wallets). */
    checkoutId: text('checkout_id'),
    checkoutUrl: text('checkout_url'),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('payment_intention_client_idx').on(t.clientId, t.id),
    uniqueIndex('payment_intention_checkout_uq').on(t.checkoutId),
  ],
)

/** Gateway events as received (the webhook inbox): one row per event id, so a repeated delivery posts nothing. */
export const paymentEvent = pgTable(
  'payment_event',
  {
    id: id(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    providerPaymentId: text('provider_payment_id').notNull(),
    paymentId: bigint('payment_id', { mode: 'number' }),
    /** receiving (being posted; a crash leaves it for the next delivery) | posted | duplicate | unmatched | ignored */
    outcome: text('outcome').notNull(),
    receivedAt: ts('received_at').notNull(),
  },
  (t) => [uniqueIndex('payment_event_uq').on(t.provider, t.eventId)],
)

/** Credit paid back to the client's payout account through the payout provider. */
export const creditRefund = pgTable(
  'credit_refund',
  {
    id: id(),
    loanId: loanRef().notNull(),
    clientId: clientRef().notNull(),
    amount: money('amount').notNull(),
    entryId: bigint('entry_id', { mode: 'number' }).references(() => disbursementEntry.id),
    /** queued | succeeded | failed */
    status: text('status').notNull(),
    providerRef: text('provider_ref'),
    failureReason: text('failure_reason'),
    createdAt: ts('created_at').notNull(),
    completedAt: ts('completed_at'),
  },
  (t) => [
    index('credit_refund_loan_idx').on(t.loanId),
    uniqueIndex('credit_refund_one_queued_uq').on(t.loanId).where(sql`${t.status} in ('queued', 'sending')`),
  ],
)

/**
 * Background work of servicing (receipts, refunds, gateway deliveries, reconciliation): claimed like the lending
 * jobs, with SELECT ... FOR UPDATE SKIP LOCKED and a lease, so several processes share it.
 */
export const servicingJob = pgTable(
  'servicing_job',
  {
    id: id(),
    kind: text('kind').notNull(),
    subjectId: text('subject_id').notNull(),
    runAt: ts('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: ts('locked_until'),
    doneAt: ts('done_at'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('servicing_job_kind_subject_uq').on(t.kind, t.subjectId),
    index('servicing_job_due_idx').on(t.runAt).where(sql`${t.doneAt} is null`),
  ],
)

/**
 * The business clock's offsets (issue 16, item 2): days added to real time for the whole instance (`instance`)
 * or one client (`client:<id>`). Only ever grows; the sandbox moves it, production never has a row.
 */
export const clockOffset = pgTable('clock_offset', {
  scope: text('scope').primaryKey(),
  offsetDays: integer('offset_days').notNull(),
  updatedAt: ts('updated_at').notNull(),
})

/** Servicing days run for the whole instance: one row per Manila day, so a day runs once. */
export const servicingDay = pgTable('servicing_day', {
  day: date('day', { mode: 'string' }).primaryKey(),
  completedAt: ts('completed_at').notNull(),
})

/** Back-office actions on payments and loans, with who and why (issue 19 widens this into the audit trail). */
export const servicingAction = pgTable(
  'servicing_action',
  {
    id: id(),
    action: text('action').notNull(),
    paymentId: bigint('payment_id', { mode: 'number' }),
    loanId: bigint('loan_id', { mode: 'number' }),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    reason: text('reason'),
    at: ts('at').notNull(),
  },
  (t) => [
    index('servicing_action_payment_idx').on(t.paymentId),
    index('servicing_action_loan_idx').on(t.loanId),
  ],
)

// ---------------------------------------------------------------------------------------------------------
// The sandbox gateway's own books: what a real gateway (PayMongo, Xendit) keeps on its side.

/** A sandbox charge: a checkout (e-wallet) or a payment QA made arrive at a channel. */
export const sandboxCharge = pgTable('sandbox_charge', {
  id: text('id').primaryKey(),
  reference: text('reference').notNull(),
  amount: money('amount').notNull(),
  channel: text('channel').notNull(),
  /** pending | paid | failed | expired */
  status: text('status').notNull(),
  returnPath: text('return_path'),
  createdAt: ts('created_at').notNull(),
  settledAt: ts('settled_at'),
})

/** A sandbox event and its delivery to our webhook endpoint (retried with backoff). */
export const sandboxEvent = pgTable(
  'sandbox_event',
  {
    id: text('id').primaryKey(),
    chargeId: text('charge_id')
      .notNull()
      .references(() => sandboxCharge.id),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: ts('created_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    deliveredAt: ts('delivered_at'),
    lastStatus: integer('last_status'),
  },
  (t) => [index('sandbox_event_due_idx').on(t.nextAttemptAt).where(sql`${t.deliveredAt} is null`)],
)
