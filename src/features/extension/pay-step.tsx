/**
 * Paying the extension fee: signed, the fee is payable until its invoice's last day. The client chooses a
 * channel (the shared channel group of src/ui/payments); the flow asks for a payment intention with purpose
 * extension_fee (the server fills in the amount: the signed invoice's fee) and its answer shows how to pay: the
 * steps with the payment reference, or the e-wallet's checkout. The new due date takes effect when the fee posts.
 */
import { standardSchemaResolver } from '@hookform/resolvers/standard-schema'
import { type Resolver, useForm } from 'react-hook-form'
import * as v from 'valibot'
import { formatDate, formatPhp } from '../../../domain/format'
import { paymentChannelCodes } from '../../../domain/payments/channels'
import { isBusy, payableUntilOf } from '../../../machines/extension-flow.machine'
import { fmt, useMessages } from '../../i18n/messages'
import { FormError } from '../../ui/forms/fields'
import { ChannelChoices } from '../../ui/payments/channel-choices'
import { PaymentInstructions } from '../../ui/payments/payment-instructions'
import { STEP_TITLE_ID, type StepProps, StepTitle } from './choose-and-review'
import { problemText } from './texts'

const paySchema = v.object({ channel: v.picklist(paymentChannelCodes, 'error-channel-required') })
type PayValues = v.InferOutput<typeof paySchema>
/** The form holds '' until a channel is chosen; the schema refuses that with error-channel-required. */
type PayForm = { channel: string }
const payResolver = standardSchemaResolver(paySchema) as unknown as Resolver<PayForm, unknown, PayValues>

export function PayStep({ snapshot, send }: StepProps) {
  const t = useMessages().application.extension
  const { rollover, dueDate, intention, channel, problem } = snapshot.context
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<PayForm, unknown, PayValues>({
    resolver: payResolver,
    defaultValues: { channel: channel ?? '' },
  })
  if (!rollover) return null
  const fee = formatPhp(rollover.fee.amount)
  const payableUntil = payableUntilOf(rollover)
  const takesEffect = (
    <p data-takes-effect>
      {fmt(t.pay.takesEffect, {
        current: formatDate(dueDate),
        date: formatDate(rollover.newDueDate),
      })}
    </p>
  )
  if (intention && snapshot.matches({ flow: 'awaitingPayment' }))
    return (
      <PaymentInstructions
        intention={intention}
        onAgain={() => send({ type: 'CHANGE_CHANNEL' })}
        againLabel={t.pay.again}
      >
        {takesEffect}
      </PaymentInstructions>
    )
  const busy = isBusy(snapshot)
  const channelKey = errors.channel?.message
  const channelError = channelKey
    ? {
        key: channelKey,
        text: (t.errors as Record<string, string | undefined>)[channelKey] ?? t.errors.error,
      }
    : null
  return (
    <form
      className="card stack"
      aria-labelledby={STEP_TITLE_ID}
      noValidate
      onSubmit={handleSubmit((values) => send({ type: 'PAY', channel: values.channel }))}
    >
      <StepTitle>{t.pay.title}</StepTitle>
      <div className="callout callout--success">
        <p className="callout__body">
          {payableUntil
            ? fmt(t.pay.signed, { fee, date: formatDate(payableUntil) })
            : fmt(t.pay.signedNoDate, { fee })}
        </p>
      </div>
      {takesEffect}
      <p className="muted">{t.pay.alone}</p>
      <ChannelChoices error={channelError} disabled={busy} {...register('channel')} />
      <FormError error={problemText(problem, t)} />
      <p className="button-row">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? t.pay.submitting : t.pay.submit}
        </button>
      </p>
      {busy ? <p role="status">{t.pay.submitting}</p> : null}
    </form>
  )
}
