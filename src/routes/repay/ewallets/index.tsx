import { createFileRoute } from '@tanstack/react-router'
import { ChannelListPage } from '../../../features/repay/channel-list-page'
import { loadPageTitle, titleHead } from '../../../ui/layout/page-title'

export const Route = createFileRoute('/repay/ewallets/')({
  loader: () => loadPageTitle('repay_ewallets'),
  head: titleHead,
  component: () => <ChannelListPage kind="ewallet" />,
})
