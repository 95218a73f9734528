/**
 * The actions of /admin/payments beside the list (issue 16, item 8): a payment posted by hand (a deposit slip, a
 * counter's report) with an idempotency key made once per form, so a double submit posts once; a reconciliation
 * with the gateway run now; a loan held, released or cancelled with a reason. Each refreshes the list.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { formatPhp } from '../../../domain/money'
import type { PaymentChannelCode } from '../../../domain/payments/channels'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import { isServerFailure } from '../../ui/forms/violations'
import {
  actOnLoan,
  type LoanAction,
  type ManualPayment as ManualPaymentBody,
  paymentQueryKeys,
  postPaymentByHand,
  reconcileNow,
} from './admin-api'
import {
  centavosOfPesos,
  channelOptions,
  fieldError,
  type LoanActionValues,
  loanActionSchema,
  loanIdOf,
  type ManualPaymentValues,
  manualPaymentSchema,
  newIdempotencyKey,
  placeServerErrors,
} from './payment-forms'

export function ManualPayment() {
  const t = useMessages().admin.payments.manual
  // Each posted payment starts a new form, with a new idempotency key.
  const [instance, setInstance] = useState(0)
  const [result, setResult] = useState<string | null>(null)
  return (
    <section className="section" aria-labelledby="manual-payment-title">
      <h2 id="manual-payment-title" className="section__title">
        {t.title}
      </h2>
      <p>{t.lead}</p>
      <ManualPaymentForm
        key={instance}
        onPosted={(message) => {
          setResult(message)
          setInstance((n) => n + 1)
        }}
      />
      <p role="status" aria-live="polite">
        {result}
      </p>
    </section>
  )
}

const manualFields = ['reference', 'amount', 'channel', 'note'] as const

function ManualPaymentForm({ onPosted }: { onPosted: (message: string) => void }) {
  const p = useMessages().admin.payments
  const t = p.manual
  const api = useApi()
  const queryClient = useQueryClient()
  // Once per form instance: the same key however often this form is sent (the server posts a key once).
  const [idempotencyKey] = useState(newIdempotencyKey)
  // A second click before React re-renders the disabled button must not send a second request.
  const sending = useRef(false)
  const { register, handleSubmit, setError, formState } = useForm<
    ManualPaymentValues,
    unknown,
    ManualPaymentValues
  >({
    resolver: standardSchemaResolver(manualPaymentSchema(p.errors)),
    defaultValues: { reference: '', amount: '', channel: '', note: '' },
  })
  const [formError, setFormError] = useState<FieldErrorView | null>(null)
  const post = useMutation({
    mutationFn: (body: ManualPaymentBody) => postPaymentByHand(api, body),
    onSuccess: async (payment) => {
      await queryClient.invalidateQueries({ queryKey: paymentQueryKeys.all })
      const values = { id: payment.id, amount: formatPhp(payment.amount), loan: payment.loanNumber ?? '' }
      onPosted(fmt(payment.status === 'unmatched' ? t.unmatched : t.posted, values))
    },
    onError: (error) => setFormError(placeServerErrors(error, manualFields, setError, t.failed)),
    onSettled: () => {
      sending.current = false
    },
  })
  const submit = handleSubmit((values) => {
    if (sending.current) return
    sending.current = true
    setFormError(null)
    const note = values.note.trim()
    post.mutate({
      reference: values.reference.trim(),
      amount: centavosOfPesos(values.amount)!,
      channel: values.channel as PaymentChannelCode,
      idempotencyKey,
      ...(note ? { note } : {}),
    })
  })
  const errors = formState.errors
  return (
    <form aria-labelledby="manual-payment-title" noValidate onSubmit={submit}>
      <TextField
        label={t.reference}
        hint={t.referenceHint}
        inputMode="numeric"
        autoComplete="off"
        error={fieldError('reference', errors.reference)}
        {...register('reference')}
      />
      <TextField
        label={t.amount}
        hint={t.amountHint}
        inputMode="decimal"
        autoComplete="off"
        error={fieldError('amount', errors.amount)}
        {...register('amount')}
      />
      <SelectField
        label={t.channel}
        placeholder={t.chooseChannel}
        options={channelOptions}
        error={fieldError('channel', errors.channel)}
        {...register('channel')}
      />
      <TextField
        label={t.note}
        hint={t.noteHint}
        autoComplete="off"
        error={fieldError('note', errors.note)}
        {...register('note')}
      />
      <FormError error={formError} />
      {post.isPending ? <p role="status">{t.sending}</p> : null}
      <p className="button-row">
        <button type="submit" className="button button--primary" disabled={post.isPending}>
          {t.submit}
        </button>
      </p>
    </form>
  )
}

export function Reconcile() {
  const t = useMessages().admin.payments.reconcile
  const api = useApi()
  const queryClient = useQueryClient()
  const [result, setResult] = useState<string | null>(null)
  const [error, setError] = useState<FieldErrorView | null>(null)
  const run = useMutation({
    mutationFn: () => reconcileNow(api),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: paymentQueryKeys.all })
      setResult(fmt(t.done, { checked: answer.checked, posted: answer.posted }))
    },
    onError: (failure) =>
      setError({
        key: 'reconcile',
        text: isServerFailure(failure) && failure.message ? failure.message : t.failed,
      }),
  })
  return (
    <section className="section" aria-labelledby="reconcile-title">
      <h2 id="reconcile-title" className="section__title">
        {t.title}
      </h2>
      <p>{t.lead}</p>
      <FormError error={error} />
      <p className="button-row">
        <button
          type="button"
          className="button button--secondary"
          disabled={run.isPending}
          onClick={() => {
            setError(null)
            setResult(null)
            run.mutate()
          }}
        >
          {t.submit}
        </button>
      </p>
      <p role="status" aria-live="polite">
        {run.isPending ? t.sending : result}
      </p>
    </section>
  )
}

export function LoanActions() {
  const p = useMessages().admin.payments
  const t = p.loan
  const api = useApi()
  const queryClient = useQueryClient()
  const { register, handleSubmit, setError, formState } = useForm<
    LoanActionValues,
    unknown,
    LoanActionValues
  >({
    resolver: standardSchemaResolver(loanActionSchema(p.errors)),
    defaultValues: { loanId: '', reason: '' },
  })
  const [formError, setFormError] = useState<FieldErrorView | null>(null)
  const [result, setResult] = useState<string | null>(null)
  const act = useMutation({
    mutationFn: ({ action, values }: { action: LoanAction; values: LoanActionValues }) =>
      actOnLoan(api, action, loanIdOf(values.loanId)!, values.reason),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: paymentQueryKeys.all })
      const states = p.loanStates as Record<string, string>
      setResult(
        fmt(t.done, {
          id: answer.loanId,
          state: states[answer.state] ?? answer.state,
          status: answer.status,
        }),
      )
    },
    onError: (error) =>
      setFormError(
        placeServerErrors(error, ['loanId', 'reason'], setError, t.failed, { 'params.id': 'loanId' }),
      ),
  })
  const run = (action: LoanAction) =>
    handleSubmit((values) => {
      setFormError(null)
      setResult(null)
      act.mutate({ action, values })
    })()
  const buttons: [LoanAction, string, string][] = [
    ['hold', t.hold, 'button--secondary'],
    ['release', t.release, 'button--secondary'],
    ['cancel', t.cancel, 'button--ghost'],
  ]
  return (
    <section className="section" aria-labelledby="loan-actions-title">
      <h2 id="loan-actions-title" className="section__title">
        {t.title}
      </h2>
      <p>{t.lead}</p>
      <form aria-labelledby="loan-actions-title" noValidate onSubmit={(e) => e.preventDefault()}>
        <TextField
          label={t.loanId}
          hint={t.loanIdHint}
          autoComplete="off"
          error={fieldError('loanId', formState.errors.loanId)}
          {...register('loanId')}
        />
        <TextField
          label={t.reason}
          hint={t.reasonHint}
          autoComplete="off"
          error={fieldError('reason', formState.errors.reason)}
          {...register('reason')}
        />
        <FormError error={formError} />
        <p className="button-row">
          {buttons.map(([action, label, variant]) => (
            <button
              key={action}
              type="button"
              className={`button ${variant}`}
              disabled={act.isPending}
              onClick={() => run(action)}
            >
              {label}
            </button>
          ))}
        </p>
      </form>
      <p role="status" aria-live="polite">
        {act.isPending ? t.sending : result}
      </p>
    </section>
  )
}
