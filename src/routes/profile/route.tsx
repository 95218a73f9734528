import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireClient } from '../../app/auth-guards'

export const Route = createFileRoute('/profile')({
  beforeLoad: ({ context, location }) => requireClient(context.auth, location),
  component: Outlet,
})
