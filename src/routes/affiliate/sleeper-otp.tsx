import { createFileRoute } from '@tanstack/react-router'
import { singleLinkSearchSchema } from '../../features/auth/search'
import { SingleLinkPage } from '../../features/auth/single-link-page'

export const Route = createFileRoute('/affiliate/sleeper-otp')({
  validateSearch: singleLinkSearchSchema,
  component: Page,
})

function Page() {
  const { lead_id } = Route.useSearch()
  return <SingleLinkPage leadId={lead_id} />
}
