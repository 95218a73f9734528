/**
 * The payment channels as one labelled group of radios, grouped by kind (bank transfer, e-wallets, payment
 * centres): how a client says how they will pay, on every page that makes a payment intention (the repayment
 * page, the extension fee). Spread react-hook-form's `register('channel')` onto it; it goes on every radio.
 */
import { type ComponentPropsWithoutRef, forwardRef, useId } from 'react'
import { type PaymentChannelKind, paymentChannels } from '../../../domain/payments/channels'
import { useMessages } from '../../i18n/messages'
import { FieldError, type FieldErrorView } from '../forms/fields'

const kinds: PaymentChannelKind[] = ['bank', 'ewallet', 'payment-center']

type RadioProps = Omit<ComponentPropsWithoutRef<'input'>, 'id' | 'type' | 'value'>

export interface ChannelChoicesProps extends RadioProps {
  /** The group's name; "How do you want to pay?" unless given. */
  legend?: string
  error?: FieldErrorView | null
}

export const ChannelChoices = forwardRef<HTMLInputElement, ChannelChoicesProps>(function ChannelChoices(
  { legend, error, className, ...radio },
  ref,
) {
  const m = useMessages().repay.repayment
  const errorId = `${useId()}-error`
  return (
    <fieldset
      className={`field field--choices channel-choices${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="field__label">{legend ?? m.channel}</legend>
      {kinds.map((kind) => (
        <fieldset key={kind} className="field field--choices">
          <legend className="field__hint">{m.channelKinds[kind]}</legend>
          <div className="choices">
            {paymentChannels
              .filter((channel) => channel.kind === kind)
              .map((channel) => (
                <label key={channel.code} className="choice">
                  <input
                    ref={ref}
                    type="radio"
                    value={channel.code}
                    aria-invalid={error ? true : undefined}
                    {...radio}
                  />
                  <span>{channel.name}</span>
                </label>
              ))}
          </div>
        </fieldset>
      ))}
      <FieldError id={errorId} error={error} />
    </fieldset>
  )
})
