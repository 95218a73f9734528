import { createFileRoute } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { ComingSoon } from '../../ui/shell/coming-soon'

export const Route = createFileRoute('/repay/')({
  component: Page,
})

function Page() {
  return <ComingSoon title={useMessages().titles.repay} />
}
