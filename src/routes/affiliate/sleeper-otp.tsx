import { createFileRoute } from '@tanstack/react-router'
import { singleLinkGuard } from '../../app/auth-guards'
import { singleLinkSearchSchema } from '../../features/auth/search'
import { SingleLinkPage } from '../../features/auth/single-link-page'

export const Route = createFileRoute('/affiliate/sleeper-otp')({
  validateSearch: singleLinkSearchSchema,
  // Once the single-link session exists (the code was accepted), my loan.
  beforeLoad: ({ context, location }) => singleLinkGuard(context.auth, location),
  component: Page,
})

function Page() {
  const { lead_id } = Route.useSearch()
  return <SingleLinkPage leadId={lead_id} />
}
