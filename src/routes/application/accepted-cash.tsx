import { createFileRoute } from '@tanstack/react-router'
import { AcceptedCashScreen } from '../../features/application/accepted-screens'

export const Route = createFileRoute('/application/accepted-cash')({
  component: AcceptedCashScreen,
})
