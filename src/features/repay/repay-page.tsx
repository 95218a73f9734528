import { Link } from '@tanstack/react-router'
import { useMessages } from '../../i18n/messages'
import { Callout, PageHeader } from '../../ui/layout/page'
import { type ChannelKind, channelsOfKind } from './channels'
import { ChannelLink } from './repay-links'
import { useRepayView, YourPaymentDetails } from './your-loan'

const kindPaths = { ewallet: '/repay/ewallets', 'payment-center': '/repay/payment-centers' } as const

/**
 * /repay: the three ways to pay, the reference rule and the fee and safety notes; a logged-in client reads their
 * own payment reference and amount due first.
 */
export function RepayPage() {
  const m = useMessages()
  const r = m.repay
  const kinds: ChannelKind[] = ['ewallet', 'payment-center']
  const view = useRepayView()
  return (
    <article className="page">
      <PageHeader title={r.title} lead={r.lead} />
      <YourPaymentDetails view={view} />
      <Callout title={r.referenceTitle}>
        <p>{r.referenceBody}</p>
      </Callout>
      <section className="section-block" aria-labelledby="repay-channels">
        <h2 id="repay-channels" className="section__title">
          {r.channelsTitle}
        </h2>
        <ul className="grid grid--3">
          {kinds.map((kind) => (
            <li key={kind} className="card channel-kind">
              <h3 className="card__title card__title--lg">{r.kinds[kind].title}</h3>
              <p>{r.kinds[kind].summary}</p>
              <ul className="chips">
                {channelsOfKind(kind).map((channel) => (
                  <li key={channel.slug}>
                    <ChannelLink channel={channel} className="chip" />
                  </li>
                ))}
              </ul>
              <Link to={kindPaths[kind]} className="button button--secondary channel-kind__cta">
                {r.kinds[kind].cta}
              </Link>
            </li>
          ))}
          <li className="card channel-kind">
            <h3 className="card__title card__title--lg">{r.bank.title}</h3>
            <p>{r.bank.summary}</p>
            <ul className="chips">
              <li>
                <span className="chip chip--static">InstaPay</span>
              </li>
              <li>
                <span className="chip chip--static">PESONet</span>
              </li>
            </ul>
            <Link to="/repay/bank-transfer" className="button button--secondary channel-kind__cta">
              {r.bank.cta}
            </Link>
          </li>
        </ul>
      </section>
      <div className="grid grid--2">
        <Callout tone="success">
          <p>{r.noFee}</p>
        </Callout>
        <Callout tone="warning">
          <p>{r.safety}</p>
        </Callout>
      </div>
      <p className="section__more">
        <Link to="/payment-info" className="text-link">
          {r.paymentInfoLink}
        </Link>
      </p>
    </article>
  )
}
