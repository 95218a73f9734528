/**
 * What the public site shows today (issue 19 item 7): every visitor's first page asks, so the answer is cheap.
 * The rows (a few dozen at most) are kept in memory per database and dropped when a back-office write changes
 * them, or after CONTENT_TTL_MS in case another process wrote; the answer for a day is derived from them once.
 * "Today" is the instance's business day (server/services/payments/clock.ts): in production, where the clock
 * cannot move, it is Manila's date and costs no query; where the sandbox may move it, one indexed read of the
 * offset per request, so a moved clock shows and hides content at once.
 */
import { asc } from 'drizzle-orm'
import { bannerShown, promoShown } from '../../../domain/content/windows'
import type { PublicBanner, PublicPromoItem, SiteContent } from '../../../domain/contract/content'
import { AGE_LIMITS, type AgeLimits } from '../../../domain/journey/fields'
import { manilaDate } from '../../../domain/pricing/manila-date'
import type { Db, DbOrTx } from '../../db/client'
import { ageLimits, appLink, banner, promoItem } from '../../db/schema-content'
import type { AppDeps } from '../../deps'
import { businessToday, clockMovable } from '../payments/clock'

/** How long rows read from the database are trusted when no write of this process said they changed. */
export const CONTENT_TTL_MS = 30_000

type BannerRow = typeof banner.$inferSelect
type PromoRow = typeof promoItem.$inferSelect
type AppRow = typeof appLink.$inferSelect
type AgeLimitsRow = typeof ageLimits.$inferSelect

interface Rows {
  banners: BannerRow[]
  promoItems: PromoRow[]
  apps: AppRow[]
  /** The age limits' row (ADR 0048); none: the defaults. */
  ageLimits?: AgeLimitsRow
}

/** The limits a row sets, or the defaults (AGE_LIMITS) when nobody set them. */
export const limitsOf = (row: AgeLimitsRow | undefined): AgeLimits =>
  row ? { min: row.minAge, max: row.maxAge } : { min: AGE_LIMITS.min, max: AGE_LIMITS.max }

interface Entry {
  readAt: number
  rows: Promise<Rows>
  /** The answer per business day (at most a couple: today, and tomorrow around midnight). */
  answers: Map<string, SiteContent>
}

const cache = new WeakMap<Db, Entry>()

async function readRows(db: DbOrTx): Promise<Rows> {
  const [banners, promoItems, apps, [limits]] = await Promise.all([
    db.select().from(banner).orderBy(asc(banner.startDate), asc(banner.id)),
    db.select().from(promoItem).orderBy(asc(promoItem.startDate), asc(promoItem.id)),
    db.select().from(appLink).orderBy(asc(appLink.platform)),
    db.select().from(ageLimits).limit(1),
  ])
  return { banners, promoItems, apps, ageLimits: limits }
}

/** Forgets the rows kept for `db`: called by every back-office write once its transaction has committed. */
export function forgetSiteContent(db: Db) {
  cache.delete(db)
}

function entryFor(db: Db): Entry {
  const now = Date.now()
  let entry = cache.get(db)
  if (!entry || now - entry.readAt > CONTENT_TTL_MS) {
    const rows = readRows(db)
    entry = { readAt: now, rows, answers: new Map() }
    cache.set(db, entry)
    // A failed read is not kept: the next request reads again.
    const failed = entry
    rows.catch(() => {
      if (cache.get(db) === failed) cache.delete(db)
    })
  }
  return entry
}

/** The instance's business day: Manila's date, moved by the sandbox clock where it may move. */
export function siteToday(deps: AppDeps): Promise<string> | string {
  const now = deps.now()
  return clockMovable(deps) ? businessToday(deps.database.db, null, now) : manilaDate(now)
}

export function contentOn(rows: Rows, today: string): SiteContent {
  const banners: PublicBanner[] = rows.banners
    .filter((row) =>
      bannerShown(today, {
        start: row.startDate,
        end: row.endDate,
        hideStart: row.hideStartDate,
        hideEnd: row.hideEndDate,
      }),
    )
    .map(({ id, alt, desktop, mobile }) => ({ id, alt, desktop, mobile }))
  const promoItems: PublicPromoItem[] = rows.promoItems
    .filter((row) => promoShown(today, { start: row.startDate, end: row.endDate }))
    .map(({ id, title, link }) => ({ id, title, link }))
  const apps = rows.apps
    .filter((row) => row.enabled)
    .map(({ platform, url }) => ({ platform: platform as 'android' | 'ios', url }))
  return { today, banners, promoItems, apps, ageLimits: limitsOf(rows.ageLimits) }
}

/** What the site shows today, windows applied. */
export async function siteContent(deps: AppDeps): Promise<SiteContent> {
  const db = deps.database.db
  const today = await siteToday(deps)
  const entry = entryFor(db)
  const known = entry.answers.get(today)
  if (known) return known
  const answer = contentOn(await entry.rows, today)
  if (entry.answers.size > 4) entry.answers.clear()
  entry.answers.set(today, answer)
  return answer
}
