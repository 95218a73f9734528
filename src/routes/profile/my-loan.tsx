import { createFileRoute } from '@tanstack/react-router'
import { MyLoanScreen } from '../../features/application/my-loan-screen'

export const Route = createFileRoute('/profile/my-loan')({
  component: MyLoanScreen,
})
