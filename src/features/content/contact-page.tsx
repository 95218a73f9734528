import { useMessages } from '../../i18n/messages'
import { ContactBlocks } from '../../ui/layout/contact-blocks'
import { Callout, PageHeader } from '../../ui/layout/page'

export function ContactPage() {
  const m = useMessages()
  const c = m.pages.contact
  return (
    <article className="page">
      <PageHeader title={c.title} lead={c.lead} />
      <ContactBlocks
        landmarks
        className="contact-blocks--cards"
        descriptions={{ care: c.careBody, collection: c.collectionBody }}
      />
      <div className="grid grid--2 contact-more">
        <section className="card" aria-labelledby="contact-office">
          <h2 id="contact-office" className="card__title">
            {c.officeTitle}
          </h2>
          <address className="address">
            {c.officeAddress.map((line) => (
              <span key={line}>{line}</span>
            ))}
          </address>
          <p className="muted">{c.officeHours}</p>
        </section>
        <section className="card" aria-labelledby="contact-privacy">
          <h2 id="contact-privacy" className="card__title">
            {c.privacyTitle}
          </h2>
          <p>
            {c.privacyBody} <a href={`mailto:${c.dpoEmail}`}>{c.dpoEmail}</a>.
          </p>
          <p className="muted">{c.privacyAfter}</p>
        </section>
        <section className="card" aria-labelledby="contact-complaints">
          <h2 id="contact-complaints" className="card__title">
            {c.complaintsTitle}
          </h2>
          <p>{c.complaintsBody}</p>
        </section>
        <Callout tone="warning" title={c.safetyTitle}>
          <p>{c.safetyBody}</p>
        </Callout>
      </div>
    </article>
  )
}
