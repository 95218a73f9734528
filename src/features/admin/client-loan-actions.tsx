/**
 * One loan's actions on the client's page (issue 19 item 5; docs/decisions/0037-back-office-loan-actions.md):
 * an extension on the client's behalf during a recorded call (the options the client is offered today, one
 * chosen, the signing code sent to the client's phone, the code the client reads out entered here, the result),
 * and the refund of the loan's credit to the client's payout account (after a confirmation), with the loan's
 * refunds. Each part shows only when the signed-in user's roles allow it (`useMayDo`); the server refuses anyway.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import {
  type BackOfficeExtensions,
  chooseExtensionOnBehalf,
  type ExtensionChosen,
  getLoanExtensionOptions,
  getLoanRefunds,
  type LoanRefunds,
  refundLoanCredit,
  signExtensionBody,
  signExtensionOnBehalf,
} from '../../../domain/contract/back-office-loans'
import type { Rollover } from '../../../domain/contract/servicing-answers'
import { isApiFailure } from '../../../domain/contract/wire'
import { formatPhp } from '../../../domain/format'
import type { ExtensionType } from '../../../domain/loan/extension'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { manilaDay, manilaTimestamp } from './admin-api'
import { ScrollTable } from './admin-parts'
import { clientQueryKeys } from './clients-api'
import { ResultLine, useSchemaForm } from './form-parts'
import { placeServerErrors } from './payment-forms'
import { useMayDo } from './permissions'

type Texts = ReturnType<typeof useMessages>['admin']['loanDesk']

const loanKeys = {
  extensions: (clientId: number, loanId: number) =>
    [...clientQueryKeys.client(clientId), 'loan', loanId, 'extensions'] as const,
  refunds: (clientId: number, loanId: number) =>
    [...clientQueryKeys.client(clientId), 'loan', loanId, 'refunds'] as const,
}

/** The server's own words for a refused call, or the screen's fallback. */
const failureOf = (error: unknown, fallback: string): FieldErrorView =>
  isApiFailure(error) && error.message
    ? { key: error.code ?? 'failed', text: error.message }
    : { key: 'failed', text: fallback }

export function ClientLoanActions({
  clientId,
  loanId,
  loanNumber,
}: {
  clientId: number
  loanId: number
  /** As staff and the client read it (L00000001); the id when absent. */
  loanNumber?: string
}) {
  const t = useMessages().admin.loanDesk
  const mayDo = useMayDo()
  const extend = mayDo('loans.extend')
  const refunds = mayDo('payments.read') || mayDo('payments.refund')
  if (!extend && !refunds) return null
  const titleId = `loan-${loanId}-actions-title`
  return (
    <section className="card" aria-labelledby={titleId}>
      <h3 id={titleId}>{fmt(t.title, { number: loanNumber ?? String(loanId) })}</h3>
      {extend ? <ExtendOnBehalf clientId={clientId} loanId={loanId} t={t} /> : null}
      {refunds ? (
        <RefundCredit clientId={clientId} loanId={loanId} t={t} mayRefund={mayDo('payments.refund')} />
      ) : null}
    </section>
  )
}

// ---------------------------------------------------------------------------------------------------------
// Extension on the client's behalf

function ExtendOnBehalf({ clientId, loanId, t }: { clientId: number; loanId: number; t: Texts }) {
  const e = t.extension
  const api = useApi()
  const queryClient = useQueryClient()
  const key = loanKeys.extensions(clientId, loanId)
  const options = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.call(getLoanExtensionOptions, { params: { id: loanId } }, { signal }),
  })
  const [chosen, setChosen] = useState<ExtensionChosen | null>(null)
  const [error, setError] = useState<FieldErrorView | null>(null)
  const [result, setResult] = useState<string | null>(null)
  const choose = useMutation({
    mutationFn: (type: ExtensionType) =>
      api.call(chooseExtensionOnBehalf, { params: { id: loanId }, body: { type } }),
    onSuccess: async (answer) => {
      setChosen(answer)
      await queryClient.invalidateQueries({ queryKey: key })
    },
    onError: (failure) => setError(failureOf(failure, e.failed)),
  })
  const start = (type: ExtensionType) => {
    setError(null)
    setResult(null)
    choose.mutate(type)
  }
  const titleId = `loan-${loanId}-extend-title`
  return (
    <section aria-labelledby={titleId}>
      <h4 id={titleId}>{e.title}</h4>
      <p>{e.lead}</p>
      {options.isPending ? <p role="status">{t.loading}</p> : null}
      {options.isError ? <p role="alert">{e.loadFailed}</p> : null}
      {options.data ? (
        <ExtensionOptions
          data={options.data}
          t={t}
          busy={choose.isPending}
          // While a code is awaited, the choice stays; "Send a new code" chooses the same one again.
          onChoose={chosen ? null : start}
        />
      ) : null}
      <FormError error={error} />
      {choose.isPending ? <p role="status">{e.sending}</p> : null}
      {chosen ? (
        <SignWithClientCode
          loanId={loanId}
          chosen={chosen}
          t={t}
          resending={choose.isPending}
          onResend={() => start(chosen.rollover.type)}
          onCancel={() => setChosen(null)}
          onSigned={async (message) => {
            setChosen(null)
            setResult(message)
            await queryClient.invalidateQueries({ queryKey: clientQueryKeys.client(clientId) })
          }}
        />
      ) : null}
      <ResultLine>{result}</ResultLine>
    </section>
  )
}

function ExtensionOptions({
  data,
  t,
  busy,
  onChoose,
}: {
  data: BackOfficeExtensions
  t: Texts
  busy: boolean
  onChoose: ((type: ExtensionType) => void) | null
}) {
  const e = t.extension
  const types = e.types as Record<string, string>
  const statuses = e.invoiceStatuses as Record<string, string>
  const shown = data.options.filter((o) => o.status === 'inactive')
  return (
    <>
      {data.refusal ? <p className="callout callout--info">{data.refusal.message}</p> : null}
      {shown.length ? (
        <ScrollTable label={e.region}>
          <table>
            <caption className="visually-hidden">{e.caption}</caption>
            <thead>
              <tr>
                {[e.type, e.term, e.fee, e.newDueDate, e.status, e.action].map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((option) => (
                <OptionRow
                  key={option.id}
                  option={option}
                  typeName={types[option.type] ?? option.type}
                  status={statusOf(option, statuses, e.signedWaiting)}
                  t={t}
                  action={
                    onChoose && data.extendable && option.available ? (
                      <button
                        type="button"
                        className="button button--secondary"
                        disabled={busy}
                        onClick={() => onChoose(option.type)}
                      >
                        {fmt(e.choose, { type: types[option.type] ?? option.type })}
                      </button>
                    ) : (
                      (option.refusal?.message ?? '')
                    )
                  }
                />
              ))}
            </tbody>
          </table>
        </ScrollTable>
      ) : (
        <p>{e.none}</p>
      )}
    </>
  )
}

const statusOf = (option: Rollover, statuses: Record<string, string>, signedWaiting: string) => {
  const invoice = option.invoices[0]?.status ?? 'draft'
  if (invoice === 'unpaid' && option.signed) return signedWaiting
  return statuses[invoice] ?? invoice
}

function OptionRow({
  option,
  typeName,
  status,
  t,
  action,
}: {
  option: Rollover
  typeName: string
  status: string
  t: Texts
  action: ReactNode
}) {
  return (
    <tr data-rollover={option.id}>
      <th scope="row">{typeName}</th>
      <td>{fmt(t.extension.days, { days: option.term })}</td>
      <td>{formatPhp(option.fee.amount)}</td>
      <td>{manilaDay(option.newDueDate)}</td>
      <td>{status}</td>
      <td>{action}</td>
    </tr>
  )
}

function SignWithClientCode({
  loanId,
  chosen,
  t,
  resending,
  onResend,
  onCancel,
  onSigned,
}: {
  loanId: number
  chosen: ExtensionChosen
  t: Texts
  resending: boolean
  onResend: () => void
  onCancel: () => void
  onSigned: (message: string) => Promise<void>
}) {
  const e = t.extension
  const api = useApi()
  const rid = chosen.rollover.id
  const { handleSubmit, setError, bind, formError, setFormError, reset } = useSchemaForm<{ code: string }>(
    signExtensionBody,
    { code: '' },
  )
  const sending = useRef(false)
  const sign = useMutation({
    mutationFn: (code: string) =>
      api.call(signExtensionOnBehalf, { params: { id: loanId, rid }, body: { code } }),
    onSuccess: (application) =>
      onSigned(
        fmt(e.signed, {
          fee: formatPhp(application.rollover.fee.amount),
          until: application.rollover.invoices[0]?.payableUntil
            ? manilaDay(application.rollover.invoices[0].payableUntil)
            : '',
          due: manilaDay(application.rollover.newDueDate),
        }),
      ),
    onError: (error) => setFormError(placeServerErrors(error, ['code'], setError, e.failed)),
    onSettled: () => {
      sending.current = false
    },
  })
  const submit = handleSubmit(({ code }) => {
    if (sending.current) return
    sending.current = true
    setFormError(null)
    sign.mutate(code)
  })
  // A new code makes the one typed so far stale.
  useEffect(() => {
    if (resending) reset({ code: '' })
  }, [resending, reset])
  const titleId = `loan-${loanId}-sign-title`
  return (
    <fieldset className="callout callout--warning" aria-labelledby={titleId}>
      <legend id={titleId}>
        <strong>{e.codeSentTitle}</strong>
      </legend>
      <p role="status">
        {fmt(e.codeSent, {
          type: (e.types as Record<string, string>)[chosen.rollover.type] ?? chosen.rollover.type,
          fee: formatPhp(chosen.rollover.fee.amount),
          due: manilaDay(chosen.rollover.newDueDate),
          expires: manilaTimestamp(chosen.codeExpiresAt),
        })}
      </p>
      <p>{e.script}</p>
      {chosen.documents.length ? (
        <ul>
          {chosen.documents.map((d) => (
            <li key={d.id}>{d.name}</li>
          ))}
        </ul>
      ) : null}
      <form noValidate onSubmit={submit} aria-labelledby={titleId}>
        <TextField
          label={e.code}
          hint={e.codeHint}
          inputMode="numeric"
          autoComplete="off"
          maxLength={3}
          {...bind('code')}
        />
        <FormError error={formError} />
        {sign.isPending ? <p role="status">{e.signing}</p> : null}
        <p className="button-row">
          <button type="submit" className="button button--primary" disabled={sign.isPending}>
            {e.sign}
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={sign.isPending || resending}
            onClick={onResend}
          >
            {e.resend}
          </button>
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {e.cancel}
          </button>
        </p>
      </form>
    </fieldset>
  )
}

// ---------------------------------------------------------------------------------------------------------
// Refund of the loan's credit

function RefundCredit({
  clientId,
  loanId,
  t,
  mayRefund,
}: {
  clientId: number
  loanId: number
  t: Texts
  mayRefund: boolean
}) {
  const r = t.refund
  const api = useApi()
  const queryClient = useQueryClient()
  const key = loanKeys.refunds(clientId, loanId)
  const refunds = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.call(getLoanRefunds, { params: { id: loanId } }, { signal }),
  })
  const [confirming, setConfirming] = useState(false)
  const [error, setError] = useState<FieldErrorView | null>(null)
  const [result, setResult] = useState<string | null>(null)
  const confirmButton = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (confirming) confirmButton.current?.focus()
  }, [confirming])
  const refund = useMutation({
    mutationFn: () => api.call(refundLoanCredit, { params: { id: loanId } }),
    onSuccess: async (queued) => {
      setConfirming(false)
      setResult(fmt(r.queued, { id: queued.id, amount: formatPhp(queued.amount) }))
      await queryClient.invalidateQueries({ queryKey: clientQueryKeys.client(clientId) })
    },
    onError: async (failure) => {
      setConfirming(false)
      setError(failureOf(failure, r.failed))
      await queryClient.invalidateQueries({ queryKey: key })
    },
  })
  const titleId = `loan-${loanId}-refund-title`
  const confirmId = `loan-${loanId}-refund-confirm`
  const data = refunds.data
  return (
    <section aria-labelledby={titleId}>
      <h4 id={titleId}>{r.title}</h4>
      {refunds.isPending ? <p role="status">{t.loading}</p> : null}
      {refunds.isError ? <p role="alert">{r.loadFailed}</p> : null}
      {data ? (
        <>
          <p>{fmt(r.credit, { amount: formatPhp(data.credit) })}</p>
          {mayRefund && !data.refundable && data.refusal ? <p>{data.refusal.message}</p> : null}
          {mayRefund && data.refundable && !confirming ? (
            <p className="button-row">
              <button
                type="button"
                className="button button--secondary"
                onClick={() => {
                  setError(null)
                  setResult(null)
                  setConfirming(true)
                }}
              >
                {fmt(r.submit, { amount: formatPhp(data.credit) })}
              </button>
            </p>
          ) : null}
          {confirming ? (
            <fieldset className="callout callout--warning" aria-describedby={confirmId}>
              <legend>
                <strong>{fmt(r.confirmTitle, { amount: formatPhp(data.credit) })}</strong>
              </legend>
              <p className="callout__body" id={confirmId}>
                {r.confirmBody}
              </p>
              {refund.isPending ? <p role="status">{r.sending}</p> : null}
              <p className="button-row">
                <button
                  type="button"
                  ref={confirmButton}
                  className="button button--primary"
                  disabled={refund.isPending}
                  onClick={() => refund.mutate()}
                >
                  {r.confirm}
                </button>
                <button
                  type="button"
                  className="button button--ghost"
                  disabled={refund.isPending}
                  onClick={() => setConfirming(false)}
                >
                  {r.keep}
                </button>
              </p>
            </fieldset>
          ) : null}
          <FormError error={error} />
          <ResultLine>{result}</ResultLine>
          <RefundList data={data} t={t} />
        </>
      ) : null}
    </section>
  )
}

function RefundList({ data, t }: { data: LoanRefunds; t: Texts }) {
  const r = t.refund
  const statuses = r.statuses as Record<string, string>
  if (!data.refunds.length) return <p>{r.none}</p>
  return (
    <ScrollTable label={r.region}>
      <table>
        <caption className="visually-hidden">{r.caption}</caption>
        <thead>
          <tr>
            {[r.id, r.created, r.amount, r.status, r.completed, r.note].map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.refunds.map((refund) => (
            <tr key={refund.id} data-refund={refund.id}>
              <th scope="row">{refund.id}</th>
              <td>{manilaTimestamp(refund.createdAt)}</td>
              <td>{formatPhp(refund.amount)}</td>
              <td>{statuses[refund.status] ?? refund.status}</td>
              <td>{refund.completedAt ? manilaTimestamp(refund.completedAt) : ''}</td>
              <td>{refund.failureReason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  )
}
