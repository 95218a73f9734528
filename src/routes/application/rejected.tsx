import { createFileRoute } from '@tanstack/react-router'
import { RejectedScreen } from '../../features/application/rejected-screen'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/application/rejected')({
  loader: () => loadPageTitle('application_rejected'),
  head: titleHead,
  component: Page,
})

function Page() {
  return <RejectedScreen />
}
