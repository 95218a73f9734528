/**
 * Site content the back office manages (issue 19 item 7, docs/decisions/0033-banners-promo-app-link.md): banners,
 * promo menu items and the installable-app entries. Dates are Manila calendar days (`date`, both ends included);
 * whether a row is shown today is decided by domain/content/windows.ts. Migration 0017_banners_promo_app.sql.
 */
import { sql } from 'drizzle-orm'
import { boolean, check, date, pgTable, smallint, text } from 'drizzle-orm/pg-core'
import { id, ts } from './columns'

const day = (name: string) => date(name, { mode: 'string' })

export const banner = pgTable(
  'banner',
  {
    id: id(),
    /** The image's text alternative. */
    alt: text('alt').notNull(),
    /** A path under /public or an https address. */
    desktop: text('desktop').notNull(),
    mobile: text('mobile').notNull(),
    startDate: day('start_date').notNull(),
    /** Null: shown for good. */
    endDate: day('end_date'),
    hideStartDate: day('hide_start_date'),
    hideEndDate: day('hide_end_date'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('banner_end_ck', sql`${t.endDate} is null or ${t.endDate} >= ${t.startDate}`),
    check(
      'banner_hide_ck',
      sql`(${t.hideStartDate} is null and ${t.hideEndDate} is null) or (${t.hideStartDate} is not null and ${t.hideEndDate} >= ${t.hideStartDate})`,
    ),
  ],
)

export const promoItem = pgTable(
  'promo_item',
  {
    id: id(),
    title: text('title').notNull(),
    /** A path on the site or an https address. */
    link: text('link').notNull(),
    startDate: day('start_date').notNull(),
    endDate: day('end_date'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [check('promo_item_end_ck', sql`${t.endDate} is null or ${t.endDate} >= ${t.startDate}`)],
)

export const appLink = pgTable(
  'app_link',
  {
    platform: text('platform').primaryKey(),
    url: text('url').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [check('app_link_platform_ck', sql`${t.platform} in ('android', 'ios')`)],
)

/**
 * The age limits (spec section 9, docs/decisions/0048-age-limits-content-setting.md): one row at most (id 1),
 * made the first time the back office sets them. No row: the defaults, AGE_LIMITS in domain/journey/fields.ts,
 * the one place they are written. Migration 0025_age_limits.
 */
export const ageLimits = pgTable(
  'age_limits',
  {
    id: smallint('id').primaryKey().default(1),
    minAge: smallint('min_age').notNull(),
    maxAge: smallint('max_age').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('age_limits_one_row_ck', sql`${t.id} = 1`),
    check('age_limits_range_ck', sql`${t.minAge} >= 18 and ${t.maxAge} <= 100 and ${t.minAge} < ${t.maxAge}`),
  ],
)
