import { Link } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { PageHeader } from '../../ui/layout/page'
import { FaqList } from './faq-list'

export function FaqPage() {
  const f = useMessages().pages.faq
  return (
    <article className="page page--narrow">
      <PageHeader title={f.title} lead={f.lead} />
      <FaqList items={f.items} />
      <p className="section__more">
        <Link to="/contact" className="button button--secondary">
          {f.contactCta}
        </Link>
      </p>
    </article>
  )
}
