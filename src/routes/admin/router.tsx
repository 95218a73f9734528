import { createFileRoute } from '@tanstack/react-router'
import { SandboxRouter } from '../../features/admin/sandbox-router'
import { useMessages } from '../../i18n/messages'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/admin/router')({
  loader: () => loadPageTitle('admin_router'),
  head: titleHead,
  component: Page,
})

function Page() {
  const m = useMessages().admin.router
  return (
    <section className="page admin" aria-labelledby="admin-router-title">
      <h1 id="admin-router-title">{m.title}</h1>
      <p className="lead">{m.lead}</p>
      <SandboxRouter />
    </section>
  )
}
