/**
 * Promo menu items (spec sections 3 and 9) are shown only inside their date window. Dates are calendar days
 * in Manila (UTC+8, no daylight saving), both ends included, so the item appears at local midnight of the
 * first day and disappears after the last, wherever the visitor's clock is set.
 */
import type { Messages } from '../../i18n/messages'

export interface PromoMenuItem {
  /** Key of the item's title in `layout.nav`. */
  titleKey: keyof Messages['layout']['nav']
  link: '/promo'
  /** YYYY-MM-DD, Manila calendar day, inclusive. */
  start: string
  /** YYYY-MM-DD, Manila calendar day, inclusive. */
  end: string
}

export const promoMenuItems: readonly PromoMenuItem[] = [
  { titleKey: 'promoRaffle', link: '/promo', start: '2023-11-15', end: '2023-12-31' },
]

const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000

/** The calendar day in Manila at the instant `now`, as YYYY-MM-DD. */
export function manilaDay(now: Date): string {
  return new Date(now.getTime() + MANILA_OFFSET_MS).toISOString().slice(0, 10)
}

export function isInWindow(now: Date, window: { start: string; end: string }): boolean {
  const day = manilaDay(now)
  return day >= window.start && day <= window.end
}

export function activePromoItems(now: Date, items: readonly PromoMenuItem[] = promoMenuItems) {
  return items.filter((item) => isInWindow(now, item))
}
