import { createFileRoute } from '@tanstack/react-router'
import { SummaryScreen } from '../../features/application/summary-screen'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/registration/summary')({
  loader: () => loadPageTitle('registration_summary'),
  head: titleHead,
  component: SummaryScreen,
})
