import { createFileRoute } from '@tanstack/react-router'
import { RejectedScreen } from '../../features/application/rejected-screen'

export const Route = createFileRoute('/application/rejected')({
  component: Page,
})

function Page() {
  return <RejectedScreen />
}
