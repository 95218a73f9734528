/**
 * The actions of /admin/payments beside the list (issue 16, item 8): a payment posted by hand (a deposit slip, a
 * counter's report) with an idempotency key made once per form, so a double submit posts once; a reconciliation
 * with the gateway run now; a loan held, released or cancelled with a reason. Each refreshes the list.
 */
import { useMutation } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { formatPhp } from '../../../domain/format'
import type { PaymentChannelCode } from '../../../domain/payments/channels'
import { fmt, useMessages } from '../../i18n/messages'
import { type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { isServerFailure } from '../../ui/forms/violations'
import {
  actOnLoan,
  type LoanAction,
  type ManualPayment as ManualPaymentBody,
  postPaymentByHand,
  reconcileNow,
} from './admin-api'
import {
  LoanReasonFields,
  PaymentFields,
  ResultLine,
  SubmitRow,
  TitledSection,
  usePaymentsApi,
  useSchemaForm,
} from './form-parts'
import {
  centavosOfPesos,
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
    <TitledSection id="manual-payment-title" title={t.title} lead={t.lead}>
      <ManualPaymentForm
        key={instance}
        onPosted={(message) => {
          setResult(message)
          setInstance((n) => n + 1)
        }}
      />
      <ResultLine>{result}</ResultLine>
    </TitledSection>
  )
}

const manualFields = ['reference', 'amount', 'channel', 'note'] as const

function ManualPaymentForm({ onPosted }: { onPosted: (message: string) => void }) {
  const p = useMessages().admin.payments
  const t = p.manual
  const { api, refreshPayments } = usePaymentsApi()
  // Once per form instance: the same key however often this form is sent (the server posts a key once).
  const [idempotencyKey] = useState(newIdempotencyKey)
  // A second click before React re-renders the disabled button must not send a second request.
  const sending = useRef(false)
  const { handleSubmit, setError, bind, formError, setFormError } = useSchemaForm<ManualPaymentValues>(
    manualPaymentSchema(p.errors),
    { reference: '', amount: '', channel: '', note: '' },
  )
  const post = useMutation({
    mutationFn: (body: ManualPaymentBody) => postPaymentByHand(api, body),
    onSuccess: async (payment) => {
      await refreshPayments()
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
  return (
    <form aria-labelledby="manual-payment-title" noValidate onSubmit={submit}>
      <PaymentFields t={t} bind={bind} />
      <TextField label={t.note} hint={t.noteHint} autoComplete="off" {...bind('note')} />
      <SubmitRow error={formError} pending={post.isPending} sending={t.sending} submit={t.submit} />
    </form>
  )
}

export function Reconcile() {
  const t = useMessages().admin.payments.reconcile
  const { api, refreshPayments } = usePaymentsApi()
  const [result, setResult] = useState<string | null>(null)
  const [error, setError] = useState<FieldErrorView | null>(null)
  const run = useMutation({
    mutationFn: () => reconcileNow(api),
    onSuccess: async (answer) => {
      await refreshPayments()
      setResult(fmt(t.done, { checked: answer.checked, posted: answer.posted }))
    },
    onError: (failure) =>
      setError({
        key: 'reconcile',
        text: isServerFailure(failure) && failure.message ? failure.message : t.failed,
      }),
  })
  return (
    <TitledSection id="reconcile-title" title={t.title} lead={t.lead}>
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
      <ResultLine>{run.isPending ? t.sending : result}</ResultLine>
    </TitledSection>
  )
}

export function LoanActions() {
  const p = useMessages().admin.payments
  const t = p.loan
  const { api, refreshPayments } = usePaymentsApi()
  const { handleSubmit, setError, bind, formError, setFormError } = useSchemaForm<LoanActionValues>(
    loanActionSchema(p.errors),
    { loanId: '', reason: '' },
  )
  const [result, setResult] = useState<string | null>(null)
  const act = useMutation({
    mutationFn: ({ action, values }: { action: LoanAction; values: LoanActionValues }) =>
      actOnLoan(api, action, loanIdOf(values.loanId)!, values.reason),
    onSuccess: async (answer) => {
      await refreshPayments()
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
    <TitledSection id="loan-actions-title" title={t.title} lead={t.lead}>
      <form aria-labelledby="loan-actions-title" noValidate onSubmit={(e) => e.preventDefault()}>
        <LoanReasonFields t={t} bind={bind} />
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
      <ResultLine>{act.isPending ? t.sending : result}</ResultLine>
    </TitledSection>
  )
}
