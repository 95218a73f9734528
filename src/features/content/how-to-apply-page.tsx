import { Link } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { NumberedSteps, PageHeader } from '../../ui/layout/page'

export function HowToApplyPage() {
  const h = useMessages().content.howToApply
  return (
    <article className="page">
      <PageHeader title={h.title} lead={h.lead} />
      <div className="split">
        <section className="split__main" aria-labelledby="apply-steps">
          <h2 id="apply-steps" className="section__title">
            {h.stepsTitle}
          </h2>
          <NumberedSteps steps={h.steps} className="steps--large" />
        </section>
        <div className="split__side stack">
          <section className="card card--tinted" aria-labelledby="apply-need">
            <h2 id="apply-need" className="card__title">
              {h.needTitle}
            </h2>
            <ul className="checklist">
              {h.need.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
            <Link to="/registration" className="button button--primary button--block">
              {h.applyCta}
            </Link>
          </section>
          <section className="card" aria-labelledby="apply-tips">
            <h2 id="apply-tips" className="card__title">
              {h.tipsTitle}
            </h2>
            <ul className="bullets">
              {h.tips.map((tip) => (
                <li key={tip}>{tip}</li>
              ))}
            </ul>
            <Link to="/faq" className="text-link">
              {h.faqCta}
            </Link>
          </section>
        </div>
      </div>
    </article>
  )
}
