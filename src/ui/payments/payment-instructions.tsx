/**
 * A payment intention's answer on screen (POST /private/client/payment-intention): what to pay, the payment
 * reference, where and how; for an e-wallet, the link to the gateway's checkout page. Shared by the pages that
 * make one (the repayment page, the extension fee). `children` adds what the page must say about this payment.
 */
import { type ReactNode, useEffect, useRef } from 'react'
import type { PaymentIntention } from '../../../domain/contract/payments'
import { formatPhp } from '../../../domain/format'
import { channelOf } from '../../../domain/payments/channels'
import { fmt, useMessages } from '../../i18n/messages'
import { NumberedSteps } from '../layout/page'

export function PaymentInstructions({
  intention,
  onAgain,
  againLabel,
  children,
}: {
  intention: PaymentIntention
  /** Back to choose another way to pay. */
  onAgain: () => void
  againLabel?: string
  children?: ReactNode
}) {
  const m = useMessages().repay.repayment.instructions
  const channel = intention.channel ? channelOf(intention.channel) : null
  const name = intention.instructions?.name ?? channel?.name ?? ''
  const amount = formatPhp(intention.amount)
  const heading = useRef<HTMLHeadingElement>(null)
  // The form the client sent is gone: its answer takes the focus, so a screen reader reads it.
  useEffect(() => heading.current?.focus(), [])
  const rows: [string, string, string | null][] = [
    ['amount', m.amount, amount],
    ['payment-reference', m.reference, intention.reference],
    [
      'virtual-account',
      m.virtualAccount,
      intention.channel === 'bank_transfer' ? intention.virtualAccount : null,
    ],
    ['channel', m.channel, name || null],
  ]
  return (
    <section className="card stack" aria-labelledby="intention-title" data-intention={intention.id}>
      <h2 id="intention-title" className="card__title card__title--lg" tabIndex={-1} ref={heading}>
        {fmt(m.title, { amount, name })}
      </h2>
      <dl className="details-list" aria-label={m.label}>
        {rows.map(([key, label, value]) =>
          value ? (
            <div key={key} className="details-list__row" data-figure={key}>
              <dt>{label}</dt>
              <dd className={key === 'amount' || key === 'channel' ? undefined : 'mono'}>{value}</dd>
            </div>
          ) : null,
        )}
      </dl>
      {intention.purpose === 'full_repayment' ? <p className="muted">{m.holds}</p> : null}
      {children}
      {intention.checkoutUrl ? (
        <>
          <p className="button-row">
            <a href={intention.checkoutUrl} className="button button--primary" data-checkout>
              {fmt(m.continue, { name })}
            </a>
          </p>
          <p className="muted">{fmt(m.checkoutNote, { name })}</p>
        </>
      ) : null}
      {intention.instructions ? (
        <>
          <h3 className="section__title">{m.stepsTitle}</h3>
          <NumberedSteps steps={intention.instructions.steps} />
          <p className="muted">{fmt(m.posting, { posting: intention.instructions.posting })}</p>
        </>
      ) : null}
      <p role="status">{m.watching}</p>
      <p className="button-row">
        <button type="button" className="button button--ghost" onClick={onAgain}>
          {againLabel ?? m.again}
        </button>
      </p>
    </section>
  )
}
