import { createFileRoute } from '@tanstack/react-router'
import { MyLoanScreen } from '../../features/application/my-loan-screen'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/profile/my-loan')({
  loader: () => loadPageTitle('profile_my_loan'),
  head: titleHead,
  component: MyLoanScreen,
})
