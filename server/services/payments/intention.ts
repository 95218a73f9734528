/**
 * POST /private/client/payment-intention (issue 16, item 4): what the client is about to pay, for what and how.
 * A full repayment is today's payoff, quoted until 23:59 Manila of the business day (interest accrues by the
 * Manila day, so the figure cannot change before then); another amount is at most that payoff. E-wallets get
 * the gateway's checkout; every channel gets its steps with the client's reference, amount and virtual account.
 */
import type { PaymentIntention, PaymentPurpose } from '../../../domain/contract/payments'
import { DomainError, invalid } from '../../../domain/errors'
import { formatPhp } from '../../../domain/format'
import { outstandingOf } from '../../../domain/loan/ledger'
import { channelOf, fillStep, type PaymentChannelCode } from '../../../domain/payments/channels'
import { paymentReferenceOf, virtualAccountOf } from '../../../domain/payments/reference'
import { addDays, manilaDate, manilaDayStart } from '../../../domain/pricing/manila-date'
import { paymentIntention } from '../../db/schema-payments'
import type { AppDeps } from '../../deps'
import { payableExtension } from '../servicing/extensions'
import { scheduleToPayNow } from '../servicing/schedules'
import { readOffsets, shifted } from './clock'
import { openLoan, todaysBalances } from './views'

/** The real instant a business day ends (23:59:59.999 Manila), for a clock `offsetDays` ahead of real time. */
export function endOfBusinessDay(day: string, offsetDays: number): Date {
  return new Date(shifted(manilaDayStart(addDays(day, 1)), -offsetDays).getTime() - 1)
}

export interface IntentionBody {
  purpose: PaymentPurpose
  amount?: number
  channel?: PaymentChannelCode
}

export async function createIntention(
  deps: Pick<AppDeps, 'database' | 'paymentGateway' | 'now'>,
  clientId: number,
  body: IntentionBody,
): Promise<PaymentIntention> {
  const db = deps.database.db
  const now = deps.now()
  const row = await openLoan(db, clientId)
  if (!row) throw new DomainError('conflict', 'noActiveLoan', 'There is no loan to pay.')
  const offsets = await readOffsets(db, clientId)
  const offsetDays = offsets.instance + offsets.client
  const today = manilaDate(shifted(now, offsetDays))
  const payoff = outstandingOf(await todaysBalances(db, row, today))
  let amount = payoff
  let extensionId: number | null = null
  if (body.purpose === 'extension_fee') {
    // The fee of the signed, chosen extension, paid by itself (issue 17).
    const extension = await payableExtension(db, row.id, today)
    if (!extension?.fee)
      throw new DomainError(
        'conflict',
        'purposeNotAvailable',
        'There is no signed extension waiting for its fee on this loan.',
      )
    amount = extension.fee
    extensionId = extension.id
  } else if (body.purpose === 'instalment') {
    const due = row.plan === 'scheduled' ? await scheduleToPayNow(db, row.id, today) : null
    if (due === null)
      throw new DomainError('conflict', 'purposeNotAvailable', 'This loan has no payment schedule.')
    amount = Math.min(due, payoff)
  } else if (body.purpose === 'custom_amount') {
    if (body.amount === undefined)
      throw invalid([{ propertyPath: 'amount', message: 'Enter the amount to pay.' }])
    if (body.amount > payoff)
      throw invalid([
        { propertyPath: 'amount', message: `At most ${formatPhp(payoff)}, what you owe today.` },
      ])
    amount = body.amount
  }
  if (amount <= 0) throw new DomainError('conflict', 'nothingOwed', 'Nothing is owed on this loan.')
  const reference = paymentReferenceOf(clientId)
  const virtualAccount = virtualAccountOf(reference)
  const channel = body.channel ? channelOf(body.channel) : null
  // After an e-wallet's checkout the client comes back to where they were paying from.
  const returnPath =
    body.purpose === 'extension_fee' && extensionId !== null
      ? `/profile/rollover/${extensionId}`
      : '/profile/my-loan'
  const checkout =
    channel?.checkout === true
      ? await deps.paymentGateway.createCheckout(
          db,
          { reference, amount, channel: channel.code, returnPath },
          now,
        )
      : null
  // A quote holds to the end of the business day; an extension fee until its invoice's last day.
  const lastDay =
    body.purpose === 'extension_fee'
      ? ((await payableExtension(db, row.id, today))?.payableUntil ?? today)
      : today
  const expiresAt = endOfBusinessDay(lastDay, offsetDays)
  const [saved] = await db
    .insert(paymentIntention)
    .values({
      clientId,
      loanId: row.id,
      purpose: body.purpose,
      channel: channel?.code ?? null,
      amount,
      reference,
      status: 'open',
      checkoutId: checkout?.id ?? null,
      checkoutUrl: checkout?.url ?? null,
      expiresAt,
      createdAt: now,
    })
    .returning()
  const values = { reference, amount: formatPhp(amount), virtualAccount }
  return {
    id: saved!.id,
    purpose: body.purpose,
    loanId: row.id,
    amount,
    reference,
    virtualAccount,
    channel: channel?.code ?? null,
    instructions: channel
      ? {
          code: channel.code,
          name: channel.name,
          kind: channel.kind,
          posting: channel.posting,
          steps: channel.steps.map((step) => fillStep(step, values)),
        }
      : null,
    checkoutUrl: checkout?.url ?? null,
    expiresAt: expiresAt.toISOString(),
    status: 'open',
  }
}
