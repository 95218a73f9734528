import { createFileRoute, Link } from '@tanstack/react-router'
import { useMayDo } from '../../features/admin/permissions'
import { StaffUsers } from '../../features/admin/staff-users'
import { ensureMessages, useMessages } from '../../i18n/messages'
import { titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/admin/users')({
  loader: async () => ({ title: (await ensureMessages(['admin'])).admin.staff.usersTitle }),
  head: titleHead,
  component: Page,
})

function Page() {
  const m = useMessages().admin
  const may = useMayDo()
  return (
    <section className="page admin" aria-labelledby="admin-users-title">
      <h1 id="admin-users-title">{m.staff.usersTitle}</h1>
      <p className="lead">{m.staff.usersLead}</p>
      <p>
        <Link to="/admin">{m.payments.back}</Link>
      </p>
      {may('users.read') ? <StaffUsers /> : <p role="alert">{m.staff.notAllowed}</p>}
    </section>
  )
}
