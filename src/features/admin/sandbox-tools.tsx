/**
 * The sandbox tools on /admin/router (issue 16, items 2 and 5), how QA makes a due date come and a payment reach
 * any channel without a real payer: move the business clock forward for the instance or one client (the server
 * runs every servicing day skipped first), and make the sandbox gateway report a payment at a channel (its signed
 * webhook reaches our endpoint as a real gateway's would). Outside the sandbox the server has no such calls and
 * the forms say so.
 */
import { useMutation } from '@tanstack/react-query'
import type { PaymentChannelCode } from '../../../domain/payments/channels'
import { fmt, useMessages } from '../../i18n/messages'
import { TextField } from '../../ui/forms/fields'
import { makeSandboxPaymentArrive, manilaDay, moveBusinessClock } from './admin-api'
import {
  PaymentFields,
  ResultLine,
  SubmitRow,
  TitledSection,
  usePaymentsApi,
  useSchemaForm,
} from './form-parts'
import {
  type ClockValues,
  centavosOfPesos,
  clockSchema,
  placeServerErrors,
  type SandboxPaymentValues,
  sandboxPaymentSchema,
} from './payment-forms'

export function SandboxTools() {
  const t = useMessages().admin.router.tools
  return (
    <TitledSection id="sandbox-tools-title" title={t.title} lead={t.lead}>
      <MoveClock />
      <PaymentArrives />
    </TitledSection>
  )
}

function MoveClock() {
  const m = useMessages().admin
  const t = m.router.tools.clock
  const { api, refreshPayments } = usePaymentsApi()
  const { handleSubmit, setError, bind, formError, setFormError } = useSchemaForm<ClockValues>(
    clockSchema(m.payments.errors),
    { days: '', clientId: '' },
  )
  const move = useMutation({
    mutationFn: (values: ClockValues) =>
      moveBusinessClock(api, {
        days: Number(values.days),
        ...(values.clientId ? { clientId: Number(values.clientId) } : {}),
      }),
    // Servicing days may have posted, accrued or refunded: the payments list is stale.
    onSuccess: () => refreshPayments(),
    onError: (error) => setFormError(placeServerErrors(error, ['days', 'clientId'], setError, t.failed)),
  })
  const submit = handleSubmit((values) => {
    setFormError(null)
    move.mutate(values)
  })
  const clock = move.data
  return (
    <TitledSection card id="sandbox-clock-title" title={t.title} lead={t.lead}>
      <form aria-labelledby="sandbox-clock-title" noValidate onSubmit={submit}>
        <TextField
          label={t.days}
          hint={t.daysHint}
          inputMode="numeric"
          autoComplete="off"
          {...bind('days')}
        />
        <TextField
          label={t.clientId}
          hint={t.clientIdHint}
          inputMode="numeric"
          autoComplete="off"
          {...bind('clientId')}
        />
        <SubmitRow error={formError} pending={move.isPending} submit={t.submit} />
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
    </TitledSection>
  )
}

function PaymentArrives() {
  const m = useMessages().admin
  const t = m.router.tools.payment
  const { api, refreshPayments } = usePaymentsApi()
  const { handleSubmit, setError, bind, formError, setFormError } = useSchemaForm<SandboxPaymentValues>(
    sandboxPaymentSchema(m.payments.errors),
    { reference: '', amount: '', channel: '' },
  )
  const send = useMutation({
    mutationFn: (values: SandboxPaymentValues) =>
      makeSandboxPaymentArrive(api, {
        reference: values.reference.trim(),
        amount: centavosOfPesos(values.amount)!,
        channel: values.channel as PaymentChannelCode,
      }),
    onSuccess: () => refreshPayments(),
    onError: (error) =>
      setFormError(placeServerErrors(error, ['reference', 'amount', 'channel'], setError, t.failed)),
  })
  const submit = handleSubmit((values) => {
    setFormError(null)
    send.mutate(values)
  })
  const sent = send.data
  return (
    <TitledSection card id="sandbox-payment-title" title={t.title} lead={t.lead}>
      <form aria-labelledby="sandbox-payment-title" noValidate onSubmit={submit}>
        <PaymentFields t={t} bind={bind} />
        <SubmitRow error={formError} pending={send.isPending} submit={t.submit} />
      </form>
      <ResultLine data-sandbox-payment={sent?.eventId}>
        {send.isPending
          ? t.sending
          : sent
            ? fmt(sent.delivered ? t.delivered : t.notDelivered, {
                status: sent.status ?? '',
                eventId: sent.eventId,
                chargeId: sent.chargeId,
              })
            : null}
      </ResultLine>
    </TitledSection>
  )
}
