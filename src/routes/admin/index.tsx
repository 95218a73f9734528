import { createFileRoute, Link } from '@tanstack/react-router'
import { Outbox } from '../../features/admin/outbox'
import { ReviewQueue } from '../../features/admin/review-queue'
import { useMessages } from '../../i18n/messages'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/admin/')({
  loader: () => loadPageTitle('admin'),
  head: titleHead,
  component: Page,
})

function Page() {
  const m = useMessages().admin
  return (
    <section className="page admin" aria-labelledby="admin-title">
      <h1 id="admin-title">{m.homeTitle}</h1>
      <p className="lead">{m.homeLead}</p>
      <p>
        <Link to="/admin/payments">{m.paymentsLink}</Link> · <Link to="/admin/debts">{m.debtsLink}</Link> ·{' '}
        <Link to="/admin/router">{m.routerLink}</Link>
      </p>
      <ReviewQueue />
      <Outbox />
    </section>
  )
}
