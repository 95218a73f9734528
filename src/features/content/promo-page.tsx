import { Link } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { PageHeader } from '../../ui/layout/page'

export function PromoPage() {
  const p = useMessages().content.promo
  return (
    <article className="page page--narrow">
      <PageHeader title={p.title} lead={p.lead} />
      <section className="section-block" aria-labelledby="promo-current">
        <h2 id="promo-current" className="section__title">
          {p.currentTitle}
        </h2>
        <ul className="link-cards">
          {p.current.map((promo) => (
            <li key={promo.title} className="card promo-card">
              <p className="badge badge--accent" aria-hidden="true">
                %
              </p>
              <h3 className="card__title">{promo.title}</h3>
              <p>{promo.body}</p>
              <p className="muted">{promo.terms}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="section-block" aria-labelledby="promo-codes">
        <h2 id="promo-codes" className="section__title">
          {p.codesTitle}
        </h2>
        <p>{p.codesBody}</p>
        <ul className="bullets">
          {p.codesRules.map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </ul>
      </section>
      <section className="section-block" aria-labelledby="promo-raffle">
        <h2 id="promo-raffle" className="section__title">
          {p.raffleTitle}
        </h2>
        <p>{p.raffleBody}</p>
      </section>
      <p className="section__more">
        <Link to="/registration" className="button button--primary">
          {p.applyCta}
        </Link>
      </p>
    </article>
  )
}
