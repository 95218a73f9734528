/**
 * /admin/payments, the back office's payments (issue 16, item 8): every payment received, newest first, a page at
 * a time (the x-* pagination headers), filtered by the Manila day it was received, channel, status and reference.
 * An unmatched payment is assigned to a loan by hand, a posted one reversed with a reason (after a confirmation);
 * below the list, a payment posted by hand, a reconciliation run now, and a loan held, released or cancelled
 * (payment-actions.tsx). Every action is recorded on the server with who did it and when; the list is fetched
 * again after each one.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type ChangeEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { formatPhp } from '../../../domain/format'
import type { PaymentChannelCode } from '../../../domain/payments/channels'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { FormError, TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import {
  assignPaymentToLoan,
  type BackOfficePayment,
  fetchPayments,
  manilaTimestamp,
  type PaymentFilters,
  type PaymentStatus,
  paymentQueryKeys,
  paymentStatuses,
  reverseOnePayment,
} from './admin-api'
import { LoanReasonFields, SubmitRow, usePaymentsApi, useSchemaForm } from './form-parts'
import { LoanActions, ManualPayment, Reconcile } from './payment-actions'
import {
  type AssignValues,
  assignSchema,
  channelName,
  channelOptions,
  type FilterValues,
  filtersSchema,
  loanIdOf,
  placeServerErrors,
  type ReverseValues,
  reverseSchema,
} from './payment-forms'
import { approvalsQueryKey, PendingApprovals } from './pending-approvals'

export const PER_PAGE_OPTIONS = [20, 50, 100, 200] as const
const DEFAULT_PER_PAGE = 50

export function PaymentsDesk() {
  const { refreshPayments } = usePaymentsApi()
  return (
    <>
      <PaymentList />
      <PendingApprovals
        id="payment-approvals-title"
        kinds={['payments.reverse']}
        onDecided={refreshPayments}
      />
      <ManualPayment />
      <Reconcile />
      <LoanActions />
    </>
  )
}

type RowAction = { kind: 'assign' | 'reverse'; payment: BackOfficePayment }

const emptyFilters: FilterValues = { from: '', to: '', channel: '', status: '', reference: '' }
const filterFields = ['from', 'to', 'channel', 'status', 'reference'] as const

/** The filters as the query sends them: the empty ones left out. */
function filtersOf(values: FilterValues): PaymentFilters {
  const reference = values.reference.trim()
  return {
    ...(values.from ? { from: values.from } : {}),
    ...(values.to ? { to: values.to } : {}),
    ...(values.channel ? { channel: values.channel as PaymentChannelCode } : {}),
    ...(values.status ? { status: values.status as PaymentStatus } : {}),
    ...(reference ? { reference } : {}),
  }
}

function PaymentList() {
  const m = useMessages().admin
  const p = m.payments
  const api = useApi()
  const [filters, setFilters] = useState<PaymentFilters>({})
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState<number>(DEFAULT_PER_PAGE)
  const [action, setAction] = useState<RowAction | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const noticeRef = useRef<HTMLParagraphElement>(null)
  const list = useQuery({
    queryKey: paymentQueryKeys.page(filters, page, perPage),
    queryFn: ({ signal }) => fetchPayments(api, filters, page, perPage, signal),
    // The page on screen stays while the next one loads (TanStack's keepPreviousData, without importing it).
    placeholderData: (previous) => previous,
  })

  // A filter the server still refuses (a 400 on `query.reference`) goes on its field.
  const {
    handleSubmit,
    reset,
    setError,
    bind,
    formError: filterError,
    setFormError: setFilterError,
  } = useSchemaForm<FilterValues>(filtersSchema(p.errors), emptyFilters)
  useEffect(() => {
    if (!list.error) return
    setFilterError(
      isValidationFailure(list.error)
        ? placeServerErrors(list.error, filterFields, setError, m.loadFailed)
        : null,
    )
  }, [list.error, setError, setFilterError, m.loadFailed])

  const search = handleSubmit((values) => {
    setFilterError(null)
    const next = filtersOf(values)
    if (page === 1 && JSON.stringify(next) === JSON.stringify(filters)) void list.refetch()
    else {
      setFilters(next)
      setPage(1)
    }
  })
  const clear = () => {
    reset(emptyFilters)
    setFilterError(null)
    setFilters({})
    setPage(1)
  }
  const done = (message: string) => {
    setAction(null)
    setNotice(message)
    noticeRef.current?.focus()
  }
  const data = list.data
  const totalPages = Math.max(1, data?.totalPages ?? 1)

  return (
    <section className="section" aria-labelledby="payments-list-title">
      <h2 id="payments-list-title" className="section__title">
        {p.filters.title}
      </h2>
      <search>
        <form aria-label={p.filters.title} noValidate onSubmit={search}>
          <div className="admin-filters">
            <TextField label={p.filters.from} hint={p.filters.dateHint} type="date" {...bind('from')} />
            <TextField label={p.filters.to} hint={p.filters.dateHint} type="date" {...bind('to')} />
            <SelectField
              label={p.filters.channel}
              placeholder={p.filters.anyChannel}
              options={channelOptions}
              {...bind('channel')}
            />
            <SelectField
              label={p.filters.status}
              placeholder={p.filters.anyStatus}
              options={paymentStatuses.map((status) => ({ value: status, label: p.statuses[status] }))}
              {...bind('status')}
            />
            <TextField
              label={p.filters.reference}
              type="search"
              inputMode="numeric"
              autoComplete="off"
              {...bind('reference')}
            />
          </div>
          <FormError error={filterError} />
          <p className="button-row">
            <button type="submit" className="button button--primary">
              {p.filters.submit}
            </button>
            <button type="button" className="button button--ghost" onClick={clear}>
              {p.filters.clear}
            </button>
          </p>
        </form>
      </search>

      <p role="status" aria-live="polite" tabIndex={-1} ref={noticeRef}>
        {notice}
      </p>

      {list.isPending ? (
        <p role="status">{m.loading}</p>
      ) : list.isError && !data ? (
        <div role="alert">
          <p>{m.loadFailed}</p>
          <button type="button" className="button button--secondary" onClick={() => list.refetch()}>
            {m.retry}
          </button>
        </div>
      ) : data && data.items.length === 0 ? (
        <p>{p.table.empty}</p>
      ) : data ? (
        <PaymentsTable
          items={data.items}
          open={action}
          onAction={(next) => {
            setNotice(null)
            setAction(next)
          }}
        />
      ) : null}

      {data ? (
        <nav className="admin-paging" aria-label={p.paging.label}>
          <p>
            {fmt(p.paging.position, {
              page: data.page || page,
              pages: totalPages,
              total: data.total,
            })}
          </p>
          <p className="button-row">
            <button
              type="button"
              className="button button--secondary button--sm"
              disabled={page <= 1}
              onClick={() => setPage((n) => Math.max(1, n - 1))}
            >
              {p.paging.previous}
            </button>
            <button
              type="button"
              className="button button--secondary button--sm"
              disabled={page >= totalPages}
              onClick={() => setPage((n) => n + 1)}
            >
              {p.paging.next}
            </button>
          </p>
          <PerPage
            value={perPage}
            onChange={(next) => {
              setPerPage(next)
              setPage(1)
            }}
          />
        </nav>
      ) : null}

      {action?.kind === 'assign' ? (
        <AssignPanel
          key={action.payment.id}
          payment={action.payment}
          onDone={done}
          onCancel={() => setAction(null)}
        />
      ) : null}
      {action?.kind === 'reverse' ? (
        <ReversePanel
          key={action.payment.id}
          payment={action.payment}
          onDone={done}
          onCancel={() => setAction(null)}
        />
      ) : null}
    </section>
  )
}

const isValidationFailure = (error: unknown) =>
  typeof error === 'object' && error !== null && Array.isArray((error as { violations?: unknown }).violations)
    ? (error as { violations: unknown[] }).violations.length > 0
    : false

function PerPage({ value, onChange }: { value: number; onChange: (next: number) => void }) {
  const p = useMessages().admin.payments
  const id = useId()
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {p.paging.perPage}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e: ChangeEvent<HTMLSelectElement>) => onChange(Number(e.target.value))}
      >
        {PER_PAGE_OPTIONS.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  )
}

function PaymentsTable({
  items,
  open,
  onAction,
}: {
  items: readonly BackOfficePayment[]
  open: RowAction | null
  onAction: (action: RowAction) => void
}) {
  const p = useMessages().admin.payments
  const t = p.table
  const sources = p.sources as Record<string, string>
  return (
    // A table wider than a phone scrolls inside its box; focusable and named, so a keyboard can scroll it and a
    // screen reader says what it is (WCAG 2.1.1, axe scrollable-region-focusable).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keys
    <section className="table-scroll" aria-label={t.region} tabIndex={0}>
      <table>
        <caption className="visually-hidden">{t.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.received}</th>
            <th scope="col">{t.reference}</th>
            <th scope="col">{t.channel}</th>
            <th scope="col">{t.amount}</th>
            <th scope="col">{t.status}</th>
            <th scope="col">{t.loan}</th>
            <th scope="col">{t.source}</th>
            <th scope="col">{t.by}</th>
            <th scope="col">{t.actions}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((payment) => {
            const isOpen = (kind: RowAction['kind']) => open?.kind === kind && open.payment.id === payment.id
            return (
              <tr key={payment.id} data-payment={payment.id} data-status={payment.status}>
                <td>{manilaTimestamp(payment.receivedAt)}</td>
                <th scope="row">{payment.reference}</th>
                <td>{channelName(payment.channel)}</td>
                <td>{formatPhp(payment.amount)}</td>
                <td>{p.statuses[payment.status] ?? payment.status}</td>
                <td>
                  {payment.loanId
                    ? fmt(t.loanNumber, { number: payment.loanNumber ?? '', id: payment.loanId })
                    : t.none}
                </td>
                <td>{sources[payment.source] ?? payment.source}</td>
                <td>
                  <ByWhom payment={payment} />
                </td>
                <td>
                  {payment.status === 'unmatched' ? (
                    <button
                      type="button"
                      className="button button--secondary button--sm"
                      aria-expanded={isOpen('assign')}
                      onClick={() => onAction({ kind: 'assign', payment })}
                    >
                      {fmt(t.assign, { id: payment.id })}
                    </button>
                  ) : payment.status === 'posted' ? (
                    <button
                      type="button"
                      className="button button--ghost button--sm"
                      aria-expanded={isOpen('reverse')}
                      onClick={() => onAction({ kind: 'reverse', payment })}
                    >
                      {fmt(t.reverse, { id: payment.id })}
                    </button>
                  ) : (
                    t.none
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </section>
  )
}

function ByWhom({ payment }: { payment: BackOfficePayment }) {
  const t = useMessages().admin.payments.table
  if (payment.status === 'unmatched') return <>{t.none}</>
  const posted = payment.postedBy ? fmt(t.postedBy, { id: payment.postedBy }) : t.postedAuto
  if (payment.status !== 'reversed') return <>{posted}</>
  return (
    <>
      {posted}
      <br />
      {fmt(t.reversedBy, {
        id: payment.reversedBy ?? '?',
        at: payment.reversedAt ? manilaTimestamp(payment.reversedAt) : '',
        reason: payment.reversalReason ?? '',
      })}
    </>
  )
}

/** The panel of a row's action, below the table: it takes the focus when it opens, so the keyboard is there. */
function ActionPanel({ titleId, title, children }: { titleId: string; title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <section className="card admin-action" aria-labelledby={titleId}>
      <h3 id={titleId} tabIndex={-1} ref={heading}>
        {title}
      </h3>
      {children}
    </section>
  )
}

/** What a row's action panel is given: its payment, and what to do when it is done or cancelled. */
type PanelProps = { payment: BackOfficePayment; onDone: (message: string) => void; onCancel: () => void }

function AssignPanel({ payment, onDone, onCancel }: PanelProps) {
  const p = useMessages().admin.payments
  const a = p.assign
  const { api, refreshPayments } = usePaymentsApi()
  const { handleSubmit, setError, bind, formError, setFormError } = useSchemaForm<AssignValues>(
    assignSchema(p.errors),
    { loanId: '', reason: '' },
  )
  const assign = useMutation({
    mutationFn: (values: AssignValues) =>
      assignPaymentToLoan(api, payment.id, { loanId: loanIdOf(values.loanId)!, reason: values.reason }),
    onSuccess: async (answer) => {
      await refreshPayments()
      onDone(fmt(a.done, { id: answer.id, loan: answer.loanNumber ?? String(answer.loanId ?? '') }))
    },
    onError: (error) => setFormError(placeServerErrors(error, ['loanId', 'reason'], setError, a.failed)),
  })
  const submit = handleSubmit((values) => {
    setFormError(null)
    assign.mutate(values)
  })
  const titleId = `assign-${payment.id}-title`
  return (
    <ActionPanel titleId={titleId} title={fmt(a.title, { id: payment.id })}>
      <p>
        {fmt(a.lead, {
          amount: formatPhp(payment.amount),
          at: manilaTimestamp(payment.receivedAt),
          reference: payment.reference,
        })}
      </p>
      <form aria-labelledby={titleId} noValidate onSubmit={submit}>
        <LoanReasonFields t={a} bind={bind} />
        <SubmitRow error={formError} pending={assign.isPending} sending={a.sending} submit={a.submit}>
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {p.cancel}
          </button>
        </SubmitRow>
      </form>
    </ActionPanel>
  )
}

function ReversePanel({ payment, onDone, onCancel }: PanelProps) {
  const p = useMessages().admin.payments
  const r = p.reverse
  const { api, refreshPayments } = usePaymentsApi()
  const queryClient = useQueryClient()
  const { handleSubmit, setError, bind, formError, setFormError } = useSchemaForm<ReverseValues>(
    reverseSchema(p.errors),
    { reason: '' },
  )
  // The reason checked, waiting for "Yes": a reversal cannot be undone.
  const [confirming, setConfirming] = useState<ReverseValues | null>(null)
  const confirmButton = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (confirming) confirmButton.current?.focus()
  }, [confirming])
  const reverse = useMutation({
    mutationFn: (values: ReverseValues) => reverseOnePayment(api, payment.id, values.reason),
    // Maker-checker (issue 19 item 5): a proposal, carried out once another user approves it.
    onSuccess: async (answer) => {
      await Promise.all([refreshPayments(), queryClient.invalidateQueries({ queryKey: approvalsQueryKey })])
      onDone(fmt(r.done, { id: answer.id, payment: payment.id }))
    },
    onError: (error) => {
      setConfirming(null)
      setFormError(placeServerErrors(error, ['reason'], setError, r.failed))
    },
  })
  const check = handleSubmit((values) => {
    setFormError(null)
    setConfirming(values)
  })
  const titleId = `reverse-${payment.id}-title`
  const confirmId = `reverse-${payment.id}-confirm`
  const amount = formatPhp(payment.amount)
  return (
    <ActionPanel titleId={titleId} title={fmt(r.title, { id: payment.id })}>
      <p>{fmt(r.lead, { amount, loan: payment.loanNumber ?? '' })}</p>
      <form aria-labelledby={titleId} noValidate onSubmit={check}>
        <TextField
          label={r.reason}
          hint={r.reasonHint}
          autoComplete="off"
          readOnly={confirming !== null}
          {...bind('reason')}
        />
        <FormError error={formError} />
        {confirming ? null : (
          <p className="button-row">
            <button type="submit" className="button button--primary">
              {r.submit}
            </button>
            <button type="button" className="button button--ghost" onClick={onCancel}>
              {p.cancel}
            </button>
          </p>
        )}
      </form>
      {confirming ? (
        <fieldset className="callout callout--warning" aria-describedby={confirmId}>
          <legend>
            <strong>{fmt(r.confirmTitle, { amount, id: payment.id })}</strong>
          </legend>
          <p className="callout__body" id={confirmId}>
            {r.confirmBody}
          </p>
          {reverse.isPending ? <p role="status">{r.sending}</p> : null}
          <p className="button-row">
            <button
              type="button"
              ref={confirmButton}
              className="button button--primary"
              disabled={reverse.isPending}
              onClick={() => reverse.mutate(confirming)}
            >
              {fmt(r.confirm, { id: payment.id })}
            </button>
            <button
              type="button"
              className="button button--ghost"
              disabled={reverse.isPending}
              onClick={() => setConfirming(null)}
            >
              {r.keep}
            </button>
          </p>
        </fieldset>
      ) : null}
    </ActionPanel>
  )
}
