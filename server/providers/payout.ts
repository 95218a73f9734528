/**
 * Sending the money (bank transfer, e-wallet, cash card, cash pickup) through a payout provider. Called by the
 * payout job outside any transaction, with the disbursement id as the idempotency reference, so a retried call
 * never pays twice at a real provider. The sandbox (the default) answers by documented test data:
 *
 * | Payout account                                        | Outcome                                     |
 * | ----------------------------------------------------- | ------------------------------------------- |
 * | cash_pickup (Cebuana, M Lhuillier)                    | cash_pickup_ready with a pickup number      |
 * | account or card number ending in 0000                 | failed ("The receiving account was refused.") |
 * | account or card number ending in 9999                 | provider unavailable (retried by the job)   |
 * | anything else                                         | succeeded                                   |
 */

export interface PayoutRequest {
  /** Our disbursement id: the provider's idempotency key (with `purpose`). */
  disbursementId: number
  /** What the money is: a loan's payout (the default), or a refund of a client's credit (its refund id). */
  purpose?: 'payout' | 'refund'
  type: string
  accountNumber: string | null
  institution: string | null
  provider: string | null
  /** Centavos. */
  amount: number
}

export type PayoutAnswer =
  | { status: 'succeeded'; reference: string }
  | { status: 'cash_pickup_ready'; reference: string; cashPickupNumber: string }
  | { status: 'failed'; reference: string; reason: string }

export interface PayoutProvider {
  readonly name: string
  send(request: PayoutRequest): Promise<PayoutAnswer>
}

export class PayoutUnavailableError extends Error {
  constructor(message = 'The payout provider is unavailable.') {
    super(message)
    this.name = 'PayoutUnavailableError'
  }
}

export const sandboxPayout: PayoutProvider = {
  name: 'sandbox',
  async send(request) {
    const reference = `sandbox-${request.purpose ?? 'payout'}-${request.disbursementId}`
    if (request.type === 'cash_pickup') {
      // A 12-digit control number derived from the disbursement: the same request gets the same number.
      const cashPickupNumber = `CP${String(request.disbursementId).padStart(10, '0')}`
      return { status: 'cash_pickup_ready', reference, cashPickupNumber }
    }
    const account = request.accountNumber ?? ''
    if (account.endsWith('9999'))
      throw new PayoutUnavailableError('Sandbox: account ending 9999 is unavailable.')
    if (account.endsWith('0000'))
      return { status: 'failed', reference, reason: 'The receiving account was refused.' }
    return { status: 'succeeded', reference }
  },
}
