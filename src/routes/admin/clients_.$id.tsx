import { createFileRoute, Link } from '@tanstack/react-router'
import { ClientFile } from '../../features/admin/clients-desk'
import { ensureMessages, fmt, useMessages } from '../../i18n/messages'
import { titleHead } from '../../ui/layout/page-title'

/**
 * /admin/clients/$id: one client's file (issue 19, item 3). `clients_` keeps it out of the search page's layout
 * (a page of its own, not a child rendered inside the search).
 */
export const Route = createFileRoute('/admin/clients_/$id')({
  loader: async () => ({ title: (await ensureMessages(['admin'])).admin.clients.desk.pageTitle }),
  head: titleHead,
  component: Page,
})

function Page() {
  const m = useMessages().admin.clients
  const { id } = Route.useParams()
  const clientId = /^[1-9]\d{0,15}$/.test(id) ? Number(id) : null
  return (
    <section className="page admin" aria-labelledby="admin-client-title">
      <h1 id="admin-client-title">{fmt(m.desk.title, { id })}</h1>
      <p>
        <Link to="/admin/clients">{m.desk.back}</Link>
      </p>
      {clientId === null ? (
        <p role="alert">{m.desk.notFound}</p>
      ) : (
        <ClientFile key={clientId} id={clientId} />
      )}
    </section>
  )
}
