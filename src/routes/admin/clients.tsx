import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { ClientSearch, type ClientSearchState } from '../../features/admin/clients'
import { ensureMessages, useMessages } from '../../i18n/messages'
import { titleHead } from '../../ui/layout/page-title'

/** /admin/clients: the client search (issue 19, item 3). */
export const Route = createFileRoute('/admin/clients')({
  // The title is the admin bundle's (loaded under /admin only), not the shell's list of titles.
  // A plain function, not a schema: this stays in the app's main chunk.
  validateSearch: (raw: Record<string, unknown>): ClientSearchState => ({
    ...(typeof raw.search === 'string' && raw.search ? { search: raw.search.slice(0, 100) } : {}),
    ...(typeof raw.page === 'number' && Number.isInteger(raw.page) && raw.page > 1 && raw.page < 1e6
      ? { page: raw.page }
      : {}),
  }),
  loader: async () => ({ title: (await ensureMessages(['admin'])).admin.clients.pageTitle }),
  head: titleHead,
  component: Page,
})

let lastSearch: ClientSearchState = {}

function Page() {
  const m = useMessages().admin.clients
  // A link to /admin/clients?search=… opens on its results. Searching and paging stay on this page (pages do not
  // navigate by themselves), and the last search is kept for the session, so Back from a client returns to it.
  const linked = Route.useSearch()
  const [state, setState] = useState<ClientSearchState>(linked.search ? linked : lastSearch)
  const go = (next: ClientSearchState) => {
    lastSearch = next
    setState(next)
  }
  return (
    <section className="page admin" aria-labelledby="admin-clients-title">
      <h1 id="admin-clients-title">{m.title}</h1>
      <p className="lead">{m.lead}</p>
      <p>
        <Link to="/admin">{m.back}</Link>
      </p>
      <ClientSearch state={state} go={go} />
    </section>
  )
}
