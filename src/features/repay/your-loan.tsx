/**
 * The repay pages for a client who is logged in (issue 16 item 4: "when the client is logged in, the pages show
 * their own reference and amount due"): the payment reference, today's amount to pay in full (the active loan's
 * payoff) and the virtual account, filled into the channel's steps. A visitor, an admin, or a client with no
 * loan reads where to find them instead (`repay.stepBlanks`). Only a client's own session asks for the loan: an
 * admin's 403 would end their session.
 */
import { Link } from '@tanstack/react-router'
import type { ActiveLoan } from '../../../domain/contract/lending-answers'
import { formatPhp } from '../../../domain/format'
import { fillStep } from '../../../domain/payments/channels'
import { virtualAccountOf } from '../../../domain/payments/reference'
import { useActiveLoan, useClientSession, useSingleLinkSession } from '../../app/servicing'
import { useMessages } from '../../i18n/messages'
import { CopyButton } from './copy-button'

export type RepayView =
  | { kind: 'visitor' }
  | { kind: 'loading' }
  | { kind: 'failed' }
  | { kind: 'noLoan' }
  | {
      kind: 'loan'
      loan: ActiveLoan
      reference: string | null
      amount: string
      virtualAccount: string | null
    }

export function repayViewOf(client: boolean, query: ReturnType<typeof useActiveLoan>): RepayView {
  if (!client) return { kind: 'visitor' }
  if (query.isPending) return { kind: 'loading' }
  if (query.isError) return { kind: 'failed' }
  const loan = query.data
  if (!loan) return { kind: 'noLoan' }
  const reference = loan.paymentReference ?? null
  return {
    kind: 'loan',
    loan,
    reference,
    amount: formatPhp(loan.amountDue.amount),
    virtualAccount: loan.virtualAccount ?? (reference ? virtualAccountOf(reference) : null),
  }
}

/** The client's loan as the repay pages read it. */
export function useRepayView(): RepayView {
  const client = useClientSession()
  return repayViewOf(client, useActiveLoan(client))
}

/**
 * Fills a channel's step with the client's figures; for anyone else, with words that say where to find them
 * (`repay.stepBlanks`: the reference data's own blanks would read "enter your payment reference your payment
 * reference").
 */
export function useFill(view: RepayView) {
  const blanks = useMessages().repay.stepBlanks
  const values =
    view.kind === 'loan'
      ? {
          reference: view.reference ?? blanks.reference,
          amount: view.amount,
          virtualAccount: view.virtualAccount ?? blanks.virtualAccount,
        }
      : blanks
  return (step: string) => fillStep(step, values)
}

/** The client's payment reference and amount due at the top of a repay page; nothing for a visitor. */
export function YourPaymentDetails({ view }: { view: RepayView }) {
  const m = useMessages().repay.yours
  const singleLink = useSingleLinkSession()
  if (view.kind === 'visitor') return null
  if (view.kind === 'loading') return <p role="status">{m.loading}</p>
  if (view.kind === 'failed')
    return (
      <div className="callout callout--warning" role="alert">
        <p className="callout__body">{m.failed}</p>
      </div>
    )
  if (view.kind === 'noLoan')
    return (
      <div className="callout callout--info" role="status">
        <p className="callout__body">{m.noLoan}</p>
      </div>
    )
  return (
    <section className="card account-card" aria-labelledby="your-payment-details">
      <h2 id="your-payment-details" className="card__title card__title--lg">
        {m.title}
      </h2>
      <dl className="details-list" aria-label={m.label}>
        {view.reference ? (
          <div className="details-list__row" data-figure="payment-reference">
            <dt>{m.reference}</dt>
            <dd className="details-list__value">
              <span className="mono">{view.reference}</span>
              <CopyButton
                value={view.reference}
                label={m.copyReference}
                done={m.referenceCopied}
                failed={m.copyFailed}
                text={m.copy}
              />
            </dd>
          </div>
        ) : null}
        <div className="details-list__row" data-figure="amount-due">
          <dt>{m.amountDue}</dt>
          <dd>{view.amount}</dd>
        </div>
      </dl>
      <p className="muted">{m.holds}</p>
      <p className="button-row">
        {singleLink ? null : (
          <Link to="/profile/repayment" className="button button--primary">
            {m.payFromProfile}
          </Link>
        )}
        <Link to="/profile/my-loan" className="button button--ghost">
          {m.myLoan}
        </Link>
      </p>
    </section>
  )
}
