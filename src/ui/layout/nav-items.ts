import type { PublicPromoItem } from '../../../domain/contract/content-public'
import type { Messages } from '../../i18n/messages'

export type NavPath = '/about' | '/how-to-apply' | '/repay' | '/faq' | '/contact'

/** A link of the app's own (`to`), or a promo item's link as the back office wrote it (`href`). */
export type NavItem = { to: NavPath; label: string } | { href: string; label: string; key: string }

/**
 * The main navigation of spec section 2, then the promo items the server says are in their date window today
 * (src/ui/layout/site-content.ts).
 */
export function navItems(m: Messages, promoItems: readonly PublicPromoItem[]): NavItem[] {
  const nav = m.layout.nav
  return [
    { to: '/about', label: nav.about },
    { to: '/how-to-apply', label: nav.howToApply },
    { to: '/repay', label: nav.repay },
    { to: '/faq', label: nav.faq },
    { to: '/contact', label: nav.contact },
    ...promoItems.map((item) => ({ href: item.link, label: item.title, key: `promo-${item.id}` })),
  ]
}
