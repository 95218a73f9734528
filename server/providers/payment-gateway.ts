/**
 * Collecting payments through a payment gateway (PayMongo / Xendit conventions; issue 16, item 5). The gateway
 * tells us about payments by signed webhooks to `POST /web/public/payments/webhook/{provider}`; we can also ask it
 * which payments it has marked paid (reconciliation, for a webhook that never arrived). E-wallet payments go
 * through its checkout page.
 *
 * The sandbox provider (the default) is a gateway of its own inside this process: it keeps its charges and events
 * in its own tables (sandbox_charge, sandbox_event), serves a checkout page (Pay / Fail), signs its events with
 * HMAC-SHA256 over `t.rawBody` and delivers them over HTTP to our endpoint, retrying with backoff.
 */
import type { PaymentChannelCode } from '../../domain/payments/channels'
import type { DbOrTx } from '../db/client'

export interface CheckoutRequest {
  reference: string
  /** Centavos. */
  amount: number
  channel: PaymentChannelCode
  /** Where the payer returns to on this site after paying or failing. */
  returnPath: string
}

/** A payment the gateway reports as paid, in the shape our posting takes. */
export interface GatewayPayment {
  providerPaymentId: string
  reference: string
  amount: number
  channel: PaymentChannelCode
  paidAt: Date
}

export interface PaymentGateway {
  /** `sandbox`, or a real provider's name (`paymongo`); the webhook path's {provider}. */
  readonly name: string
  /** Opens a checkout (e-wallets): the id and the URL the payer is sent to. */
  createCheckout(db: DbOrTx, request: CheckoutRequest, now: Date): Promise<{ id: string; url: string }>
  /**
   * Checks a webhook's signature over the exact body received; false for a missing, malformed, wrong or stale
   * one (outside the replay window). Pure: no database.
   */
  verifyWebhook(headers: Headers, rawBody: string, now: Date): boolean
  /** Reconciliation: the payments the gateway marked paid since `since`. */
  paidSince(db: DbOrTx, since: Date): Promise<GatewayPayment[]>
}
