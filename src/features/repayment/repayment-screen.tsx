/**
 * /profile/repayment (issue 16 item 7): the logged-in client's way to pay. The loan's number, payment reference
 * and today's amount due; a form (repayment-form.ts) choosing Pay in full (the payoff, which holds until 11:59 PM
 * Manila), another amount or, on a payment schedule, what to pay now (purpose instalment), and a channel; sent as a payment intention (POST /private/client/payment-intention),
 * whose answer is shown: the channel's steps with the reference, amount and virtual account filled in, and for an
 * e-wallet the link to the gateway's checkout page.
 *
 * While the page is open the payment watch (src/app/payment-watch.tsx) asks every few seconds: a payment that
 * posts shows as a toast and the figures change by themselves. A repaid loan leaves a thank-you and a link on;
 * the journey, not this page, decides where the client goes next.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { Link } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import { type Resolver, useForm, useWatch } from 'react-hook-form'
import type { ActiveLoan } from '../../../domain/contract/lending-answers'
import { formatPhp } from '../../../domain/format'
import { PaymentWatch } from '../../app/payment-watch'
import {
  type IntentionRequest,
  useActiveLoan,
  useCreateIntention,
  usePaymentSchedule,
} from '../../app/servicing'
import { fmt, useMessages } from '../../i18n/messages'
import { type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { applyServerErrors } from '../../ui/forms/violations'
import { ChannelChoices } from '../../ui/payments/channel-choices'
import { PaymentInstructions } from '../../ui/payments/payment-instructions'
import {
  type AmountChoice,
  type RepaymentFormValues,
  repaymentFields,
  repaymentSchema,
} from './repayment-form'

type RepaymentTexts = ReturnType<typeof useMessages>['repay']['repayment']

/**
 * `customAmount`: start on another amount (`?amount=custom`); `instalment`: start on what to pay now
 * (`?purpose=instalment`, which a scheduled loan does anyway); `pollMs`: the payment watch's interval (tests).
 */
export function RepaymentScreen({
  customAmount = false,
  instalment = false,
  pollMs,
}: {
  customAmount?: boolean
  instalment?: boolean
  pollMs?: number
}) {
  const m = useMessages()
  const r = m.repay.repayment
  const query = useActiveLoan()
  // Whether this page saw a loan: an answer without one then means it was just repaid.
  const [hadLoan, setHadLoan] = useState(false)
  const loan = query.data
  useEffect(() => {
    if (loan) setHadLoan(true)
  }, [loan])
  return (
    <section className="page page--narrow repayment-screen" aria-labelledby="repayment-title">
      <div className="page-header">
        <h1 id="repayment-title" className="page-header__title">
          {m.titles.profile_repayment}
        </h1>
        <p className="lead">{r.lead}</p>
      </div>
      <PaymentWatch pollInterval={pollMs} />
      {query.isPending ? (
        <p role="status">{m.application.loadingData}</p>
      ) : query.isError ? (
        <div className="callout callout--warning" role="alert">
          <p className="callout__body">{m.application.loadFailed}</p>
          <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
            {m.application.retry}
          </button>
        </div>
      ) : loan ? (
        <>
          <LoanSummary loan={loan} texts={r} />
          <Repayment loan={loan} customAmount={customAmount} instalment={instalment} />
        </>
      ) : (
        <>
          <div className="callout callout--success" role="status">
            <p className="callout__body">{hadLoan ? r.paid : r.noLoan}</p>
          </div>
          <p className="button-row">
            <Link to="/profile/my-loan" className="button button--primary">
              {r.continue}
            </Link>
          </p>
        </>
      )}
    </section>
  )
}

function LoanSummary({ loan, texts: r }: { loan: ActiveLoan; texts: RepaymentTexts }) {
  const rows = [
    ['loan-number', r.loanNumber, loan.loanNumber],
    ['payment-reference', r.reference, loan.paymentReference],
    ['amount-due', r.amountDue, formatPhp(loan.amountDue.amount)],
  ] as const
  return (
    <dl className="details-list card" aria-label={r.summaryLabel}>
      {rows.map(([name, label, value]) =>
        value ? (
          <div key={name} className="details-list__row" data-figure={name}>
            <dt>{label}</dt>
            <dd className={name === 'amount-due' ? undefined : 'mono'}>{value}</dd>
          </div>
        ) : null,
      )}
    </dl>
  )
}

/** The form, then the intention it made; "Choose another amount or channel" comes back to the form. */
function Repayment({
  loan,
  customAmount,
  instalment,
}: {
  loan: ActiveLoan
  customAmount: boolean
  instalment: boolean
}) {
  const m = useMessages()
  const create = useCreateIntention()
  const scheduled = loan.plan === 'scheduled'
  const schedule = usePaymentSchedule(scheduled)
  if (create.data) return <PaymentInstructions intention={create.data} onAgain={() => create.reset()} />
  // The form's first choice depends on the schedule: wait for it (a failed answer leaves the other two choices).
  if (scheduled && schedule.isPending) return <p role="status">{m.application.loadingData}</p>
  const toPayNow = schedule.data && schedule.data.toPayNow.amount > 0 ? schedule.data.toPayNow.amount : null
  const start =
    customAmount && !instalment ? 'custom' : toPayNow !== null ? 'now' : customAmount ? 'custom' : 'full'
  return (
    <RepaymentForm
      payoff={loan.amountDue.amount}
      toPayNow={toPayNow}
      start={start}
      pending={create.isPending}
      submit={(body, failed) => create.mutate(body, { onError: failed })}
    />
  )
}

function RepaymentForm({
  payoff,
  toPayNow,
  start,
  pending,
  submit,
}: {
  payoff: number
  /** What to pay now of the schedule in force (centavos), or null when the loan is on no schedule. */
  toPayNow: number | null
  start: AmountChoice
  pending: boolean
  submit: (body: IntentionRequest, failed: (error: unknown) => void) => void
}) {
  const m = useMessages().repay.repayment
  const resolver = useMemo(
    () =>
      standardSchemaResolver(repaymentSchema(payoff)) as Resolver<
        RepaymentFormValues,
        unknown,
        IntentionRequest
      >,
    [payoff],
  )
  const {
    register,
    handleSubmit,
    control,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<RepaymentFormValues, unknown, IntentionRequest>({
    resolver,
    defaultValues: { what: start, amount: '', channel: '' },
  })
  const what = useWatch({ control, name: 'what' })
  const [formError, setFormError] = useState<FieldErrorView | null>(null)
  const max = formatPhp(payoff)
  const text = (raw: string | undefined): FieldErrorView | null => {
    if (!raw) return null
    const known = (m.errors as Record<string, string>)[raw]
    return { key: raw, text: known ? fmt(known, { max }) : raw }
  }
  // "Pay another amount" on My loan: the amount field is where the client starts.
  useEffect(() => {
    if (start === 'custom') setFocus('amount')
  }, [start, setFocus])
  const onSubmit = handleSubmit((body) => {
    setFormError(null)
    submit(body, (error) =>
      setFormError(text(applyServerErrors(error, repaymentFields, setError) ?? undefined)),
    )
  })
  const channelError = text(errors.channel?.message)
  return (
    <form className="card stack repayment-form" aria-label={m.formLabel} noValidate onSubmit={onSubmit}>
      <fieldset className="field field--choices">
        <legend className="field__label">{m.howMuch}</legend>
        <div className="choices choices--stacked">
          {toPayNow !== null ? (
            <label className="choice">
              <input type="radio" value="now" {...register('what')} />
              <span>{fmt(m.now, { amount: formatPhp(toPayNow) })}</span>
            </label>
          ) : null}
          <label className="choice">
            <input type="radio" value="full" {...register('what')} />
            <span>{fmt(m.full, { amount: max })}</span>
          </label>
          <label className="choice">
            <input type="radio" value="custom" {...register('what')} />
            <span>{m.custom}</span>
          </label>
        </div>
        {what === 'full' ? <p className="field__hint">{m.fullHint}</p> : null}
        {what === 'now' ? <p className="field__hint">{m.nowHint}</p> : null}
      </fieldset>
      {what === 'custom' ? (
        <TextField
          label={m.amount}
          hint={fmt(m.amountHint, { max })}
          inputMode="decimal"
          autoComplete="off"
          error={text(errors.amount?.message)}
          {...register('amount')}
        />
      ) : null}
      <ChannelChoices error={channelError} {...register('channel')} />
      <FormError error={formError} />
      <p className="button-row">
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? m.submitting : m.submit}
        </button>
      </p>
    </form>
  )
}
