import { createFileRoute } from '@tanstack/react-router'
import { ChangePasswordPage } from '../../features/auth/change-pages'

export const Route = createFileRoute('/profile/change-password')({
  component: ChangePasswordPage,
})
