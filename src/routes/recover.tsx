import { createFileRoute } from '@tanstack/react-router'
import { RecoverPage } from '../features/auth/recover-page'

export const Route = createFileRoute('/recover')({
  component: RecoverPage,
})
