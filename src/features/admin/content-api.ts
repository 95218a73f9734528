/** The back office's site-content calls (issue 19 item 7; domain/contract/content.ts). */
import {
  type AgeLimitsBody,
  type AgeLimitsSetting,
  type AppLink,
  type Banner,
  type BannerBody,
  createBanner,
  createPromoItem,
  deleteBanner,
  deletePromoItem,
  getAgeLimits,
  listAppLinks,
  listBanners,
  listPromoItems,
  type Platform,
  type PromoItem,
  type PromoItemBody,
  saveAgeLimits,
  saveAppLink,
  updateBanner,
  updatePromoItem,
} from '../../../domain/contract/content'
import type { Page } from '../../../domain/contract/define'
import type { ApiClient } from '../../api/client'

export const contentQueryKeys = {
  all: ['admin', 'content'] as const,
  banners: ['admin', 'content', 'banners'] as const,
  promoItems: ['admin', 'content', 'promo-items'] as const,
  apps: ['admin', 'content', 'apps'] as const,
  ageLimits: ['admin', 'content', 'age-limits'] as const,
}

const items = <T>(page: unknown) => (page as Page<T>).items

export const fetchBanners = async (api: ApiClient, signal?: AbortSignal) =>
  items<Banner>(await api.call(listBanners, { query: { perPage: 200 } }, { signal }))

export const saveBanner = (api: ApiClient, id: number | null, body: BannerBody) =>
  id === null ? api.call(createBanner, { body }) : api.call(updateBanner, { params: { id }, body })

export const removeBanner = (api: ApiClient, id: number) => api.call(deleteBanner, { params: { id } })

export const fetchPromoItems = async (api: ApiClient, signal?: AbortSignal) =>
  items<PromoItem>(await api.call(listPromoItems, { query: { perPage: 200 } }, { signal }))

export const savePromoItem = (api: ApiClient, id: number | null, body: PromoItemBody) =>
  id === null ? api.call(createPromoItem, { body }) : api.call(updatePromoItem, { params: { id }, body })

export const removePromoItem = (api: ApiClient, id: number) => api.call(deletePromoItem, { params: { id } })

export const fetchAppLinks = async (api: ApiClient, signal?: AbortSignal): Promise<AppLink[]> =>
  (await api.call(listAppLinks, { query: { perPage: 200 } }, { signal })).items

export const putAppLink = (api: ApiClient, platform: Platform, body: { url: string; enabled: boolean }) =>
  api.call(saveAppLink, { params: { platform }, body })

export const fetchAgeLimits = (api: ApiClient, signal?: AbortSignal): Promise<AgeLimitsSetting> =>
  api.call(getAgeLimits, {}, { signal })

export const putAgeLimits = (api: ApiClient, body: AgeLimitsBody) => api.call(saveAgeLimits, { body })
