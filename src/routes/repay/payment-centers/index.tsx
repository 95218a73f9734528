import { createFileRoute } from '@tanstack/react-router'
import { ChannelListPage } from '../../../features/repay/channel-list-page'
import { loadPageTitle, titleHead } from '../../../ui/layout/page-title'

export const Route = createFileRoute('/repay/payment-centers/')({
  loader: () => loadPageTitle('repay_payment_centers'),
  head: titleHead,
  component: () => <ChannelListPage kind="payment-center" />,
})
