/**
 * Drizzle schema. Money is integer centavos in `bigint` columns (mode 'number': safe up to 2^53 centavos,
 * far beyond any consumer loan); timestamps are `timestamptz` and always written in UTC.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

/** Key/value configuration documents (calculator limits, pricing parameters, feature flags). */
export const config = pgTable('config', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Payout institutions: banks (parent bank_account) and e-wallets (parent e-wallet). */
export const institution = pgTable(
  'institution',
  {
    id: integer('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    parent: text('parent').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [uniqueIndex('institution_parent_code_uq').on(t.parent, t.code)],
)

/** Classification lists (gender, civil status, ...): one label per code and locale. */
export const classification = pgTable(
  'classification',
  {
    path: text('path').notNull(),
    code: text('code').notNull(),
    locale: text('locale').notNull(),
    label: text('label').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.path, t.code, t.locale] })],
)

/** Footer contact entries: cc, cc1 (customer care), dc, dc1 (debt collection). */
export const contact = pgTable('contact', {
  key: text('key').primaryKey(),
  kind: text('kind').notNull(),
  link: text('link').notNull(),
  display: text('display').notNull(),
  hours: text('hours'),
})

/**
 * PSGC geography. `level` is region | province | city (independent city at province level) |
 * muncity (city or municipality inside a province) | barangay. `parentCode` links each row to the level above.
 */
export const psgcArea = pgTable(
  'psgc_area',
  {
    code: text('code').primaryKey(),
    level: text('level').notNull(),
    name: text('name').notNull(),
    parentCode: text('parent_code'),
    regionCode: text('region_code').notNull(),
  },
  (t) => [
    index('psgc_area_parent_idx').on(t.parentCode, t.name),
    index('psgc_area_level_idx').on(t.level, t.name),
  ],
)

/** Every saved configuration document, kept so a pricing change can always be traced. */
export const configAudit = pgTable('config_audit', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  key: text('key').notNull(),
  value: jsonb('value').notNull(),
  createdAt: createdAt(),
  note: text('note').notNull().default(sql`''`),
})

/** Promo codes with their validity window and usage rules (domain/pricing/promo.ts decides). */
export const promoCode = pgTable('promo_code', {
  code: text('code').primaryKey(),
  validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
  validTo: timestamp('valid_to', { withTimezone: true }).notNull(),
  clientKinds: text('client_kinds').array().notNull(),
  maxUses: integer('max_uses'),
  usesPerClient: integer('uses_per_client'),
  interestDiscountBps: integer('interest_discount_bps').notNull(),
  serviceFeeDiscountBps: integer('service_fee_discount_bps').notNull(),
  description: text('description').notNull().default(''),
  createdAt: createdAt(),
})

/** One row per use of a promo code by a client (written when an application takes the code). */
export const promoRedemption = pgTable(
  'promo_redemption',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    code: text('code')
      .notNull()
      .references(() => promoCode.code),
    clientId: bigint('client_id', { mode: 'number' }).notNull(),
    applicationId: bigint('application_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [index('promo_redemption_code_idx').on(t.code, t.clientId)],
)
