/**
 * Collection contacts (issue 18, item 2): every payment reminder Hiram queues, sends or skips, one row per loan,
 * reminder kind, channel and due date (the unique key: queuing a day twice adds nothing). The recipient is not
 * stored: it is read from `client` when the reminder is sent, so it is always the borrower's own phone or e-mail,
 * never a reference's. Rows are never deleted; only their status moves (queued -> sending -> sent | failed, or
 * queued -> skipped), with the reason of a skip or failure. docs/decisions/0028-reminders-and-collection-contacts.md.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { client } from './schema-identity'
import { loan } from './schema-lending'

const ts = (name: string) => timestamp(name, { withTimezone: true })

export const collectionContact = pgTable(
  'collection_contact',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    loanId: bigint('loan_id', { mode: 'number' })
      .notNull()
      .references(() => loan.id),
    clientId: bigint('client_id', { mode: 'number' })
      .notNull()
      .references(() => client.id),
    /** The reminder (domain/loan/reminders.ts): before_3, due_today, after_7... */
    kind: text('kind').notNull(),
    channel: text('channel').notNull(),
    /** The Manila due date the reminder is about (the loan's, or the oldest unpaid instalment's). */
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    /** The client's business day it was queued for. */
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    /** When it may go out: always inside 06:00-22:00 Manila (moved on if a send finds it outside). */
    scheduledAt: ts('scheduled_at').notNull(),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** The messaging provider that took it (the outbox holds the message itself). */
    provider: text('provider'),
    /** Why it was skipped or failed (never personal data). */
    reason: text('reason'),
    createdAt: ts('created_at').notNull(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    uniqueIndex('collection_contact_uq').on(t.loanId, t.kind, t.channel, t.dueDate),
    index('collection_contact_due_idx').on(t.scheduledAt, t.id).where(sql`${t.status} = 'queued'`),
    index('collection_contact_client_idx').on(t.clientId),
    check('collection_contact_channel_ck', sql`${t.channel} in ('sms', 'email')`),
    check(
      'collection_contact_status_ck',
      sql`${t.status} in ('queued', 'sending', 'sent', 'skipped', 'failed')`,
    ),
  ],
)

/**
 * Promises to pay (issue 19, item 3): what a client told collections they would pay, by which Manila day, for
 * which loan, recorded by which back-office user. Append-only, like the contacts above: a broken promise stays.
 */
export const promiseToPay = pgTable(
  'promise_to_pay',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    clientId: bigint('client_id', { mode: 'number' })
      .notNull()
      .references(() => client.id),
    loanId: bigint('loan_id', { mode: 'number' })
      .notNull()
      .references(() => loan.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    promisedOn: date('promised_on', { mode: 'string' }).notNull(),
    note: text('note'),
    recordedBy: bigint('recorded_by', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('promise_to_pay_client_idx').on(t.clientId, t.id),
    index('promise_to_pay_loan_idx').on(t.loanId, t.promisedOn),
    check('promise_to_pay_amount_ck', sql`${t.amount} > 0`),
  ],
)
