/**
 * The public half of the site-content contract (domain/contract/content.ts): what every visitor's layout reads,
 * apart so the home page's JavaScript carries none of the back office's declarations.
 */
import * as v from 'valibot'
import { defineContract } from './define'

export const platforms = ['android', 'ios'] as const
export type Platform = (typeof platforms)[number]

/** A banner as a visitor gets it. */
export const publicBannerSchema = v.object({
  id: v.number(),
  /** What the image says, for screen readers. */
  alt: v.string(),
  desktop: v.string(),
  mobile: v.string(),
})
export type PublicBanner = v.InferOutput<typeof publicBannerSchema>

export const publicPromoItemSchema = v.object({ id: v.number(), title: v.string(), link: v.string() })
export type PublicPromoItem = v.InferOutput<typeof publicPromoItemSchema>

export const publicAppLinkSchema = v.object({ platform: v.picklist(platforms), url: v.string() })
export type PublicAppLink = v.InferOutput<typeof publicAppLinkSchema>

/** The ages a client may register and borrow at, whole years inclusive (spec section 9, ADR 0048). */
export const publicAgeLimitsSchema = v.object({ min: v.number(), max: v.number() })

export const siteContentSchema = v.object({
  /** The Manila business day the windows were applied for. */
  today: v.string(),
  banners: v.array(publicBannerSchema),
  promoItems: v.array(publicPromoItemSchema),
  apps: v.array(publicAppLinkSchema),
  /** Always sent by the server; a browser without it (the call failed) applies the defaults, AGE_LIMITS. */
  ageLimits: v.optional(publicAgeLimitsSchema),
})
export type SiteContent = v.InferOutput<typeof siteContentSchema>

// ---------------------------------------------------------------------------------------------------------
// Public

export const getSiteContent = defineContract({
  method: 'get',
  path: '/public/site-content',
  summary:
    'What the layout shows today: the banners, the promo menu items, the installable apps enabled and the age limits',
  tags: ['content'],
  access: 'public',
  response: siteContentSchema,
})
