/**
 * The repayment form's rules (issue 16 item 7, /profile/repayment), one valibot schema for the form and the
 * payment intention's body: Pay in full (today's payoff, purpose full_repayment) or another amount in pesos,
 * sent as centavos (purpose custom_amount), or, on a payment schedule, what to pay now (purpose instalment, its
 * amount filled by the server), at least PHP 1 and at most what the client owes today (a larger
 * payment is not refused by the channels, but the form does not invite one: to pay everything, Pay in full);
 * and a channel of the reference data. Errors are message keys (`repay.repayment.errors`).
 */
import * as v from 'valibot'
import { pesosToCentavos } from '../../../domain/money'
import { type PaymentChannelCode, paymentChannelCodes } from '../../../domain/payments/channels'
import type { IntentionRequest } from '../../app/servicing'

/** PHP 1, in centavos: the smallest payment the form takes. */
export const MIN_PAYMENT_CENTAVOS = 100

/** `now`: what to pay now of a payment schedule (purpose instalment; the server fills the amount). */
export type AmountChoice = 'full' | 'custom' | 'now'

export interface RepaymentFormValues {
  what: AmountChoice
  /** Pesos as typed: `1500`, `1 500.50`, `1,500.5`. */
  amount: string
  channel: PaymentChannelCode | ''
}

export const repaymentFields = ['what', 'amount', 'channel'] as const

/** Pesos as typed to centavos; null when it is not an amount with at most 2 decimals. */
export function centavosOf(typed: string): number | null {
  const text = typed.trim()
  // Digits, optionally grouped by thousands with a space or a comma, and at most 2 decimals.
  if (!/^₱?\s*\d{1,3}([ ,]?\d{3})*(\.\d{1,2})?$/.test(text)) return null
  try {
    return pesosToCentavos(text)
  } catch {
    return null
  }
}

type Checked = { what: AmountChoice; amount: string }
const custom = (input: Checked) => input.what === 'custom'

/** The schema for a loan whose payoff today is `payoff` centavos. */
export function repaymentSchema(payoff: number) {
  return v.pipe(
    v.object({
      what: v.picklist(['full', 'custom', 'now'], 'error-required'),
      amount: v.string(),
      channel: v.picklist(paymentChannelCodes, 'error-channel-required'),
    }),
    v.forward(
      v.partialCheck(
        [['what'], ['amount']],
        (input: Checked) => !custom(input) || input.amount.trim() !== '',
        'error-amount-required',
      ),
      ['amount'],
    ),
    v.forward(
      v.partialCheck(
        [['what'], ['amount']],
        (input: Checked) => !custom(input) || input.amount.trim() === '' || centavosOf(input.amount) !== null,
        'error-amount-format',
      ),
      ['amount'],
    ),
    v.forward(
      v.partialCheck(
        [['what'], ['amount']],
        (input: Checked) => {
          const centavos = custom(input) ? centavosOf(input.amount) : null
          return centavos === null || centavos >= MIN_PAYMENT_CENTAVOS
        },
        'error-amount-min',
      ),
      ['amount'],
    ),
    v.forward(
      v.partialCheck(
        [['what'], ['amount']],
        (input: Checked) => {
          const centavos = custom(input) ? centavosOf(input.amount) : null
          return centavos === null || centavos <= payoff
        },
        'error-amount-max',
      ),
      ['amount'],
    ),
    v.transform(
      (input): IntentionRequest =>
        input.what === 'full'
          ? { purpose: 'full_repayment', channel: input.channel }
          : input.what === 'now'
            ? { purpose: 'instalment', channel: input.channel }
            : {
                purpose: 'custom_amount',
                amount: centavosOf(input.amount) as number,
                channel: input.channel,
              },
    ),
  )
}
