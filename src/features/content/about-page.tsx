import { Link } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { PageHeader } from '../../ui/layout/page'
import { ProseSections } from './prose-sections'

export function AboutPage() {
  const m = useMessages()
  const a = m.content.about
  return (
    <article className="page page--narrow">
      <PageHeader title={a.title} lead={a.lead} />
      <ProseSections sections={a.sections} idPrefix="about" />
      <section className="card registration-card" aria-labelledby="about-registration">
        <h2 id="about-registration" className="card__title">
          {a.registrationTitle}
        </h2>
        <dl className="details-list">
          <div className="details-list__row">
            <dt>{a.registrationLabels.company}</dt>
            <dd>{a.company}</dd>
          </div>
          <div className="details-list__row">
            <dt>{a.registrationLabels.sec}</dt>
            <dd>{a.secNumbers}</dd>
          </div>
          <div className="details-list__row">
            <dt>{a.registrationLabels.office}</dt>
            <dd>{m.pages.contact.officeAddress.slice(1).join(', ')}</dd>
          </div>
        </dl>
      </section>
      <section className="cta-card" aria-labelledby="about-cta">
        <h2 id="about-cta" className="cta-card__title">
          {a.ctaTitle}
        </h2>
        <p>{a.ctaBody}</p>
        <p className="button-row">
          <Link to="/contact" className="button button--primary">
            {a.ctaContact}
          </Link>
          <Link to="/faq" className="button button--secondary">
            {a.ctaFaq}
          </Link>
        </p>
      </section>
    </article>
  )
}
