import { createFileRoute } from '@tanstack/react-router'
import { journeyBeforeLoad } from '../../features/journey/journey-routing'
import { useMessages } from '../../i18n/messages'
import { ComingSoon } from '../../ui/shell/coming-soon'

export const Route = createFileRoute('/profile/my-loan')({
  // A single-link session is confined here by the profile guard and has no journey of its own.
  beforeLoad: (options) => {
    if (!options.context.auth.getSnapshot().matches('singleLink')) journeyBeforeLoad(options)
  },
  component: Page,
})

function Page() {
  return <ComingSoon title={useMessages().titles.profile_my_loan} />
}
