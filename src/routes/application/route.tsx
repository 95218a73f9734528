import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireClient } from '../../app/auth-guards'
import { journeyBeforeLoad } from '../../app/journey-routing'

/**
 * Every application page: a logged-in client (the auth session), then the page the client journey maps the
 * server's step to (the journey machine). Neither is decided by the page.
 */
export const Route = createFileRoute('/application')({
  beforeLoad: async (options) => {
    await requireClient(options.context.auth, options.location)
    journeyBeforeLoad(options)
  },
  component: Outlet,
})
