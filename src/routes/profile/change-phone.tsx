import { createFileRoute } from '@tanstack/react-router'
import { ChangePhonePage } from '../../features/auth/change-pages'

export const Route = createFileRoute('/profile/change-phone')({
  component: ChangePhonePage,
})
