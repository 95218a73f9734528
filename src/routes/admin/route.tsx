import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireBackOffice } from '../../app/auth-guards'

export const Route = createFileRoute('/admin')({
  beforeLoad: ({ context, location }) => requireBackOffice(context.auth, location),
  component: Outlet,
})
