import { createFileRoute } from '@tanstack/react-router'
import { DebtSoldScreen } from '../../features/application/debt-sold-screen'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/profile/debt-sold')({
  loader: () => loadPageTitle('profile_debt_sold'),
  head: titleHead,
  component: DebtSoldScreen,
})
