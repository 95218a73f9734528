/**
 * My loan's history (issue 16 items 3 and 7): the client's payments (GET /private/client/payments, newest
 * first: date, amount, channel and how each was applied in the allocation order penalties, fees, interest,
 * principal, with any credit) and the statement of account (GET /private/client/loan/{id}/statement: every
 * ledger entry with what the client owed after it), with its PDF. Each entry is named by its kind
 * (`myLoan.entryKinds`), issue 17's extension fee and payment-schedule interest included.
 */
import { type ReactNode, useState } from 'react'
import type { PaymentView, Statement } from '../../../domain/contract/payments'
import { formatPhp } from '../../../domain/format'
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

/** A block of My loan titled by its h2. */
export function HistoryBlock({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="section-block" aria-labelledby={id}>
      <h2 id={id} className="section__title">
        {title}
      </h2>
      {children}
    </section>
  )
}

/** A table wider than a phone scrolls inside its box: focusable and named (axe scrollable-region-focusable). */
export function ScrollTable({
  label,
  columns,
  children,
}: {
  label: string
  /** Each column's heading, and whether it holds numbers (right-aligned). */
  columns: readonly (readonly [heading: string, numeric?: boolean])[]
  children: ReactNode
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keys
    <section className="table-wrap" aria-label={label} tabIndex={0}>
      <table className="table">
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>
            {columns.map(([heading, numeric]) => (
              <th key={heading} scope="col" className={numeric ? 'num' : undefined}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  )
}

export function PaymentHistory() {
  const m = useMessages().application.myLoan
  const query = usePayments()
  return (
    <HistoryBlock id="payment-history" title={m.historyTitle}>
      <QueryGate query={query}>
        {(payments) =>
          payments.length === 0 ? (
            <p>{m.historyEmpty}</p>
          ) : (
            <ScrollTable
              label={m.historyLabel}
              columns={[
                [m.columns.date],
                [m.columns.amount, true],
                [m.columns.channel],
                [m.columns.appliedTo],
              ]}
            >
              {payments.map((payment) => (
                <tr key={payment.id} data-payment={payment.id} data-status={payment.status}>
                  <td>{formatLongDate(payment.paidAt)}</td>
                  <td className="num">{formatPhp(payment.amount)}</td>
                  <td>{channelName(payment.channel)}</td>
                  <td>{allocationText(payment, m)}</td>
                </tr>
              ))}
            </ScrollTable>
          )
        }
      </QueryGate>
    </HistoryBlock>
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
    <HistoryBlock id="statement-title" title={m.statementTitle}>
      <QueryGate query={query}>
        {(statement) => (
          <>
            <p className="muted">{fmt(m.statementAsOf, { date: formatLongDate(statement.asOf) })}</p>
            {statement.entries.length === 0 ? (
              <p>{m.statementEmpty}</p>
            ) : (
              <ScrollTable
                label={m.statementLabel}
                columns={[
                  [m.columns.date],
                  [m.columns.entry],
                  [m.columns.amount, true],
                  [m.columns.balance, true],
                  [m.columns.creditAfter, true],
                ]}
              >
                {statement.entries.map((entry) => (
                  <tr key={entry.id} data-entry={entry.kind} data-part={entry.part}>
                    <td>{formatLongDate(entry.date)}</td>
                    <td>{entryText(entry, m)}</td>
                    <td className="num">{formatPhp(entry.amount)}</td>
                    <td className="num">{formatPhp(entry.outstandingAfter)}</td>
                    <td className="num">{formatPhp(entry.creditAfter)}</td>
                  </tr>
                ))}
              </ScrollTable>
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
    </HistoryBlock>
  )
}
