import { Link } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { PageHeader } from '../../ui/layout/page'
import { FaqList } from './faq-list'

export function FaqPage() {
  const m = useMessages()
  const f = m.pages.faq
  return (
    <article className="page page--narrow">
      <PageHeader title={f.title} lead={f.lead} />
      {/* The first questions are the home page's (the shell's texts); the rest come with this page's bundle. */}
      <FaqList items={[...f.items, ...m.content.faq.moreItems]} />
      <p className="section__more">
        <Link to="/contact" className="button button--secondary">
          {f.contactCta}
        </Link>
      </p>
    </article>
  )
}
