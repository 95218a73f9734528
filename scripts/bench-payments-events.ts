/**
 * The payments benchmark's events (scripts/bench-payments.ts): one `payment.paid` event per fixture loan, as the
 * sandbox gateway sends them (domain/contract/payments.ts `gatewayEventSchema`), signed with the bench gateway's
 * key (`Hiram-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.rawBody">`). The amount is a pseudo-random
 * partial payment fixed by the client id, so the load generator over HTTP and the direct baseline in the bench
 * server post the same amounts to loans of the same shape.
 */
import { paymentReferenceOf } from '../domain/payments/reference'
import { SANDBOX_GATEWAY, signatureFor } from '../server/providers/payment-gateway-sandbox'
import type { IncomingPayment } from '../server/services/payments/posting'
import { FIXTURE_MIN_PRINCIPAL } from './bench-payments-fixture'

/** The sandbox gateway's signing key in the benchmark (not a secret: the bench signs its webhooks with it). */
const BENCH_GATEWAY_SECRET = 'bench-sandbox-gateway-secret-not-for-production'
export const benchGatewaySecret = () => process.env.SANDBOX_GATEWAY_SECRET ?? BENCH_GATEWAY_SECRET

export const WEBHOOK_PATH = '/web/public/payments/webhook/sandbox'
const MIN_AMOUNT = 10_000

/** A partial payment (₱100 up to half the smallest principal), the same for a client id every time. */
export function amountFor(clientId: number): number {
  // A 32-bit integer hash (splitmix-like): spread, deterministic, no state.
  let x = (clientId ^ 0x9e3779b9) >>> 0
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0
  x = (x ^ (x >>> 16)) >>> 0
  return MIN_AMOUNT + (x % (FIXTURE_MIN_PRINCIPAL / 2 - MIN_AMOUNT))
}

/** The gateway's ids of the one payment a run (`tag`) makes to a client's loan. */
export const eventIdOf = (tag: string, clientId: number) => `evt_bench_${tag}_${clientId}`
export const chargeIdOf = (tag: string, clientId: number) => `chg_bench_${tag}_${clientId}`

/** The raw body of the paid event of a client's payment in run `tag`. */
export function paidEventBody(tag: string, clientId: number, at: Date): string {
  const iso = at.toISOString()
  return JSON.stringify({
    id: eventIdOf(tag, clientId),
    type: 'payment.paid',
    createdAt: iso,
    data: {
      paymentId: chargeIdOf(tag, clientId),
      reference: paymentReferenceOf(clientId),
      amount: amountFor(clientId),
      currency: 'PHP',
      channel: 'gcash',
      paidAt: iso,
    },
  })
}

/** The request headers of a signed webhook: what the gateway sends. */
export const signedHeaders = (rawBody: string, at: Date) => ({
  'content-type': 'application/json',
  'hiram-signature': signatureFor(benchGatewaySecret(), rawBody, at),
})

/** The same payment as `receivePayment` takes it (the direct baseline: no HTTP, no signature, no inbox). */
export function incomingPayment(tag: string, clientId: number, at: Date): IncomingPayment {
  return {
    provider: SANDBOX_GATEWAY,
    providerPaymentId: chargeIdOf(tag, clientId),
    reference: paymentReferenceOf(clientId),
    amount: amountFor(clientId),
    channel: 'gcash',
    paidAt: at,
    source: 'webhook',
  }
}
