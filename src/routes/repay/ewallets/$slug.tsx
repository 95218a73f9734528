import { createFileRoute } from '@tanstack/react-router'
import { ChannelPage } from '../../../features/repay/channel-page'
import { loadChannel } from '../../../features/repay/load-channel'
import { titleHead } from '../../../ui/layout/page-title'

export const Route = createFileRoute('/repay/ewallets/$slug')({
  loader: ({ params }) => loadChannel('ewallet', params.slug),
  head: titleHead,
  component: Page,
})

function Page() {
  return <ChannelPage channel={Route.useLoaderData().channel} />
}
