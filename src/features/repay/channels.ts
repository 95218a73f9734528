/**
 * Repayment channels with their own step-by-step page. The slug is the URL segment and also the key of the
 * channel's texts in the locale file (`repay.channels[slug]`: intro, steps, posting), so a channel without
 * texts does not type-check. Brand names are proper nouns and stay here.
 */
import type { Messages } from '../../i18n/messages'

export type ChannelSlug = keyof Messages['repay']['channels']
export type ChannelKind = 'ewallet' | 'payment-center'

export interface RepayChannel {
  slug: ChannelSlug
  name: string
  kind: ChannelKind
}

export const repayChannels: readonly RepayChannel[] = [
  { slug: 'gcash', name: 'GCash', kind: 'ewallet' },
  { slug: 'maya', name: 'Maya', kind: 'ewallet' },
  { slug: 'grabpay', name: 'GrabPay', kind: 'ewallet' },
  { slug: 'shopeepay', name: 'ShopeePay', kind: 'ewallet' },
  { slug: 'coins-ph', name: 'Coins.ph', kind: 'ewallet' },
  { slug: '7-eleven', name: '7-Eleven (CLiQQ)', kind: 'payment-center' },
  { slug: 'cebuana-lhuillier', name: 'Cebuana Lhuillier', kind: 'payment-center' },
  { slug: 'm-lhuillier', name: 'M Lhuillier', kind: 'payment-center' },
  { slug: 'palawan-express', name: 'Palawan Express', kind: 'payment-center' },
  { slug: 'bayad-center', name: 'Bayad Center', kind: 'payment-center' },
  { slug: 'sm-bills-payment', name: 'SM Bills Payment', kind: 'payment-center' },
]

export const channelsOfKind = (kind: ChannelKind) => repayChannels.filter((c) => c.kind === kind)

/** The channel of that kind with that slug, or undefined (the route then answers 404). */
export const findChannel = (kind: ChannelKind, slug: string) =>
  repayChannels.find((c) => c.kind === kind && c.slug === slug)
