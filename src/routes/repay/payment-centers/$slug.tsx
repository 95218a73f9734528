import { createFileRoute } from '@tanstack/react-router'
import { ChannelPage } from '../../../features/repay/channel-page'
import { titleHead } from '../../../ui/layout/page-title'

export const Route = createFileRoute('/repay/payment-centers/$slug')({
  // Imported when a channel page loads (src/routes/repay/-load-channel.ts).
  loader: async ({ params }) => (await import('../-load-channel')).loadChannel('payment-center', params.slug),
  head: titleHead,
  component: Page,
})

function Page() {
  return <ChannelPage channel={Route.useLoaderData().channel} />
}
