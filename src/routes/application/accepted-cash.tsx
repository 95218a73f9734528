import { createFileRoute } from '@tanstack/react-router'
import { AcceptedCashScreen } from '../../features/application/accepted-screens'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/application/accepted-cash')({
  loader: () => loadPageTitle('application_accepted_cash'),
  head: titleHead,
  component: AcceptedCashScreen,
})
