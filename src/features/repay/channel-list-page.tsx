import { useMessages } from '../../i18n/messages'
import { Breadcrumbs, Callout, PageHeader } from '../../ui/layout/page'
import { type ChannelKind, channelsOfKind, introOf } from './channels'
import { ChannelLink } from './repay-links'

/** /repay/ewallets and /repay/payment-centers: the channels of one kind, each linking to its steps. */
export function ChannelListPage({ kind }: { kind: ChannelKind }) {
  const m = useMessages()
  const r = m.repay
  const k = r.kinds[kind]
  return (
    <article className="page">
      <Breadcrumbs label={r.breadcrumbLabel} trail={[{ label: r.title, to: '/repay' }]} current={k.title} />
      <PageHeader title={k.listTitle} lead={k.listLead} />
      <ul className="grid grid--3 channel-list">
        {channelsOfKind(kind).map((channel) => (
          <li key={channel.slug} className="card channel-card">
            <span className="channel-card__monogram" aria-hidden="true">
              {channel.name.charAt(0)}
            </span>
            <h2 className="card__title">
              <ChannelLink channel={channel} className="channel-card__link" />
            </h2>
            <p>{introOf(r, channel.slug)}</p>
            <p className="channel-card__more" aria-hidden="true">
              {r.stepsLink} →
            </p>
          </li>
        ))}
      </ul>
      <Callout title={r.referenceTitle}>
        <p>{r.referenceBody}</p>
      </Callout>
    </article>
  )
}
