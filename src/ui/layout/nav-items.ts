import type { Messages } from '../../i18n/messages'
import { activePromoItems } from './promo-window'

export type NavPath = '/about' | '/how-to-apply' | '/repay' | '/faq' | '/contact' | '/promo'

export interface NavItem {
  to: NavPath
  label: string
}

/** The main navigation of spec section 2, with promo items only inside their date window. */
export function navItems(m: Messages, now: Date): NavItem[] {
  const nav = m.layout.nav
  return [
    { to: '/about', label: nav.about },
    { to: '/how-to-apply', label: nav.howToApply },
    { to: '/repay', label: nav.repay },
    { to: '/faq', label: nav.faq },
    { to: '/contact', label: nav.contact },
    ...activePromoItems(now).map((item) => ({ to: item.link, label: nav[item.titleKey] })),
  ]
}
