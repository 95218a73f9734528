/**
 * The client journey (issue 5): the persisted journey statechart, what each registration step collects, the
 * uploaded files, identity-verification sessions, bank-data attempts and payout accounts.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { client } from './schema-identity'

const ts = (name: string) => timestamp(name, { withTimezone: true })
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity()
const clientId = () =>
  bigint('client_id', { mode: 'number' })
    .notNull()
    .references(() => client.id)

/**
 * One row per client: the journey machine's persisted snapshot. Every completing call locks this row
 * (SELECT ... FOR UPDATE) for the length of its transaction, so two calls for one client take turns and the
 * second sees the first one's step. `step` repeats the snapshot's state for queries; `version` counts changes.
 */
export const clientJourney = pgTable(
  'client_journey',
  {
    clientId: bigint('client_id', { mode: 'number' })
      .primaryKey()
      .references(() => client.id),
    snapshot: jsonb('snapshot').notNull(),
    step: text('step').notNull(),
    version: integer('version').notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('client_journey_step_idx').on(t.step)],
)

/**
 * The history of every persisted lifecycle: one row per accepted transition, written in the same transaction as
 * the state it leads to (server/services/journey/journey.ts for the client journey). One table for every machine
 * (`machine` = the statechart's id, 'clientJourney' now, the loan lifecycle later; `subject_id` = the journey's
 * client or the loan), so a client's timeline is one indexed read over all of them. Self-transitions are rows too.
 * `call` is the route pattern ('PUT /web/private/client'), null for a job; `actor_id` is the client's or the
 * back-office user's id, or the job's name and id. Append-only: nothing updates or deletes a row.
 */
export const stateTransition = pgTable(
  'state_transition',
  {
    id: id(),
    machine: text('machine').notNull(),
    subjectId: bigint('subject_id', { mode: 'number' }).notNull(),
    clientId: clientId(),
    modelVersion: integer('model_version').notNull(),
    fromState: text('from_state').notNull(),
    toState: text('to_state').notNull(),
    event: text('event').notNull(),
    call: text('call'),
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [
    index('state_transition_client_idx').on(t.clientId, t.id),
    index('state_transition_subject_idx').on(t.machine, t.subjectId, t.id),
    check('state_transition_actor_kind_ck', sql`${t.actorKind} in ('client', 'back-office', 'job')`),
    check('state_transition_call_ck', sql`(${t.actorKind} = 'job') = (${t.call} is null)`),
  ],
)

/** Details (step 1) and employment (step 2). Money in integer centavos. */
export const clientProfile = pgTable('client_profile', {
  clientId: bigint('client_id', { mode: 'number' })
    .primaryKey()
    .references(() => client.id),
  firstName: text('first_name').notNull(),
  middleName: text('middle_name'),
  lastName: text('last_name').notNull(),
  birthDate: date('birth_date', { mode: 'string' }).notNull(),
  gender: text('gender').notNull(),
  civilStatus: text('civil_status').notNull(),
  /** client when typed by the client, back_office when an agent entered it for the client to confirm. */
  detailsSource: text('details_source').notNull().default('client'),
  detailsConfirmedAt: ts('details_confirmed_at'),
  employmentType: text('employment_type'),
  companyName: text('company_name'),
  monthlyIncome: bigint('monthly_income', { mode: 'number' }),
  monthlyExpenses: bigint('monthly_expenses', { mode: 'number' }),
  /** Optional (issue 22 item 5, migration 0024): a landline or mobile number, as typed (generic phone rule). */
  employerPhone: text('employer_phone'),
  /** Optional: the BIR TIN's digits (9, 12 or 14). */
  taxId: text('tax_id'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
})

/** People the client names (reference = the relative of step 3; additional = more contacts). */
export const clientContact = pgTable(
  'client_contact',
  {
    id: id(),
    clientId: clientId(),
    kind: text('kind').notNull(),
    fullName: text('full_name').notNull(),
    relation: text('relation').notNull(),
    phone: text('phone').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('client_contact_client_idx').on(t.clientId)],
)

export const clientAddress = pgTable('client_address', {
  clientId: bigint('client_id', { mode: 'number' })
    .primaryKey()
    .references(() => client.id),
  regionCode: text('region_code').notNull(),
  cityCode: text('city_code').notNull(),
  districtCode: text('district_code').notNull(),
  wardCode: text('ward_code').notNull(),
  street: text('street').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
})

/** Device locations the client allowed the browser to share (POST /geo). */
export const clientGeo = pgTable(
  'client_geo',
  {
    id: id(),
    clientId: clientId(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    accuracy: doublePrecision('accuracy'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('client_geo_client_idx').on(t.clientId)],
)

export const identityDocument = pgTable('identity_document', {
  clientId: bigint('client_id', { mode: 'number' })
    .primaryKey()
    .references(() => client.id),
  documentType: text('document_type').notNull(),
  documentNumber: text('document_number').notNull(),
  expiryDate: date('expiry_date', { mode: 'string' }),
  finishedAt: ts('finished_at').notNull().defaultNow(),
})

/**
 * Files clients upload. The bytes live under DATA_DIR/uploads/<storageName> (a random name); this row says
 * whose they are. A replaced or deleted identity photo keeps its row with deleted_at set, so attempts can be
 * counted; at most one live photo per side and client. A supporting document replaces the one of its type (the
 * old row is deleted), and a client keeps a bounded number of types (server/services/journey/uploads.ts).
 */
export const uploadedFile = pgTable(
  'uploaded_file',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: clientId(),
    /** id_document | document | bank_statement | client_document */
    category: text('category').notNull(),
    /** front | back | selfie for id_document; the document type for the others. */
    kind: text('kind').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    storageName: text('storage_name').notNull(),
    capturedAt: ts('captured_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    index('uploaded_file_client_idx').on(t.clientId, t.category),
    uniqueIndex('uploaded_file_live_id_photo_uq')
      .on(t.clientId, t.kind)
      .where(sql`${t.category} = 'id_document' and ${t.deletedAt} is null`),
    // Supporting documents are replaced, not accumulated: one live file per client, category and type.
    uniqueIndex('uploaded_file_live_document_uq')
      .on(t.clientId, t.category, t.kind)
      .where(sql`${t.category} <> 'id_document' and ${t.deletedAt} is null`),
  ],
)

/** Identity-verification sessions with the provider (Veriff-style) and their decisions. */
export const verificationSession = pgTable(
  'verification_session',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: clientId(),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref').notNull(),
    url: text('url').notNull(),
    /** created | approved | declined | resubmission_requested */
    status: text('status').notNull(),
    reason: text('reason'),
    createdAt: ts('created_at').notNull().defaultNow(),
    decidedAt: ts('decided_at'),
  },
  (t) => [index('verification_session_client_idx').on(t.clientId, t.createdAt)],
)

/** Every bank-data (Kontomatik-style) login attempt; failed logins are counted from here. */
export const bankDataAttempt = pgTable(
  'bank_data_attempt',
  {
    id: id(),
    clientId: clientId(),
    bank: text('bank').notNull(),
    /** imported | InvalidCredentials | ServiceTemporarilyUnavailable | skipped */
    outcome: text('outcome').notNull(),
    /** What the import brought back (accounts, 90-day inflow), never the credentials. */
    summary: jsonb('summary'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('bank_data_attempt_client_idx').on(t.clientId, t.outcome)],
)

/**
 * Payout accounts. The unique indexes are the rules: the same account twice for one client (bankAccountExist),
 * one cash card for one client only (uniqueCashCard), one pickup entry per provider, one selected entry.
 */
export const disbursementEntry = pgTable(
  'disbursement_entry',
  {
    id: id(),
    clientId: clientId(),
    /** bank_transfer | ewallet | cash_card | cash_pickup */
    type: text('type').notNull(),
    institutionId: integer('institution_id'),
    accountNumber: text('account_number'),
    /** cebuana | m_lhuillier for cash pickup. */
    provider: text('provider'),
    selected: boolean('selected').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('disbursement_entry_client_idx').on(t.clientId),
    uniqueIndex('disbursement_account_uq')
      .on(t.clientId, t.type, t.institutionId, t.accountNumber)
      .where(sql`${t.type} in ('bank_transfer', 'ewallet')`),
    uniqueIndex('disbursement_cash_card_uq').on(t.accountNumber).where(sql`${t.type} = 'cash_card'`),
    uniqueIndex('disbursement_cash_pickup_uq')
      .on(t.clientId, t.provider)
      .where(sql`${t.type} = 'cash_pickup'`),
    uniqueIndex('disbursement_selected_uq').on(t.clientId).where(sql`${t.selected}`),
  ],
)
