import { createFileRoute, Link } from '@tanstack/react-router'
import { ContentDesk } from '../../features/admin/content'
import { ensureMessages, useMessages } from '../../i18n/messages'
import { titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/admin/content')({
  // The title is the admin bundle's (loaded under /admin only), not the shell's list of titles.
  loader: async () => ({ title: (await ensureMessages(['admin'])).admin.content.pageTitle }),
  head: titleHead,
  component: Page,
})

function Page() {
  const m = useMessages().admin.content
  return (
    <section className="page admin" aria-labelledby="admin-content-title">
      <h1 id="admin-content-title">{m.title}</h1>
      <p className="lead">{m.lead}</p>
      <p>
        <Link to="/admin">{m.back}</Link>
      </p>
      <ContentDesk />
    </section>
  )
}
