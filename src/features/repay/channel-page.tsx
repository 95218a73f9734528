import { fmt, useMessages } from '../../i18n/messages'
import { Breadcrumbs, Callout, NumberedSteps, PageHeader } from '../../ui/layout/page'
import { channelsOfKind, type RepayChannel } from './channels'
import { ChannelLink } from './repay-links'

const listPaths = { ewallet: '/repay/ewallets', 'payment-center': '/repay/payment-centers' } as const

/** One channel: numbered steps, fees, posting time, and the other channels of the same kind. */
export function ChannelPage({ channel }: { channel: RepayChannel }) {
  const m = useMessages()
  const r = m.repay
  const texts = r.channels[channel.slug]
  const title = fmt(r.channel.title, { name: channel.name })
  const others = channelsOfKind(channel.kind).filter((c) => c.slug !== channel.slug)
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
      <PageHeader title={title} lead={texts.intro} />
      <div className="split">
        <div className="split__main">
          <Callout title={r.referenceTitle}>
            <p>
              {r.channel.referenceNote} {r.channel.billerNote}
            </p>
          </Callout>
          <section className="section-block" aria-labelledby="channel-steps">
            <h2 id="channel-steps" className="section__title">
              {r.channel.stepsTitle}
            </h2>
            <NumberedSteps steps={texts.steps} />
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
            <p>{texts.posting}</p>
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
