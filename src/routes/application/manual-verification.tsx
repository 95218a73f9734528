import { createFileRoute } from '@tanstack/react-router'
import { ManualVerificationScreen } from '../../features/application/manual-verification-screen'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/application/manual-verification')({
  loader: () => loadPageTitle('application_manual_verification'),
  head: titleHead,
  component: ManualVerificationScreen,
})
