import { createFileRoute } from '@tanstack/react-router'
import { AcceptedScreen } from '../../features/application/accepted-screens'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/application/accepted')({
  loader: () => loadPageTitle('application_accepted'),
  head: titleHead,
  component: AcceptedScreen,
})
