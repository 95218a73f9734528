import { createFileRoute, Link } from '@tanstack/react-router'
import { useMayDo } from '../../features/admin/permissions'
import { Statecharts } from '../../features/admin/statecharts'
import { ensureMessages, useMessages } from '../../i18n/messages'
import { titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/admin/statecharts')({
  loader: async () => ({ title: (await ensureMessages(['admin'])).admin.statecharts.title }),
  head: titleHead,
  component: Page,
})

function Page() {
  const m = useMessages().admin
  const may = useMayDo()
  return (
    <section className="page admin" aria-labelledby="admin-statecharts-title">
      <h1 id="admin-statecharts-title">{m.statecharts.title}</h1>
      <p className="lead">{m.statecharts.lead}</p>
      <p>
        <Link to="/admin">{m.payments.back}</Link>
      </p>
      {may('statecharts.read') ? <Statecharts /> : <p role="alert">{m.statecharts.notAllowed}</p>}
    </section>
  )
}
