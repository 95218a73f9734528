import { createFileRoute } from '@tanstack/react-router'
import { CashPickupScreen } from '../../features/application/accepted-screens'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/application/cash-pickup')({
  loader: () => loadPageTitle('application_cash_pickup'),
  head: titleHead,
  component: CashPickupScreen,
})
