import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireClient } from '../../features/auth/guards'

export const Route = createFileRoute('/application')({
  beforeLoad: ({ context, location }) => requireClient(context.auth, location),
  component: Outlet,
})
