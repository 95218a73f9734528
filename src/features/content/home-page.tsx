import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { useMessages } from '../../i18n/messages'
import { FaqList } from './faq-list'

const FAQ_TEASER_COUNT = 4

export interface HomePageProps {
  /** The loan calculator; until it is passed, a summary of what the borrower sees before signing. */
  calculator?: ReactNode
}

export function HomePage({ calculator }: HomePageProps) {
  const m = useMessages()
  const h = m.home
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero__inner">
          <div className="hero__content">
            <h1 id="hero-title" className="hero__title">
              {h.heroTitle}
            </h1>
            <p className="hero__lead">{h.heroLead}</p>
            <ul className="hero__points">
              {h.heroPoints.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
            <div className="hero__actions">
              <Link to="/registration" className="button button--accent button--lg">
                {h.applyCta}
              </Link>
              <Link to="/how-to-apply" className="button button--on-dark button--lg">
                {h.howCta}
              </Link>
            </div>
          </div>
          <div className="hero__aside">
            {calculator ? (
              // The calculator is its own labelled region; a second landmark around it would repeat its name.
              <div className="hero__calculator">{calculator}</div>
            ) : (
              <GlanceCard />
            )}
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="home-steps">
        <div className="container">
          <h2 id="home-steps" className="section__title">
            {h.stepsTitle}
          </h2>
          <ol className="feature-steps">
            {h.steps.map((step) => (
              <li key={step.title} className="feature-steps__item">
                <h3 className="feature-steps__title">{step.title}</h3>
                <p>{step.body}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section section--alt" aria-labelledby="home-why">
        <div className="container">
          <h2 id="home-why" className="section__title">
            {h.whyTitle}
          </h2>
          <ul className="grid grid--4">
            {h.why.map((reason) => (
              <li key={reason.title} className="card feature-card">
                <span className="feature-card__icon" aria-hidden="true">
                  <CheckIcon />
                </span>
                <h3 className="card__title">{reason.title}</h3>
                <p>{reason.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section" aria-labelledby="home-faq">
        <div className="container split">
          <div className="split__main">
            <h2 id="home-faq" className="section__title">
              {h.faqTitle}
            </h2>
            <FaqList items={m.pages.faq.items.slice(0, FAQ_TEASER_COUNT)} />
            <p className="section__more">
              <Link to="/faq" className="text-link">
                {h.faqMore}
              </Link>
            </p>
          </div>
          <aside className="split__side card card--tinted" aria-labelledby="home-repay">
            <h2 id="home-repay" className="card__title card__title--lg">
              {h.repayTitle}
            </h2>
            <p>{h.repayBody}</p>
            <Link to="/repay" className="button button--secondary">
              {h.repayCta}
            </Link>
          </aside>
        </div>
      </section>

      <section className="cta-band" aria-labelledby="home-cta">
        <div className="container cta-band__inner">
          <div>
            <h2 id="home-cta" className="cta-band__title">
              {h.ctaTitle}
            </h2>
            <p>{h.ctaBody}</p>
          </div>
          <Link to="/registration" className="button button--accent button--lg">
            {h.applyCta}
          </Link>
        </div>
      </section>
    </div>
  )
}

function GlanceCard() {
  const g = useMessages().home.glance
  return (
    <section className="glance card" aria-labelledby="glance-title">
      <h2 id="glance-title" className="card__title card__title--lg">
        {g.title}
      </h2>
      <ul className="checklist">
        {g.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <p className="glance__note">{g.note}</p>
    </section>
  )
}

export function CheckIcon() {
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M5 12.5l4.5 4.5L19 7.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
      />
    </svg>
  )
}
