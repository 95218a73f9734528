/**
 * The repayment channels with a page of their own (`/repay/ewallets/{slug}`, `/repay/payment-centers/{slug}`):
 * the e-wallets and payment centres of the reference data (domain/payments/channels.ts), which the server's
 * payment intention reads too, so a page and the instructions a client is given cannot disagree. Bank transfer
 * has its own page (/repay/bank-transfer). A channel's intro is in the locale file (`repay.channels[slug]`).
 */
import {
  channelBySlug,
  type PaymentChannel,
  type PaymentChannelKind,
  paymentChannels,
} from '../../../domain/payments/channels'
import type { Messages } from '../../i18n/messages'

export type ChannelKind = Exclude<PaymentChannelKind, 'bank'>

export interface RepayChannel extends PaymentChannel {
  kind: ChannelKind
}

const isPageChannel = (channel: PaymentChannel): channel is RepayChannel => channel.kind !== 'bank'

export const repayChannels: readonly RepayChannel[] = paymentChannels.filter(isPageChannel)

export const channelsOfKind = (kind: ChannelKind) => repayChannels.filter((c) => c.kind === kind)

/** The channel of that kind with that slug, or undefined (the route then answers 404). */
export function findChannel(kind: ChannelKind, slug: string): RepayChannel | undefined {
  const channel = channelBySlug(kind, slug)
  return channel && isPageChannel(channel) ? channel : undefined
}

/** A channel's intro from the locale file (`repay.channels[slug]`); tests check every channel has one. */
export function introOf(texts: Messages['repay'], slug: string): string {
  return (texts.channels as Record<string, { intro: string } | undefined>)[slug]?.intro ?? ''
}
