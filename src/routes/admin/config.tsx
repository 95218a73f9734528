import { createFileRoute, Link } from '@tanstack/react-router'
import { ConfigDesk } from '../../features/admin/config'
import { PromoCodesDesk } from '../../features/admin/promo-codes'
import { ensureMessages, useMessages } from '../../i18n/messages'
import { titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/admin/config')({
  // The title is the admin bundle's (loaded under /admin only), not the shell's list of titles.
  loader: async () => ({ title: (await ensureMessages(['admin'])).admin.config.pageTitle }),
  head: titleHead,
  component: Page,
})

function Page() {
  const m = useMessages().admin.config
  return (
    <section className="page admin" aria-labelledby="admin-config-title">
      <h1 id="admin-config-title">{m.title}</h1>
      <p className="lead">{m.lead}</p>
      <p>
        <Link to="/admin">{m.back}</Link>
      </p>
      <ConfigDesk />
      <PromoCodesDesk />
    </section>
  )
}
