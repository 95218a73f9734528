/**
 * Shapes of the reference data the API serves and the app reads. One definition for both sides.
 */
import * as v from 'valibot'

/** Footer contact entries (spec section 3): cc, cc1 customer care; dc, dc1 debt collection. */
export const contactKeys = ['cc', 'cc1', 'dc', 'dc1'] as const
export const contactSchema = v.object({
  key: v.picklist(contactKeys),
  kind: v.picklist(['tel', 'email']),
  /** href: `tel:+639171234567` or `mailto:care@...` */
  link: v.string(),
  /** What a person reads: `0917 123 4567` */
  display: v.string(),
  /** Working days and hours, e.g. 'Mon to Sat, 8:00 AM to 8:00 PM' (Asia/Manila). */
  hours: v.nullable(v.string()),
})
export type Contact = v.InferOutput<typeof contactSchema>

/** Banks (parent bank_account) and e-wallets (parent e-wallet) for payouts. */
export const institutionParents = ['bank_account', 'e-wallet'] as const
export const institutionSchema = v.object({
  id: v.number(),
  code: v.string(),
  name: v.string(),
  parent: v.picklist(institutionParents),
})
export type Institution = v.InferOutput<typeof institutionSchema>
export type InstitutionParent = (typeof institutionParents)[number]

/** Classification: a map of code to label for one list and locale. */
export const classificationSchema = v.record(v.string(), v.string())
export type Classification = v.InferOutput<typeof classificationSchema>
/** Locales with seeded labels; `en` is the default. */
export const classificationLocales = ['en'] as const
export type ClassificationLocale = (typeof classificationLocales)[number]

/** A PSGC area as the address selects show it: `id` is the 10-digit PSGC code. */
export const geoItemSchema = v.object({ id: v.string(), title: v.string() })
export type GeoItem = v.InferOutput<typeof geoItemSchema>

/** PSGC ids are the PSA's 10-digit codes (region 1300000000, barangay 1380601001). */
export const psgcCodePattern = /^\d{10}$/
