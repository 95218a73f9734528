import { createFileRoute } from '@tanstack/react-router'
import { CashPickupScreen } from '../../features/application/accepted-screens'

export const Route = createFileRoute('/application/cash-pickup')({
  component: CashPickupScreen,
})
