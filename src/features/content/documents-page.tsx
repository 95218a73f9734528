import { Link } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { PageHeader } from '../../ui/layout/page'

export function DocumentsPage() {
  const d = useMessages().content.documents
  const items = [
    { to: '/documents/policy' as const, ...d.items.policy },
    { to: '/documents/terms' as const, ...d.items.terms },
  ]
  return (
    <article className="page page--narrow">
      <PageHeader title={d.title} lead={d.lead} />
      <ul className="link-cards">
        {items.map((item) => (
          <li key={item.to} className="card link-card">
            <h2 className="card__title">
              <Link to={item.to} className="link-card__link">
                {item.title}
              </Link>
            </h2>
            <p>{item.body}</p>
          </li>
        ))}
      </ul>
    </article>
  )
}
