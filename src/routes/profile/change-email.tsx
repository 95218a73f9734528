import { createFileRoute } from '@tanstack/react-router'
import { ChangeEmailPage } from '../../features/auth/change-pages'

export const Route = createFileRoute('/profile/change-email')({
  component: ChangeEmailPage,
})
