import { createFileRoute } from '@tanstack/react-router'
import { useMessages } from '../i18n/messages'
import { ComingSoon } from '../ui/shell/coming-soon'

export const Route = createFileRoute('/how-to-apply')({
  component: Page,
})

function Page() {
  return <ComingSoon title={useMessages().titles.how_to_apply} />
}
