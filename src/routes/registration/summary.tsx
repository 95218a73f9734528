import { createFileRoute } from '@tanstack/react-router'
import { SummaryScreen } from '../../features/application/summary-screen'

export const Route = createFileRoute('/registration/summary')({
  component: SummaryScreen,
})
