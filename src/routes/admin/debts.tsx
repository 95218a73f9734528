import { createFileRoute, Link } from '@tanstack/react-router'
import { DebtDesk } from '../../features/admin/debt-sales'
import { ensureMessages, useMessages } from '../../i18n/messages'
import { titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/admin/debts')({
  // The title is the admin bundle's (loaded under /admin only), not the shell's list of titles.
  loader: async () => ({ title: (await ensureMessages(['admin'])).admin.debts.pageTitle }),
  head: titleHead,
  component: Page,
})

function Page() {
  const m = useMessages().admin.debts
  return (
    <section className="page admin" aria-labelledby="admin-debts-title">
      <h1 id="admin-debts-title">{m.title}</h1>
      <p className="lead">{m.lead}</p>
      <p>
        <Link to="/admin">{m.back}</Link>
      </p>
      <DebtDesk />
    </section>
  )
}
