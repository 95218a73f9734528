import { createFileRoute, Link } from '@tanstack/react-router'
import { AuditTrail } from '../../features/admin/audit-trail'
import { useMayDo } from '../../features/admin/permissions'
import { ensureMessages, useMessages } from '../../i18n/messages'
import { titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/admin/audit')({
  loader: async () => ({ title: (await ensureMessages(['admin'])).admin.staff.auditTitle }),
  head: titleHead,
  component: Page,
})

function Page() {
  const m = useMessages().admin
  const may = useMayDo()
  return (
    <section className="page admin" aria-labelledby="admin-audit-title">
      <h1 id="admin-audit-title">{m.staff.auditTitle}</h1>
      <p className="lead">{m.staff.auditLead}</p>
      <p>
        <Link to="/admin">{m.payments.back}</Link>
      </p>
      {may('audit.read') ? <AuditTrail /> : <p role="alert">{m.staff.notAllowed}</p>}
    </section>
  )
}
