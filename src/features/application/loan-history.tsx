/**
 * My loan's history (issue 16 items 3 and 7): the client's payments (GET /private/client/payments, newest
 * first: date, amount, channel and how each was applied in the allocation order penalties, fees, interest,
 * principal, with any credit) and the statement of account (GET /private/client/loan/{id}/statement: every
 * ledger entry with what the client owed after it), with its PDF.
 */
import { useState } from 'react'
import type { PaymentView, Statement } from '../../../domain/contract/payments'
import { formatPhp } from '../../../domain/money'
import { channelOf, type PaymentChannelCode, paymentChannelCodes } from '../../../domain/payments/channels'
import { useApi } from '../../app/app-context'
import { downloadStatement, usePayments, useStatement } from '../../app/servicing'
import { fmt, useMessages } from '../../i18n/messages'
import { formatLongDate } from './format'
import { ErrorNotice, errorKeyOf, QueryGate } from './parts'

type LoanTexts = ReturnType<typeof useMessages>['application']['myLoan']

const isChannelCode = (code: string): code is PaymentChannelCode =>
  (paymentChannelCodes as readonly string[]).includes(code)

/** A channel's name; a code the reference data does not know is shown as it came. */
export const channelName = (code: string) => (isChannelCode(code) ? channelOf(code).name : code)

const allocationParts = ['penalties', 'fees', 'interest', 'principal', 'credit'] as const

/** "Interest ₱210.00 · Principal ₱290.00": the parts a payment paid, in allocation order, then its credit. */
export function allocationText(payment: PaymentView, m: LoanTexts): string {
  if (payment.status !== 'posted') return m.paymentStatus[payment.status]
  const lines = allocationParts
    .filter((part) => payment.allocation[part] > 0)
    .map((part) => `${m.allocation[part]} ${formatPhp(payment.allocation[part])}`)
  return lines.join(' · ')
}

export function PaymentHistory() {
  const m = useMessages().application.myLoan
  const query = usePayments()
  return (
    <section className="section-block" aria-labelledby="payment-history">
      <h2 id="payment-history" className="section__title">
        {m.historyTitle}
      </h2>
      <QueryGate query={query}>
        {(payments) =>
          payments.length === 0 ? (
            <p>{m.historyEmpty}</p>
          ) : (
            // A table wider than a phone scrolls inside its box: focusable and named (axe scrollable-region-focusable).
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keys
            <section className="table-wrap" aria-label={m.historyLabel} tabIndex={0}>
              <table className="table">
                <caption className="visually-hidden">{m.historyLabel}</caption>
                <thead>
                  <tr>
                    <th scope="col">{m.columns.date}</th>
                    <th scope="col" className="num">
                      {m.columns.amount}
                    </th>
                    <th scope="col">{m.columns.channel}</th>
                    <th scope="col">{m.columns.appliedTo}</th>
                  </tr>
                </thead>
                <tbody>
                  {payments.map((payment) => (
                    <tr key={payment.id} data-payment={payment.id} data-status={payment.status}>
                      <td>{formatLongDate(payment.paidAt)}</td>
                      <td className="num">{formatPhp(payment.amount)}</td>
                      <td>{channelName(payment.channel)}</td>
                      <td>{allocationText(payment, m)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )
        }
      </QueryGate>
    </section>
  )
}

function entryText(entry: Statement['entries'][number], m: LoanTexts): string {
  const kind = m.entryKinds[entry.kind]
  return entry.kind === 'allocation' || entry.kind === 'reversal' || entry.kind === 'fee'
    ? `${kind}: ${m.partNames[entry.part]}`
    : kind
}

/** Saves the PDF as `statement-<loan number>.pdf`. */
function savePdf(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = `statement-${name}.pdf`
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

export function StatementOfAccount({ loanId }: { loanId: number }) {
  const m = useMessages().application.myLoan
  const api = useApi()
  const query = useStatement(loanId)
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState<string | null>(null)
  const download = async (name: string) => {
    setBusy(true)
    setFailed(null)
    try {
      savePdf(await downloadStatement(api, loanId), name)
    } catch (error) {
      setFailed(errorKeyOf(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="section-block" aria-labelledby="statement-title">
      <h2 id="statement-title" className="section__title">
        {m.statementTitle}
      </h2>
      <QueryGate query={query}>
        {(statement) => (
          <>
            <p className="muted">{fmt(m.statementAsOf, { date: formatLongDate(statement.asOf) })}</p>
            {statement.entries.length === 0 ? (
              <p>{m.statementEmpty}</p>
            ) : (
              // A table wider than a phone scrolls inside its box: focusable and named (axe scrollable-region-focusable).
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keys
              <section className="table-wrap" aria-label={m.statementLabel} tabIndex={0}>
                <table className="table">
                  <caption className="visually-hidden">{m.statementLabel}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{m.columns.date}</th>
                      <th scope="col">{m.columns.entry}</th>
                      <th scope="col" className="num">
                        {m.columns.amount}
                      </th>
                      <th scope="col" className="num">
                        {m.columns.balance}
                      </th>
                      <th scope="col" className="num">
                        {m.columns.creditAfter}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {statement.entries.map((entry) => (
                      <tr key={entry.id} data-entry={entry.kind} data-part={entry.part}>
                        <td>{formatLongDate(entry.date)}</td>
                        <td>{entryText(entry, m)}</td>
                        <td className="num">{formatPhp(entry.amount)}</td>
                        <td className="num">{formatPhp(entry.outstandingAfter)}</td>
                        <td className="num">{formatPhp(entry.creditAfter)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            )}
            <p className="button-row">
              <button
                type="button"
                className="button button--secondary"
                disabled={busy}
                onClick={() => void download(statement.loanNumber)}
              >
                {m.download}
              </button>
            </p>
            {busy ? <p role="status">{m.downloading}</p> : null}
            {failed ? (
              <ErrorNotice errorKey={failed}>
                <p>{m.downloadFailed}</p>
              </ErrorNotice>
            ) : null}
          </>
        )}
      </QueryGate>
    </section>
  )
}
