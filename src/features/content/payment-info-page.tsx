import { Link } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { PageHeader } from '../../ui/layout/page'
import { ProseSections } from './prose-sections'

export function PaymentInfoPage() {
  const p = useMessages().content.paymentInfo
  return (
    <article className="page page--narrow">
      <PageHeader title={p.title} lead={p.lead} />
      <ProseSections sections={p.sections} idPrefix="payment" />
      <p className="section__more">
        <Link to="/repay" className="button button--primary">
          {p.repayCta}
        </Link>
      </p>
    </article>
  )
}
