import { createFileRoute, Outlet } from '@tanstack/react-router'
import { journeyBeforeLoad } from '../../app/journey-routing'

/** Every registration page: the journey machine decides which step the client is on (spec section 2). */
export const Route = createFileRoute('/registration')({
  beforeLoad: journeyBeforeLoad,
  component: Outlet,
})
