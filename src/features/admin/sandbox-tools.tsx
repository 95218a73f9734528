/**
 * The sandbox tools on /admin/router (issue 16, items 2 and 5), how QA makes a due date come and a payment reach
 * any channel without a real payer: move the business clock forward for the instance or one client (the server
 * runs every servicing day skipped first), and make the sandbox gateway report a payment at a channel (its signed
 * webhook reaches our endpoint as a real gateway's would). Outside the sandbox the server has no such calls and
 * the forms say so.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import type { PaymentChannelCode } from '../../../domain/payments/channels'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { type FieldErrorView, FormError, TextField } from '../../ui/forms/fields'
import { SelectField } from '../../ui/forms/select-field'
import { makeSandboxPaymentArrive, manilaDay, moveBusinessClock, paymentQueryKeys } from './admin-api'
import {
  type ClockValues,
  centavosOfPesos,
  channelOptions,
  clockSchema,
  fieldError,
  placeServerErrors,
  type SandboxPaymentValues,
  sandboxPaymentSchema,
} from './payment-forms'

export function SandboxTools() {
  const t = useMessages().admin.router.tools
  return (
    <section className="section" aria-labelledby="sandbox-tools-title">
      <h2 id="sandbox-tools-title" className="section__title">
        {t.title}
      </h2>
      <p>{t.lead}</p>
      <MoveClock />
      <PaymentArrives />
    </section>
  )
}

function MoveClock() {
  const m = useMessages().admin
  const t = m.router.tools.clock
  const api = useApi()
  const queryClient = useQueryClient()
  const { register, handleSubmit, setError, formState } = useForm<ClockValues, unknown, ClockValues>({
    resolver: standardSchemaResolver(clockSchema(m.payments.errors)),
    defaultValues: { days: '', clientId: '' },
  })
  const [formError, setFormError] = useState<FieldErrorView | null>(null)
  const move = useMutation({
    mutationFn: (values: ClockValues) =>
      moveBusinessClock(api, {
        days: Number(values.days),
        ...(values.clientId ? { clientId: Number(values.clientId) } : {}),
      }),
    // Servicing days may have posted, accrued or refunded: the payments list is stale.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentQueryKeys.all }),
    onError: (error) => setFormError(placeServerErrors(error, ['days', 'clientId'], setError, t.failed)),
  })
  const submit = handleSubmit((values) => {
    setFormError(null)
    move.mutate(values)
  })
  const clock = move.data
  return (
    <section className="card" aria-labelledby="sandbox-clock-title">
      <h3 id="sandbox-clock-title">{t.title}</h3>
      <p>{t.lead}</p>
      <form aria-labelledby="sandbox-clock-title" noValidate onSubmit={submit}>
        <TextField
          label={t.days}
          hint={t.daysHint}
          inputMode="numeric"
          autoComplete="off"
          error={fieldError('days', formState.errors.days)}
          {...register('days')}
        />
        <TextField
          label={t.clientId}
          hint={t.clientIdHint}
          inputMode="numeric"
          autoComplete="off"
          error={fieldError('clientId', formState.errors.clientId)}
          {...register('clientId')}
        />
        <FormError error={formError} />
        <p className="button-row">
          <button type="submit" className="button button--primary" disabled={move.isPending}>
            {t.submit}
          </button>
        </p>
      </form>
      <div role="status" aria-live="polite" data-sandbox-clock={clock?.today}>
        {move.isPending ? <p>{t.sending}</p> : null}
        {clock && !move.isPending ? (
          <>
            <p>{fmt(t.instance, { today: manilaDay(clock.today), offset: clock.instanceOffsetDays })}</p>
            {clock.clientToday !== null ? (
              <p>
                {fmt(t.client, {
                  clientId: move.variables?.clientId ?? '',
                  today: manilaDay(clock.clientToday),
                  offset: clock.clientOffsetDays ?? 0,
                })}
              </p>
            ) : null}
            <p>{fmt(t.daysRun, { days: clock.daysRun })}</p>
          </>
        ) : null}
      </div>
    </section>
  )
}

function PaymentArrives() {
  const m = useMessages().admin
  const t = m.router.tools.payment
  const api = useApi()
  const queryClient = useQueryClient()
  const { register, handleSubmit, setError, formState } = useForm<
    SandboxPaymentValues,
    unknown,
    SandboxPaymentValues
  >({
    resolver: standardSchemaResolver(sandboxPaymentSchema(m.payments.errors)),
    defaultValues: { reference: '', amount: '', channel: '' },
  })
  const [formError, setFormError] = useState<FieldErrorView | null>(null)
  const send = useMutation({
    mutationFn: (values: SandboxPaymentValues) =>
      makeSandboxPaymentArrive(api, {
        reference: values.reference.trim(),
        amount: centavosOfPesos(values.amount)!,
        channel: values.channel as PaymentChannelCode,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paymentQueryKeys.all }),
    onError: (error) =>
      setFormError(placeServerErrors(error, ['reference', 'amount', 'channel'], setError, t.failed)),
  })
  const submit = handleSubmit((values) => {
    setFormError(null)
    send.mutate(values)
  })
  const sent = send.data
  const errors = formState.errors
  return (
    <section className="card" aria-labelledby="sandbox-payment-title">
      <h3 id="sandbox-payment-title">{t.title}</h3>
      <p>{t.lead}</p>
      <form aria-labelledby="sandbox-payment-title" noValidate onSubmit={submit}>
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
        <FormError error={formError} />
        <p className="button-row">
          <button type="submit" className="button button--primary" disabled={send.isPending}>
            {t.submit}
          </button>
        </p>
      </form>
      <p role="status" aria-live="polite" data-sandbox-payment={sent?.eventId}>
        {send.isPending
          ? t.sending
          : sent
            ? fmt(sent.delivered ? t.delivered : t.notDelivered, {
                status: sent.status ?? '',
                eventId: sent.eventId,
                chargeId: sent.chargeId,
              })
            : null}
      </p>
    </section>
  )
}
