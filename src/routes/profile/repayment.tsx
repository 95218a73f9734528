import { createFileRoute } from '@tanstack/react-router'
import { RepaymentScreen } from '../../features/repayment/repayment-screen'
import { validateRepaymentSearch } from '../../features/repayment/search'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/profile/repayment')({
  validateSearch: validateRepaymentSearch,
  loader: () => loadPageTitle('profile_repayment'),
  head: titleHead,
  component: Page,
})

function Page() {
  const search = Route.useSearch()
  return (
    <RepaymentScreen customAmount={search.amount === 'custom'} instalment={search.purpose === 'instalment'} />
  )
}
