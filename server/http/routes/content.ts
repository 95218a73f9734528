/**
 * Banners, promo menu items and the installable-app entry (issue 19 item 7): implements domain/contract/content.ts.
 * docs/decisions/0033-banners-promo-app-link.md.
 */
import * as content from '../../../domain/contract/content'
import { ageLimitsSetting, saveAgeLimits } from '../../services/content/age-limits'
import {
  appLinks,
  bannersPage,
  createBanner,
  createPromoItem,
  deleteBanner,
  deletePromoItem,
  promoItemsPage,
  saveAppLink,
  updateBanner,
  updatePromoItem,
} from '../../services/content/manage'
import { siteContent } from '../../services/content/site-content'
import { ok, okPage } from '../envelope'
import { deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const contentRoutes: AnyRoute[] = [
  implement(content.getPublicBanners, async (c, { query }) => {
    const shown = (await siteContent(deps(c))).banners
    const from = (query.page - 1) * query.perPage
    return okPage(c, shown.slice(from, from + query.perPage), { ...query, total: shown.length })
  }),
  implement(content.getSiteContent, async (c) => ok(c, await siteContent(deps(c)))),

  implement(content.listBanners, async (c, { query }) => {
    const { items, total } = await bannersPage(deps(c), query.page, query.perPage)
    return okPage(c, items, { ...query, total })
  }),
  implement(content.createBanner, async (c, { body }) => ok(c, await createBanner(deps(c), body), 201)),
  implement(content.updateBanner, async (c, { params, body }) =>
    ok(c, await updateBanner(deps(c), params.id, body)),
  ),
  implement(content.deleteBanner, async (c, { params }) => ok(c, await deleteBanner(deps(c), params.id))),

  implement(content.listPromoItems, async (c, { query }) => {
    const { items, total } = await promoItemsPage(deps(c), query.page, query.perPage)
    return okPage(c, items, { ...query, total })
  }),
  implement(content.createPromoItem, async (c, { body }) => ok(c, await createPromoItem(deps(c), body), 201)),
  implement(content.updatePromoItem, async (c, { params, body }) =>
    ok(c, await updatePromoItem(deps(c), params.id, body)),
  ),
  implement(content.deletePromoItem, async (c, { params }) =>
    ok(c, await deletePromoItem(deps(c), params.id)),
  ),

  implement(content.listAppLinks, async (c, { query }) => {
    // One entry per platform: a page is all of them, but a list still says where it stands.
    const all = await appLinks(deps(c))
    const from = (query.page - 1) * query.perPage
    return okPage(c, all.slice(from, from + query.perPage), { ...query, total: all.length })
  }),
  implement(content.saveAppLink, async (c, { params, body }) =>
    ok(c, await saveAppLink(deps(c), params.platform, body)),
  ),

  // The age limits (spec section 9, docs/decisions/0048-age-limits-content-setting.md).
  implement(content.getAgeLimits, async (c) => ok(c, await ageLimitsSetting(deps(c)))),
  implement(content.saveAgeLimits, async (c, { body }) => ok(c, await saveAgeLimits(deps(c), body))),
]
