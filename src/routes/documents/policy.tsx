import { createFileRoute } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { ComingSoon } from '../../ui/shell/coming-soon'

export const Route = createFileRoute('/documents/policy')({
  component: Page,
})

function Page() {
  return <ComingSoon title={useMessages().titles.documents_policy} />
}
