/**
 * One channel's page: its steps from the reference data (domain/payments/channels.ts), filled with a logged-in
 * client's payment reference and amount due, fees, posting time, and the other channels of the same kind. On an
 * e-wallet's page a client with a loan gets "Pay now": a payment intention (full repayment, that channel) whose
 * answer carries the gateway's checkout page, opened by a plain link (a page of the gateway, not of this app).
 */
import { Link } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { formatPhp } from '../../../domain/format'
import { useCreateIntention } from '../../app/servicing'
import { fmt, useMessages } from '../../i18n/messages'
import { Breadcrumbs, Callout, NumberedSteps, PageHeader } from '../../ui/layout/page'
import { channelsOfKind, introOf, type RepayChannel } from './channels'
import { ChannelLink } from './repay-links'
import { type RepayView, useFill, useRepayView, YourPaymentDetails } from './your-loan'

const listPaths = { ewallet: '/repay/ewallets', 'payment-center': '/repay/payment-centers' } as const

export function ChannelPage({ channel }: { channel: RepayChannel }) {
  const m = useMessages()
  const r = m.repay
  const intro = introOf(r, channel.slug)
  const title = fmt(r.channel.title, { name: channel.name })
  const others = channelsOfKind(channel.kind).filter((c) => c.slug !== channel.slug)
  const view = useRepayView()
  const fill = useFill(view)
  return (
    <article className="page">
      <Breadcrumbs
        label={r.breadcrumbLabel}
        trail={[
          { label: r.title, to: '/repay' },
          { label: r.kinds[channel.kind].title, to: listPaths[channel.kind] },
        ]}
        current={channel.name}
      />
      <PageHeader title={title} lead={intro} />
      <YourPaymentDetails view={view} />
      {channel.checkout ? <PayNow channel={channel} view={view} /> : null}
      <div className="split">
        <div className="split__main">
          {view.kind === 'loan' ? null : (
            <Callout title={r.referenceTitle}>
              <p>
                {r.channel.referenceNote} {r.channel.billerNote}
              </p>
            </Callout>
          )}
          <section className="section-block" aria-labelledby="channel-steps">
            <h2 id="channel-steps" className="section__title">
              {r.channel.stepsTitle}
            </h2>
            <NumberedSteps steps={channel.steps.map(fill)} />
          </section>
        </div>
        <div className="split__side stack">
          <section className="card" aria-labelledby="channel-fees">
            <h2 id="channel-fees" className="card__title">
              {r.channel.feeTitle}
            </h2>
            <p>{fmt(r.channel.fee, { name: channel.name })}</p>
          </section>
          <section className="card" aria-labelledby="channel-posting">
            <h2 id="channel-posting" className="card__title">
              {r.channel.postingTitle}
            </h2>
            <p>{channel.posting}</p>
          </section>
          <Callout tone="warning">
            <p>{r.safety}</p>
          </Callout>
        </div>
      </div>
      <nav className="section-block" aria-labelledby="channel-others">
        <h2 id="channel-others" className="section__title">
          {r.otherWaysTitle}
        </h2>
        <ul className="chips">
          {others.map((other) => (
            <li key={other.slug}>
              <ChannelLink channel={other} className="chip" />
            </li>
          ))}
        </ul>
      </nav>
    </article>
  )
}

/**
 * "Pay now" on an e-wallet's page: a client with a loan makes the payment intention here and continues to the
 * gateway's checkout; a visitor is asked to log in first (and comes back here).
 */
function PayNow({ channel, view }: { channel: RepayChannel; view: RepayView }) {
  const p = useMessages().repay.payNow
  const create = useCreateIntention()
  const checkoutLink = useRef<HTMLAnchorElement>(null)
  const checkoutUrl = create.data?.checkoutUrl
  // The button the client pressed is gone: the link that replaces it takes the focus.
  useEffect(() => {
    if (checkoutUrl) checkoutLink.current?.focus()
  }, [checkoutUrl])
  if (view.kind === 'visitor') {
    return (
      <Callout title={p.logInTitle}>
        <p>{fmt(p.logInBody, { name: channel.name })}</p>
        <p className="button-row">
          <Link
            to="/login"
            search={{ redirect: `/repay/ewallets/${channel.slug}` }}
            className="button button--secondary"
          >
            {p.logIn}
          </Link>
        </p>
      </Callout>
    )
  }
  if (view.kind !== 'loan') return null
  const intention = create.data
  return (
    <section className="card pay-now" aria-labelledby="pay-now-title">
      <h2 id="pay-now-title" className="card__title card__title--lg">
        {fmt(p.title, { name: channel.name })}
      </h2>
      {intention?.checkoutUrl ? (
        <>
          <p role="status">{fmt(p.ready, { amount: formatPhp(intention.amount), name: channel.name })}</p>
          <p className="button-row">
            <a
              ref={checkoutLink}
              href={intention.checkoutUrl}
              className="button button--primary"
              data-checkout
            >
              {fmt(p.continue, { name: channel.name })}
            </a>
          </p>
        </>
      ) : (
        <>
          <p>{fmt(p.body, { name: channel.name, amount: view.amount })}</p>
          <p className="button-row">
            <button
              type="button"
              className="button button--primary"
              disabled={create.isPending}
              onClick={() => create.mutate({ purpose: 'full_repayment', channel: channel.code })}
            >
              {create.isPending ? p.busy : p.button}
            </button>
          </p>
          {create.isError ? (
            <div className="callout callout--warning" role="alert">
              <p className="callout__body">{p.failed}</p>
            </div>
          ) : null}
        </>
      )}
    </section>
  )
}
