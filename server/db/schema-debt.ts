/**
 * Debt sales and write-offs (issue 18, items 3 and 4; docs/decisions/0029-debt-sale-and-write-off.md). Money is
 * integer centavos in `bigint`; dates are Manila calendar dates.
 *
 * - `collection_agency`: whom the back office sells overdue debt to, and what the client is told about them.
 * - `debt_sale` / `debt_sale_loan`: one sale (a batch) and each loan it assigned, with what the loan owed at the
 *   sale, part by part. A loan is sold at most once (unique `loan_id`), even if a caller skipped the locks.
 * - `debt_forward`: a payment that still reached Hiram after the sale: kept (the payment row stays posted to the
 *   loan) and owed to the agency (Civil Code Art. 1626) until the back office marks it forwarded.
 * - `loan_write_off`: the loss, with its reason; a later payment is a recovery (ledger kind `recovery`).
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  date,
  index,
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
const agencyRef = () =>
  bigint('agency_id', { mode: 'number' })
    .notNull()
    .references(() => collectionAgency.id)

export const collectionAgency = pgTable(
  'collection_agency',
  {
    id: id(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    email: text('email').notNull(),
    /** What the client is told about paying the agency (its accounts, its reference). */
    paymentInstructions: text('payment_instructions').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull(),
    createdBy: bigint('created_by', { mode: 'number' }),
  },
  (t) => [uniqueIndex('collection_agency_name_uq').on(sql`lower(${t.name})`)],
)

export const debtSale = pgTable('debt_sale', {
  id: id(),
  agencyId: agencyRef(),
  userId: bigint('user_id', { mode: 'number' }).notNull(),
  reason: text('reason'),
  at: ts('at').notNull(),
})

export const debtSaleLoan = pgTable(
  'debt_sale_loan',
  {
    id: id(),
    saleId: bigint('sale_id', { mode: 'number' })
      .notNull()
      .references(() => debtSale.id),
    loanId: loanRef(),
    clientId: clientRef(),
    agencyId: agencyRef(),
    /** What the loan owed when it was sold, in all and by part. */
    amount: money('amount').notNull(),
    principal: money('principal').notNull(),
    interest: money('interest').notNull(),
    fees: money('fees').notNull(),
    penalties: money('penalties').notNull(),
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    at: ts('at').notNull(),
    /** When the client's notice (SMS and e-mail) went out; null until then. */
    notifiedAt: ts('notified_at'),
  },
  (t) => [
    uniqueIndex('debt_sale_loan_loan_uq').on(t.loanId),
    index('debt_sale_loan_sale_idx').on(t.saleId),
    index('debt_sale_loan_client_idx').on(t.clientId),
  ],
)

export const debtForward = pgTable(
  'debt_forward',
  {
    id: id(),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => payment.id),
    loanId: loanRef(),
    clientId: clientRef(),
    agencyId: agencyRef(),
    amount: money('amount').notNull(),
    /** pending (owed to the agency), forwarded (paid over), cancelled (the payment was reversed first). */
    status: text('status').notNull(),
    createdAt: ts('created_at').notNull(),
    forwardedAt: ts('forwarded_at'),
    forwardedBy: bigint('forwarded_by', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('debt_forward_payment_uq').on(t.paymentId),
    index('debt_forward_status_idx').on(t.status, t.id),
    check('debt_forward_status_ck', sql`${t.status} in ('pending', 'forwarded', 'cancelled')`),
  ],
)

export const loanWriteOff = pgTable(
  'loan_write_off',
  {
    id: id(),
    loanId: loanRef(),
    clientId: clientRef(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    /** What left the books, in all. */
    amount: money('amount').notNull(),
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    at: ts('at').notNull(),
  },
  (t) => [uniqueIndex('loan_write_off_loan_uq').on(t.loanId)],
)
