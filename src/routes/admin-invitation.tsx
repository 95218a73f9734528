import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { StaffInvitation } from '../features/admin/staff-invitation'

/** Outside /admin: the invited person has no session yet. */
export const Route = createFileRoute('/admin-invitation')({
  validateSearch: v.object({ token: v.optional(v.pipe(v.string(), v.maxLength(200))) }),
  component: Page,
})

function Page() {
  const { token } = Route.useSearch()
  return <StaffInvitation token={token} />
}
