import { createFileRoute } from '@tanstack/react-router'
import { ManualVerificationScreen } from '../../features/application/manual-verification-screen'

export const Route = createFileRoute('/application/manual-verification')({
  component: ManualVerificationScreen,
})
