/**
 * /sandbox/checkout/{id}: the sandbox payment gateway's hosted checkout page (issue 16 item 5), like PayMongo's
 * test checkout: the merchant, the amount, the payment reference and the channel, and two buttons, Pay and Fail
 * payment (POST /public/sandbox/checkout/{id}); the gateway then sends its signed webhook to Hiram, as a real
 * one would. A big notice says it is a sandbox page and no money moves. "Back to Hiram" returns to the page the
 * charge names (its returnPath). An id that is not a charge, or one the gateway does not know, is the 404 page
 * (checkout-loader.ts).
 */
import { useMutation } from '@tanstack/react-query'
import * as v from 'valibot'
import { type Checkout, checkoutSchema, completeSandboxCheckout } from '../../../domain/contract/payments'
import { formatPhp } from '../../../domain/format'
import { useApi } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { Callout } from '../../ui/layout/page'

/** A path of this site, or home: the page never sends the payer off-site. */
export const sitePath = (path: string) => (/^\/(?![/\\])/.test(path) ? path : '/')

export function SandboxCheckoutPage({ checkout: initial }: { checkout: Checkout }) {
  const m = useMessages().repay.checkout
  const api = useApi()
  const complete = useMutation({
    mutationFn: async (outcome: 'pay' | 'fail') =>
      v.parse(
        checkoutSchema,
        await api.call(completeSandboxCheckout, { params: { id: initial.id }, body: { outcome } }),
      ),
  })
  const checkout = complete.data ?? initial
  const rows: [string, string, string][] = [
    ['merchant', m.merchant, checkout.merchant],
    ['amount', m.amount, formatPhp(checkout.amount)],
    ['reference', m.reference, checkout.reference],
    ['channel', m.channel, checkout.channelName],
    ['status', m.status, m.statuses[checkout.status]],
  ]
  return (
    <section className="page page--narrow sandbox-checkout" aria-labelledby="checkout-title">
      <div
        className="callout callout--warning sandbox-checkout__notice"
        role="note"
        aria-label={m.sandboxTitle}
      >
        <p className="callout__title">{m.sandboxTitle}</p>
        <p className="callout__body">{m.sandboxBody}</p>
      </div>
      <div className="page-header">
        <h1 id="checkout-title" className="page-header__title">
          {m.title}
        </h1>
      </div>
      <dl className="details-list card" aria-label={m.detailsLabel}>
        {rows.map(([name, label, value]) => (
          <div key={name} className="details-list__row" data-figure={name}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {checkout.status === 'pending' ? (
        <p className="button-row">
          <button
            type="button"
            className="button button--primary"
            disabled={complete.isPending}
            onClick={() => complete.mutate('pay')}
          >
            {m.pay}
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={complete.isPending}
            onClick={() => complete.mutate('fail')}
          >
            {m.fail}
          </button>
        </p>
      ) : (
        <>
          <Callout tone={checkout.status === 'paid' ? 'success' : 'warning'}>
            <p role="status">{m.outcomes[checkout.status]}</p>
          </Callout>
          <p className="button-row">
            <a href={sitePath(checkout.returnPath)} className="button button--primary">
              {m.back}
            </a>
          </p>
        </>
      )}
      {complete.isPending ? <p role="status">{m.busy}</p> : null}
      {complete.isError ? (
        <div className="callout callout--warning" role="alert">
          <p className="callout__body">{m.error}</p>
        </div>
      ) : null}
    </section>
  )
}
