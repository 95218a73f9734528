/**
 * /repay/bank-transfer: InstaPay and PESONet to the client's own virtual account (8801 and the payment reference,
 * domain/payments/reference.ts), so a transfer needs no reference typed. The steps are the reference data's
 * (domain/payments/channels.ts, bank_transfer), filled with a logged-in client's account and amount.
 */
import { channelOf } from '../../../domain/payments/channels'
import { useMessages } from '../../i18n/messages'
import { Breadcrumbs, Callout, NumberedSteps, PageHeader } from '../../ui/layout/page'
import { CopyButton } from './copy-button'
import { useFill, useRepayView, YourPaymentDetails } from './your-loan'

const bank = channelOf('bank_transfer')

export function BankTransferPage() {
  const m = useMessages()
  const r = m.repay
  const b = r.bankTransfer
  const view = useRepayView()
  const fill = useFill(view)
  const number = view.kind === 'loan' ? view.virtualAccount : null
  return (
    <article className="page">
      <Breadcrumbs
        label={r.breadcrumbLabel}
        trail={[{ label: r.title, to: '/repay' }]}
        current={r.bank.title}
      />
      <PageHeader title={b.title} lead={b.lead} />
      <YourPaymentDetails view={view} />
      <div className="split">
        <div className="split__main">
          <section className="card account-card" aria-labelledby="bank-account">
            <h2 id="bank-account" className="card__title card__title--lg">
              {b.accountTitle}
            </h2>
            <dl className="details-list">
              <div className="details-list__row">
                <dt>{b.accountLabels.bank}</dt>
                <dd>{b.account.bank}</dd>
              </div>
              <div className="details-list__row">
                <dt>{b.accountLabels.name}</dt>
                <dd className="details-list__value">
                  <span>{b.account.name}</span>
                  <CopyButton
                    value={b.account.name}
                    label={b.copy.name}
                    done={b.copy.nameDone}
                    failed={b.copy.failed}
                    text={b.copy.button}
                  />
                </dd>
              </div>
              <div className="details-list__row" data-figure="account-number">
                <dt>{b.accountLabels.number}</dt>
                {number ? (
                  <dd className="details-list__value">
                    <span className="mono">{number}</span>
                    <CopyButton
                      value={number}
                      label={b.copy.number}
                      done={b.copy.numberDone}
                      failed={b.copy.failed}
                      text={b.copy.button}
                    />
                  </dd>
                ) : (
                  <dd>{b.numberVisitor}</dd>
                )}
              </div>
              <div className="details-list__row">
                <dt>{b.accountLabels.type}</dt>
                <dd>{b.account.type}</dd>
              </div>
            </dl>
          </section>
          <Callout title={b.referenceTitle}>
            <p>{b.referenceBody}</p>
          </Callout>
          <section className="section-block" aria-labelledby="bank-steps">
            <h2 id="bank-steps" className="section__title">
              {b.stepsTitle}
            </h2>
            <NumberedSteps steps={bank.steps.map(fill)} />
            <p className="muted">{bank.posting}</p>
          </section>
          <section className="section-block" aria-labelledby="bank-instapay">
            <h2 id="bank-instapay" className="section__title">
              {b.instapayTitle}
            </h2>
            <p>{b.instapayBody}</p>
          </section>
          <section className="section-block" aria-labelledby="bank-pesonet">
            <h2 id="bank-pesonet" className="section__title">
              {b.pesonetTitle}
            </h2>
            <p>{b.pesonetBody}</p>
          </section>
        </div>
        <div className="split__side stack">
          <Callout tone="success">
            <p>{b.feeNote}</p>
          </Callout>
          <Callout tone="warning">
            <p>{r.safety}</p>
          </Callout>
        </div>
      </div>
    </article>
  )
}
