import { createFileRoute } from '@tanstack/react-router'
import { AcceptedScreen } from '../../features/application/accepted-screens'

export const Route = createFileRoute('/application/accepted')({
  component: AcceptedScreen,
})
