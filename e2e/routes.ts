/** The spec's public pages (section 2), for the specs that visit every one of them (shell, axe). */
import { repayChannels } from '../src/features/repay/channels'

export const publicRoutes = [
  '/',
  '/about',
  '/contact',
  '/documents',
  '/documents/policy',
  '/documents/terms',
  '/faq',
  '/how-to-apply',
  '/login',
  '/payment-info',
  '/promo',
  '/recover',
  '/flow',
  '/repay',
  '/repay/bank-transfer',
  '/repay/ewallets',
  '/repay/payment-centers',
]

/** Every repayment channel's own page. */
export const slugRoutes = repayChannels.map(
  (c) => `/repay/${c.kind === 'ewallet' ? 'ewallets' : 'payment-centers'}/${c.slug}`,
)
