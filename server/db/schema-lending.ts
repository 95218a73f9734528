/**
 * Lending (issue 6): applications, the decisions taken on them, the job queue the decision engine and the payout
 * run from, the rendered and signed documents, disbursements and loans. Money is integer centavos in `bigint`.
 * The rules that must hold under concurrent requests are indexes: at most one active application per client,
 * one create per idempotency key, one disbursement per application, one loan per application.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { backOfficeUser, client } from './schema-identity'
import { disbursementEntry } from './schema-journey'

const ts = (name: string) => timestamp(name, { withTimezone: true })
const money = (name: string) => bigint(name, { mode: 'number' })
const clientId = () =>
  bigint('client_id', { mode: 'number' })
    .notNull()
    .references(() => client.id)

/** Raw bytes (PDFs): stored exactly as rendered, so the signed file is the file the client read. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => new Uint8Array(value),
})

/** Statuses after which an application is no longer active (spec section 4): completed, canceled, rejected, terminated. */
export const INACTIVE_APPLICATION_STATUSES = [4, 5, 6, 23] as const

export const application = pgTable(
  'application',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    clientId: clientId(),
    /** Application status codes of spec section 4. */
    status: smallint('status').notNull(),
    /** What the client asked for (kept unchanged by counter-offers: refusing an increase goes back to it). */
    desiredAmount: money('desired_amount').notNull(),
    desiredTerm: integer('desired_term').notNull(),
    /** The figures the application stands at now (the desired ones, or an accepted counter-offer). */
    principalAmount: money('principal_amount').notNull(),
    term: integer('term').notNull(),
    /** A counter-offer's amount: the lower amount (13, 17) or the upper limit (18). */
    offeredAmount: money('offered_amount'),
    packageFeeConsent: boolean('package_fee_consent').notNull(),
    promoCode: text('promo_code'),
    paymentMethod: text('payment_method').notNull(),
    /** new | repeat: the pricing the client gets. */
    clientKind: text('client_kind').notNull(),
    iovationBlackbox: text('iovation_blackbox'),
    affiliate: jsonb('affiliate'),
    marketing: jsonb('marketing'),
    idempotencyKey: text('idempotency_key'),
    /** The payout account chosen when the client signed, and its outcome. */
    disbursementEntryId: bigint('disbursement_entry_id', { mode: 'number' }).references(
      () => disbursementEntry.id,
    ),
    cashPickupNumber: text('cash_pickup_number'),
    /** The offer the client signed, exactly as the documents show it. */
    acceptedOffer: jsonb('accepted_offer'),
    /** Bumped on every change of the figures: a decision or a document for an older version is stale. */
    version: integer('version').notNull().default(1),
    signedAt: ts('signed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('application_one_active_per_client_uq')
      .on(t.clientId)
      .where(sql`${t.status} not in (4, 5, 6, 23)`),
    uniqueIndex('application_idempotency_uq')
      .on(t.clientId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    index('application_client_idx').on(t.clientId, t.createdAt),
    index('application_waiting_idx').on(t.createdAt, t.id).where(sql`${t.status} in (14, 401)`),
    // The shared-device rule of the decision engine (issue 22, migration 0023).
    index('application_blackbox_idx')
      .on(t.iovationBlackbox, t.createdAt)
      .where(sql`${t.iovationBlackbox} is not null`),
  ],
)

/**
 * The review queue's state of an application (issue 19 item 4, docs/decisions/0036-review-queue.md): who works on
 * it, and the first signature of a four-eyes approval, valid only for the application version it was given on.
 */
export const applicationReview = pgTable(
  'application_review',
  {
    applicationId: bigint('application_id', { mode: 'number' })
      .primaryKey()
      .references(() => application.id),
    assignedTo: bigint('assigned_to', { mode: 'number' }).references(() => backOfficeUser.id),
    assignedAt: ts('assigned_at'),
    firstApprovedBy: bigint('first_approved_by', { mode: 'number' }).references(() => backOfficeUser.id),
    firstApprovedAt: ts('first_approved_at'),
    firstApprovedVersion: integer('first_approved_version'),
    firstApprovalReason: text('first_approval_reason'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('application_review_assigned_idx').on(t.assignedTo)],
)

/** Every decision on an application, explainable: the rules run, the inputs they saw, the reasons. */
export const applicationDecision = pgTable(
  'application_decision',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => application.id),
    /** engine | back_office */
    source: text('source').notNull(),
    /** approve | reject | manual | decrease | special_offer | increase | error */
    outcome: text('outcome').notNull(),
    /** The application version the decision was taken on. */
    applicationVersion: integer('application_version').notNull(),
    rules: jsonb('rules').notNull(),
    inputs: jsonb('inputs').notNull(),
    reasons: jsonb('reasons').notNull(),
    offeredAmount: money('offered_amount'),
    decidedBy: bigint('decided_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('application_decision_app_idx').on(t.applicationId, t.createdAt)],
)

/**
 * Work the server does in the background (decide, payout). Claimed with SELECT ... FOR UPDATE SKIP LOCKED and a
 * lease (`locked_until`), so any number of server processes share it and a crashed worker's job is taken over.
 */
export const lendingJob = pgTable(
  'lending_job',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** decide | payout */
    kind: text('kind').notNull(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => application.id),
    runAt: ts('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: ts('locked_until'),
    doneAt: ts('done_at'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('lending_job_kind_app_uq').on(t.kind, t.applicationId),
    index('lending_job_due_idx').on(t.runAt).where(sql`${t.doneAt} is null`),
  ],
)

/** The loan agreement and the Truth-in-Lending disclosure statement, as rendered and, once signed, kept unchanged. */
export const loanDocument = pgTable(
  'loan_document',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => application.id),
    clientId: clientId(),
    /** loan_agreement | disclosure_statement */
    type: text('type').notNull(),
    applicationVersion: integer('application_version').notNull(),
    content: bytea('content').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    renderedAt: ts('rendered_at').notNull(),
    signedAt: ts('signed_at'),
  },
  (t) => [
    uniqueIndex('loan_document_app_type_uq').on(t.applicationId, t.type),
    index('loan_document_client_idx').on(t.clientId),
  ],
)

/** The money going out for one application: one row, ever (retries after a failure reuse it). */
export const disbursement = pgTable(
  'disbursement',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => application.id),
    clientId: clientId(),
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => disbursementEntry.id),
    type: text('type').notNull(),
    amount: money('amount').notNull(),
    /** queued | succeeded | failed | cash_pickup_ready */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    providerRef: text('provider_ref'),
    cashPickupNumber: text('cash_pickup_number'),
    failureReason: text('failure_reason'),
    createdAt: ts('created_at').notNull().defaultNow(),
    completedAt: ts('completed_at'),
  },
  (t) => [uniqueIndex('disbursement_application_uq').on(t.applicationId)],
)

/** Loan status codes of spec section 4 (4 active). Amounts are those of the signed offer. */
export const loan = pgTable(
  'loan',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    clientId: clientId(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => application.id),
    status: smallint('status').notNull(),
    principal: money('principal').notNull(),
    interest: money('interest').notNull(),
    fees: money('fees').notNull(),
    total: money('total').notNull(),
    term: integer('term').notNull(),
    /** The fee lines of the offer (processing, service, withdrawal, invoicing, package), centavos. */
    feeLines: jsonb('fee_lines').notNull(),
    createdAt: ts('created_at').notNull(),
    /** Asia/Manila calendar dates. A draft's are provisional: set again when the money leaves. */
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    finalClosingDate: date('final_closing_date', { mode: 'string' }).notNull(),
    /**
     * The loan lifecycle's state (domain/loan/loan-lifecycle.machine.ts); `status` is its spec code, written
     * with it in the same statement. History: state_transition rows of machine 'loanLifecycle'.
     */
    state: text('state').notNull().default('active'),
    /**
     * How an open loan is repaid (issue 17): on_terms or scheduled, the child of `state` in the statechart
     * (LOAN_MODEL_VERSION 2). Kept on a paid loan so a reversal reopens it on the plan it was repaid on.
     */
    plan: text('plan').notNull().default('on_terms'),
    /**
     * Whether an active loan is paid as agreed (issue 18): current or overdue, the child of `plan` while active
     * (LOAN_MODEL_VERSION 3); 'current' in every other state. The daily servicing run moves it.
     */
    standing: text('standing').notNull().default('current'),
    /** The first Manila day of the current overdue spell (null while current): days past due count from it. */
    overdueSince: date('overdue_since', { mode: 'string' }),
    /**
     * The last Manila business day the servicing run (server/services/servicing/daily-run.ts) completed for this
     * loan: interest, schedule interest, standing and penalties are booked through it. A day runs once per loan.
     */
    servicedThrough: date('serviced_through', { mode: 'string' }),
    /** The last Manila day a late-payment penalty was charged for (null: none yet). */
    penaltyThrough: date('penalty_through', { mode: 'string' }),
    /** The Manila day the money left (interest counts from it); null while a draft. */
    startDate: date('start_date', { mode: 'string' }),
    disbursedAt: ts('disbursed_at'),
    /** Interest accrual so far (domain/loan/ledger.ts `accrue`): days of the term, and Σ principal × days. */
    accruedDays: integer('accrued_days').notNull().default(0),
    accrualBasis: bigint('accrual_basis', { mode: 'bigint' }).notNull().default(sql`0`),
    /** Days on hold (no accrual), and the Manila day the current hold began. */
    heldDays: integer('held_days').notNull().default(0),
    heldSince: date('held_since', { mode: 'string' }),
    closedAt: ts('closed_at'),
    /** Bumped by every ledger change: the statement and the screens' caches key on it. */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('loan_application_uq').on(t.applicationId),
    index('loan_client_idx').on(t.clientId, t.status),
    index('loan_servicing_idx').on(t.servicedThrough, t.id).where(sql`${t.state} = 'active'`),
  ],
)
