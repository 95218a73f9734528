/**
 * Site content the back office manages (issue 19 item 7; spec sections 2, 3 and 9;
 * docs/decisions/0033-banners-promo-app-link.md): banners (desktop and mobile images, start and end dates, a
 * hide window), promo menu items (title, link, dates) and the installable-app entry (platform, url, enabled).
 * The public calls answer what is shown today, the date windows (domain/content/windows.ts) already applied.
 */
import * as v from 'valibot'
import { isCalendarDay } from '../content/windows'
import { idString } from '../ids'
import { AGE_LIMIT_BOUNDS } from '../journey/fields'
import { safeString } from '../safe-text'
import { platforms, publicAppLinkSchema, publicBannerSchema, publicPromoItemSchema } from './content-public'
import { defineContract } from './define'
import { pagingQuery } from './reference'

const text = (min: number, max: number, what: string) =>
  v.pipe(
    safeString(),
    v.trim(),
    v.minLength(min, `${what} needs at least ${min} character${min === 1 ? '' : 's'}.`),
    v.maxLength(max, `At most ${max} characters.`),
  )

const DAY_MESSAGE = 'A date is YYYY-MM-DD, a day that exists.'
const calendarDay = v.pipe(safeString(DAY_MESSAGE), v.check(isCalendarDay, DAY_MESSAGE))
const optionalDay = v.optional(v.nullable(calendarDay), null)

/**
 * A path on this site (`/banners/default-desktop.svg`, `/promo`) or an https address: never `javascript:`, never
 * a protocol-relative `//host`, nothing that would break out of an attribute.
 */
const PLACE = /^(\/(?![/\\])[^\s"'<>\\]*|https:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[^\s"'<>\\]*)?)$/
const place = (what: string) =>
  v.pipe(
    safeString(),
    v.trim(),
    v.maxLength(500, 'At most 500 characters.'),
    v.regex(PLACE, `${what}: a path on this site starting with / or an https:// address.`),
  )
const httpsUrl = v.pipe(
  safeString(),
  v.trim(),
  v.maxLength(500, 'At most 500 characters.'),
  v.regex(/^https:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[^\s"'<>\\]*)?$/, 'An https:// address.'),
)

export {
  getSiteContent,
  type Platform,
  type PublicAppLink,
  type PublicBanner,
  type PublicPromoItem,
  platforms,
  publicAppLinkSchema,
  publicBannerSchema,
  publicPromoItemSchema,
  type SiteContent,
  siteContentSchema,
} from './content-public'

// ---------------------------------------------------------------------------------------------------------
// Answers

const windowFields = {
  startDate: v.string(),
  endDate: v.nullable(v.string()),
  /** Whether it is shown on the business day the list was read. */
  shownToday: v.boolean(),
  updatedAt: v.string(),
}

export const bannerSchema = v.object({
  ...publicBannerSchema.entries,
  ...windowFields,
  hideStartDate: v.nullable(v.string()),
  hideEndDate: v.nullable(v.string()),
})
export type Banner = v.InferOutput<typeof bannerSchema>

export const promoItemSchema = v.object({ ...publicPromoItemSchema.entries, ...windowFields })
export type PromoItem = v.InferOutput<typeof promoItemSchema>

export const appLinkSchema = v.object({
  ...publicAppLinkSchema.entries,
  enabled: v.boolean(),
  updatedAt: v.string(),
})
export type AppLink = v.InferOutput<typeof appLinkSchema>

// ---------------------------------------------------------------------------------------------------------
// Bodies

export const bannerBodySchema = v.object({
  alt: text(3, 200, 'The text of the image'),
  desktop: place('The desktop image'),
  mobile: place('The mobile image'),
  startDate: calendarDay,
  endDate: optionalDay,
  hideStartDate: optionalDay,
  hideEndDate: optionalDay,
})
export type BannerBody = v.InferOutput<typeof bannerBodySchema>

export const promoItemBodySchema = v.object({
  title: text(2, 40, 'The title'),
  link: place('The link'),
  startDate: calendarDay,
  endDate: optionalDay,
})
export type PromoItemBody = v.InferOutput<typeof promoItemBodySchema>

export const appLinkBodySchema = v.object({
  url: httpsUrl,
  enabled: v.boolean('Enabled is true or false.'),
})

/**
 * The age limits (spec section 9, ADR 0048): whole years, the minimum from 18 (the age of majority), the maximum
 * up to 100, the minimum below the maximum (reported on `max`).
 */
const years = (what: string) =>
  v.pipe(
    v.number(`${what} is a whole number of years.`),
    v.integer(`${what} is a whole number of years.`),
    v.minValue(AGE_LIMIT_BOUNDS.min, `${what} is at least ${AGE_LIMIT_BOUNDS.min}, the age of majority.`),
    v.maxValue(AGE_LIMIT_BOUNDS.max, `${what} is at most ${AGE_LIMIT_BOUNDS.max}.`),
  )
export const ageLimitsBodySchema = v.pipe(
  v.object({ min: years('The minimum age'), max: years('The maximum age') }),
  v.forward(
    v.partialCheck(
      [['min'], ['max']],
      (limits) => limits.min < limits.max,
      'The maximum age is above the minimum age.',
    ),
    ['max'],
  ),
)
export type AgeLimitsBody = v.InferOutput<typeof ageLimitsBodySchema>

export const ageLimitsSettingSchema = v.object({
  min: v.number(),
  max: v.number(),
  /** True while nobody has set them: the defaults (AGE_LIMITS) apply. */
  isDefault: v.boolean(),
  /** When they were last set; null for the defaults. */
  updatedAt: v.nullable(v.string()),
})
export type AgeLimitsSetting = v.InferOutput<typeof ageLimitsSettingSchema>

const idParams = v.object({ id: idString(undefined, 'The id must be a number.') })
const listQuery = v.object(pagingQuery(100, 200))

// ---------------------------------------------------------------------------------------------------------
// Public (the layout's call, getSiteContent, is in content-public.ts)

export const getPublicBanners = defineContract({
  method: 'get',
  path: '/public/banners',
  summary:
    'The banners shown today (Manila business day), their date and hide windows applied (x-* pagination headers)',
  tags: ['content'],
  access: 'public',
  paginated: true,
  query: v.object(pagingQuery(20, 100)),
  response: v.array(publicBannerSchema),
})

// ---------------------------------------------------------------------------------------------------------
// Back office

export const listBanners = defineContract({
  method: 'get',
  path: '/private/back-office/banners',
  summary: 'Back office: every banner, newest start first, with whether it is shown today (x-* headers)',
  tags: ['content', 'back-office'],
  access: 'user',
  permission: 'content.read',
  paginated: true,
  query: listQuery,
  response: v.array(bannerSchema),
})

export const createBanner = defineContract({
  method: 'post',
  path: '/private/back-office/banners',
  summary: 'Back office: add a banner with its images and date windows',
  tags: ['content', 'back-office'],
  access: 'user',
  permission: 'content.manage',
  body: bannerBodySchema,
  response: bannerSchema,
})

export const updateBanner = defineContract({
  method: 'put',
  path: '/private/back-office/banners/:id',
  summary: 'Back office: change a banner (all its fields)',
  tags: ['content', 'back-office'],
  access: 'user',
  permission: 'content.manage',
  params: idParams,
  body: bannerBodySchema,
  response: bannerSchema,
})

export const deleteBanner = defineContract({
  method: 'delete',
  path: '/private/back-office/banners/:id',
  summary: 'Back office: remove a banner (the audit trail keeps what it was)',
  tags: ['content', 'back-office'],
  access: 'user',
  permission: 'content.manage',
  params: idParams,
  response: v.object({ id: v.number() }),
})

export const listPromoItems = defineContract({
  method: 'get',
  path: '/private/back-office/promo-items',
  summary: 'Back office: every promo menu item, newest start first, with whether it is shown today',
  tags: ['content', 'back-office'],
  access: 'user',
  permission: 'content.read',
  paginated: true,
  query: listQuery,
  response: v.array(promoItemSchema),
})

export const createPromoItem = defineContract({
  method: 'post',
  path: '/private/back-office/promo-items',
  summary: 'Back office: add a promo menu item with its title, link and dates',
  tags: ['content', 'back-office'],
  access: 'user',
  permission: 'content.manage',
  body: promoItemBodySchema,
  response: promoItemSchema,
})

export const updatePromoItem = defineContract({
  method: 'put',
  path: '/private/back-office/promo-items/:id',
  summary: 'Back office: change a promo menu item (all its fields)',
  tags: ['content', 'back-office'],
  access: 'user',
  permission: 'content.manage',
  params: idParams,
  body: promoItemBodySchema,
  response: promoItemSchema,
})

export const deletePromoItem = defineContract({
  method: 'delete',
  path: '/private/back-office/promo-items/:id',
  summary: 'Back office: remove a promo menu item (the audit trail keeps what it was)',
  tags: ['content', 'back-office'],
  access: 'user',
  permission: 'content.manage',
  params: idParams,
  response: v.object({ id: v.number() }),
})

export const listAppLinks = defineContract({
  method: 'get',
  path: '/private/back-office/app-link',
  summary: 'Back office: the installable-app entries, one per platform (x-* pagination headers)',
  tags: ['content', 'back-office'],
  access: 'user',
  permission: 'content.read',
  paginated: true,
  query: listQuery,
  response: v.array(appLinkSchema),
})

export const saveAppLink = defineContract({
  method: 'put',
  path: '/private/back-office/app-link/:platform',
  summary: "Back office: set a platform's store address and whether the site offers the app",
  tags: ['content', 'back-office'],
  access: 'user',
  permission: 'content.manage',
  params: v.object({ platform: v.picklist(platforms, 'The platform is android or ios.') }),
  body: appLinkBodySchema,
  response: appLinkSchema,
})

export const getAgeLimits = defineContract({
  method: 'get',
  path: '/private/back-office/age-limits',
  summary: 'Back office: the ages a client may register and borrow at (defaults 20 and 70 until set)',
  tags: ['content', 'back-office'],
  access: 'user',
  permission: 'content.read',
  response: ageLimitsSettingSchema,
})

export const saveAgeLimits = defineContract({
  method: 'put',
  path: '/private/back-office/age-limits',
  summary:
    'Back office: set the age limits (whole years, min from 18, max up to 100, min below max) for the details step and the decision engine',
  tags: ['content', 'back-office'],
  access: 'user',
  permission: 'content.manage',
  body: ageLimitsBodySchema,
  response: ageLimitsSettingSchema,
})
