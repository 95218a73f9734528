import { createFileRoute, Link } from '@tanstack/react-router'
import type { Permission } from '../../../domain/back-office/roles'
import { Outbox } from '../../features/admin/outbox'
import { useMayDo } from '../../features/admin/permissions'
import { ReviewQueue } from '../../features/admin/review-queue'
import { useMessages } from '../../i18n/messages'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/admin/')({
  loader: () => loadPageTitle('admin'),
  head: titleHead,
  component: Page,
})

type AdminPath =
  | '/admin/clients'
  | '/admin/payments'
  | '/admin/debts'
  | '/admin/config'
  | '/admin/content'
  | '/admin/users'
  | '/admin/audit'
  | '/admin/router'
  | '/admin/statecharts'

function Page() {
  const m = useMessages().admin
  const may = useMayDo()
  // Each screen with the permission that opens it (domain/back-office/roles.ts): a role sees only its own.
  const screens: [AdminPath, string, Permission][] = [
    ['/admin/clients', m.clients.link, 'clients.read'],
    ['/admin/payments', m.paymentsLink, 'payments.read'],
    ['/admin/debts', m.debtsLink, 'debt.read'],
    ['/admin/config', m.config.link, 'config.read'],
    ['/admin/content', m.contentLink, 'content.read'],
    ['/admin/users', m.staff.usersLink, 'users.read'],
    ['/admin/audit', m.staff.auditLink, 'audit.read'],
    ['/admin/statecharts', m.statecharts.link, 'statecharts.read'],
    ['/admin/router', m.routerLink, 'sandbox'],
  ]
  return (
    <section className="page admin" aria-labelledby="admin-title">
      <h1 id="admin-title">{m.homeTitle}</h1>
      <p className="lead">{m.homeLead}</p>
      <nav aria-label={m.homeTitle}>
        <ul className="link-list">
          {screens
            .filter(([, , permission]) => may(permission))
            .map(([to, label]) => (
              <li key={to}>
                <Link to={to}>{label}</Link>
              </li>
            ))}
        </ul>
      </nav>
      {may('applications.read') ? <ReviewQueue /> : null}
      {may('outbox.read') ? <Outbox /> : null}
    </section>
  )
}
