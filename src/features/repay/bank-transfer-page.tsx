import { useShell } from '../../app/app-context'
import { useMessages } from '../../i18n/messages'
import { Breadcrumbs, Callout, NumberedSteps, PageHeader } from '../../ui/layout/page'

/** /repay/bank-transfer: Hiram's account, the reference rule, and InstaPay, PESONet and counter steps. */
export function BankTransferPage() {
  const m = useMessages()
  const r = m.repay
  const b = r.bankTransfer
  const methods = [
    { id: 'instapay', title: b.instapayTitle, steps: b.instapaySteps, posting: b.instapayPosting },
    { id: 'pesonet', title: b.pesonetTitle, steps: b.pesonetSteps, posting: b.pesonetPosting },
    { id: 'counter', title: b.counterTitle, steps: b.counterSteps, posting: b.counterPosting },
  ]
  return (
    <article className="page">
      <Breadcrumbs
        label={r.breadcrumbLabel}
        trail={[{ label: r.title, to: '/repay' }]}
        current={r.bank.title}
      />
      <PageHeader title={b.title} lead={b.lead} />
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
                  <CopyButton value={b.account.name} label={b.copy.name} done={b.copy.nameDone} />
                </dd>
              </div>
              <div className="details-list__row">
                <dt>{b.accountLabels.number}</dt>
                <dd className="details-list__value">
                  <span className="mono">{b.account.number}</span>
                  <CopyButton
                    value={b.account.number.replace(/\s/g, '')}
                    label={b.copy.number}
                    done={b.copy.numberDone}
                  />
                </dd>
              </div>
              <div className="details-list__row">
                <dt>{b.accountLabels.type}</dt>
                <dd>{b.account.type}</dd>
              </div>
            </dl>
          </section>
          <Callout tone="warning" title={b.referenceTitle}>
            <p>{b.referenceBody}</p>
          </Callout>
          {methods.map((method) => (
            <section key={method.id} className="section-block" aria-labelledby={`bank-${method.id}`}>
              <h2 id={`bank-${method.id}`} className="section__title">
                {method.title}
              </h2>
              <NumberedSteps steps={method.steps} />
              <p className="muted">{method.posting}</p>
            </section>
          ))}
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

/** Copies a value and confirms with a toast (or says it could not, e.g. without clipboard permission). */
function CopyButton({ value, label, done }: { value: string; label: string; done: string }) {
  const m = useMessages()
  const shell = useShell()
  const copy = () => {
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(value))
      .then(() => shell.send({ type: 'notice.push', tone: 'success', text: done }))
      .catch(() => shell.send({ type: 'notice.push', tone: 'error', text: m.repay.bankTransfer.copy.failed }))
  }
  return (
    <button type="button" className="button button--ghost button--sm" aria-label={label} onClick={copy}>
      {m.repay.bankTransfer.copy.button}
    </button>
  )
}
