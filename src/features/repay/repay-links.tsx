import { Link } from '@tanstack/react-router'
import type { RepayChannel } from './channels'

/** A link to a channel's step-by-step page. */
export function ChannelLink({ channel, className }: { channel: RepayChannel; className?: string }) {
  return channel.kind === 'ewallet' ? (
    <Link to="/repay/ewallets/$slug" params={{ slug: channel.slug }} className={className}>
      {channel.name}
    </Link>
  ) : (
    <Link to="/repay/payment-centers/$slug" params={{ slug: channel.slug }} className={className}>
      {channel.name}
    </Link>
  )
}
