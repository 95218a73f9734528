import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireBackOffice } from '../../features/auth/guards'

export const Route = createFileRoute('/admin')({
  beforeLoad: ({ context, location }) => requireBackOffice(context.auth, location),
  component: Outlet,
})
