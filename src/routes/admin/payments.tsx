import { createFileRoute, Link } from '@tanstack/react-router'
import { PaymentsDesk } from '../../features/admin/payments'
import { ensureMessages, useMessages } from '../../i18n/messages'
import { titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/admin/payments')({
  // The title is the admin bundle's (loaded under /admin only), not the shell's list of titles.
  loader: async () => ({ title: (await ensureMessages(['admin'])).admin.payments.pageTitle }),
  head: titleHead,
  component: Page,
})

function Page() {
  const m = useMessages().admin.payments
  return (
    <section className="page admin" aria-labelledby="admin-payments-title">
      <h1 id="admin-payments-title">{m.title}</h1>
      <p className="lead">{m.lead}</p>
      <p>
        <Link to="/admin">{m.back}</Link> · <Link to="/admin/router">{m.routerLink}</Link>
      </p>
      <PaymentsDesk />
    </section>
  )
}
