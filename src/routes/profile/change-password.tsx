import { createFileRoute } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { ComingSoon } from '../../ui/shell/coming-soon'

export const Route = createFileRoute('/profile/change-password')({
  component: Page,
})

function Page() {
  return <ComingSoon title={useMessages().titles.profile_change_password} />
}
