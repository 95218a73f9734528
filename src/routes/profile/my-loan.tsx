import { createFileRoute } from '@tanstack/react-router'
import { journeyBeforeLoad } from '../../app/journey-routing'
import { MyLoanScreen } from '../../features/application/my-loan-screen'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/profile/my-loan')({
  // A single-link session is confined here by the profile guard and has no journey of its own.
  beforeLoad: (options) => {
    if (!options.context.auth.getSnapshot().matches('singleLink')) journeyBeforeLoad(options)
  },
  loader: () => loadPageTitle('profile_my_loan'),
  head: titleHead,
  component: MyLoanScreen,
})
