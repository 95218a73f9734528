/**
 * The back office's side of site content (issue 19 item 7): list, add, change and remove banners and promo menu
 * items, set the installable-app entries. Every write records its change in the audit trail in its own
 * transaction (entities `banner`, `promo_item`, `app_link`) and, once committed, drops the public answer kept in
 * memory (site-content.ts), so the site shows the change on its next request.
 */
import { asc, count, desc, eq } from 'drizzle-orm'
import { bannerShown, promoShown, windowProblems } from '../../../domain/content/windows'
import type {
  AppLink,
  Banner,
  BannerBody,
  Platform,
  PromoItem,
  PromoItemBody,
} from '../../../domain/contract/content'
import { invalid, notFound } from '../../../domain/errors'
import { appLink, banner, promoItem } from '../../db/schema-content'
import type { AppDeps } from '../../deps'
import { recordChange } from '../audit/audit'
import { forgetSiteContent, siteToday } from './site-content'

type BannerRow = typeof banner.$inferSelect
type PromoRow = typeof promoItem.$inferSelect
type AppRow = typeof appLink.$inferSelect

export function bannerView(row: BannerRow, today: string): Banner {
  return {
    id: row.id,
    alt: row.alt,
    desktop: row.desktop,
    mobile: row.mobile,
    startDate: row.startDate,
    endDate: row.endDate,
    hideStartDate: row.hideStartDate,
    hideEndDate: row.hideEndDate,
    shownToday: bannerShown(today, {
      start: row.startDate,
      end: row.endDate,
      hideStart: row.hideStartDate,
      hideEnd: row.hideEndDate,
    }),
    updatedAt: row.updatedAt.toISOString(),
  }
}

export function promoItemView(row: PromoRow, today: string): PromoItem {
  return {
    id: row.id,
    title: row.title,
    link: row.link,
    startDate: row.startDate,
    endDate: row.endDate,
    shownToday: promoShown(today, { start: row.startDate, end: row.endDate }),
    updatedAt: row.updatedAt.toISOString(),
  }
}

const appLinkView = (row: AppRow): AppLink => ({
  platform: row.platform as Platform,
  url: row.url,
  enabled: row.enabled,
  updatedAt: row.updatedAt.toISOString(),
})

function assertWindow(body: {
  startDate: string
  endDate: string | null
  hideStartDate?: string | null
  hideEndDate?: string | null
}) {
  const problems = windowProblems(body)
  if (problems.length) throw invalid(problems)
}

// ---------------------------------------------------------------------------------------------------------
// Banners

export async function bannersPage(deps: AppDeps, page: number, perPage: number) {
  const db = deps.database.db
  const today = await siteToday(deps)
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(banner)
      .orderBy(desc(banner.startDate), desc(banner.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: count() }).from(banner),
  ])
  return { items: rows.map((row) => bannerView(row, today)), total: total?.n ?? 0 }
}

export async function createBanner(deps: AppDeps, body: BannerBody): Promise<Banner> {
  assertWindow(body)
  const db = deps.database.db
  const now = deps.now()
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(banner)
      .values({ ...body, createdAt: now, updatedAt: now })
      .returning()
    await recordChange(tx, { entity: 'banner', entityId: created!.id, before: null, after: created })
    return created!
  })
  forgetSiteContent(db)
  return bannerView(row, await siteToday(deps))
}

export async function updateBanner(deps: AppDeps, id: number, body: BannerBody): Promise<Banner> {
  assertWindow(body)
  const db = deps.database.db
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(banner).where(eq(banner.id, id)).for('update')
    if (!before) throw notFound('Banner')
    const [after] = await tx
      .update(banner)
      .set({ ...body, updatedAt: deps.now() })
      .where(eq(banner.id, id))
      .returning()
    await recordChange(tx, { entity: 'banner', entityId: id, before, after })
    return after!
  })
  forgetSiteContent(db)
  return bannerView(row, await siteToday(deps))
}

export async function deleteBanner(deps: AppDeps, id: number) {
  const db = deps.database.db
  await db.transaction(async (tx) => {
    const [before] = await tx.delete(banner).where(eq(banner.id, id)).returning()
    if (!before) throw notFound('Banner')
    await recordChange(tx, { entity: 'banner', entityId: id, before, after: null })
  })
  forgetSiteContent(db)
  return { id }
}

// ---------------------------------------------------------------------------------------------------------
// Promo menu items

export async function promoItemsPage(deps: AppDeps, page: number, perPage: number) {
  const db = deps.database.db
  const today = await siteToday(deps)
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(promoItem)
      .orderBy(desc(promoItem.startDate), desc(promoItem.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: count() }).from(promoItem),
  ])
  return { items: rows.map((row) => promoItemView(row, today)), total: total?.n ?? 0 }
}

export async function createPromoItem(deps: AppDeps, body: PromoItemBody): Promise<PromoItem> {
  assertWindow(body)
  const db = deps.database.db
  const now = deps.now()
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(promoItem)
      .values({ ...body, createdAt: now, updatedAt: now })
      .returning()
    await recordChange(tx, { entity: 'promo_item', entityId: created!.id, before: null, after: created })
    return created!
  })
  forgetSiteContent(db)
  return promoItemView(row, await siteToday(deps))
}

export async function updatePromoItem(deps: AppDeps, id: number, body: PromoItemBody): Promise<PromoItem> {
  assertWindow(body)
  const db = deps.database.db
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(promoItem).where(eq(promoItem.id, id)).for('update')
    if (!before) throw notFound('Promo item')
    const [after] = await tx
      .update(promoItem)
      .set({ ...body, updatedAt: deps.now() })
      .where(eq(promoItem.id, id))
      .returning()
    await recordChange(tx, { entity: 'promo_item', entityId: id, before, after })
    return after!
  })
  forgetSiteContent(db)
  return promoItemView(row, await siteToday(deps))
}

export async function deletePromoItem(deps: AppDeps, id: number) {
  const db = deps.database.db
  await db.transaction(async (tx) => {
    const [before] = await tx.delete(promoItem).where(eq(promoItem.id, id)).returning()
    if (!before) throw notFound('Promo item')
    await recordChange(tx, { entity: 'promo_item', entityId: id, before, after: null })
  })
  forgetSiteContent(db)
  return { id }
}

// ---------------------------------------------------------------------------------------------------------
// The installable app

export async function appLinks(deps: AppDeps): Promise<AppLink[]> {
  const rows = await deps.database.db.select().from(appLink).orderBy(asc(appLink.platform))
  return rows.map(appLinkView)
}

export async function saveAppLink(
  deps: AppDeps,
  platform: Platform,
  body: { url: string; enabled: boolean },
): Promise<AppLink> {
  const db = deps.database.db
  const now = deps.now()
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(appLink).where(eq(appLink.platform, platform)).for('update')
    const [after] = await tx
      .insert(appLink)
      .values({ platform, ...body, updatedAt: now })
      .onConflictDoUpdate({ target: appLink.platform, set: { ...body, updatedAt: now } })
      .returning()
    await recordChange(tx, { entity: 'app_link', entityId: platform, before: before ?? null, after })
    return after!
  })
  forgetSiteContent(db)
  return appLinkView(row)
}
