/**
 * The payment gateway's routes (issue 16, item 5), implementing domain/contract/payments.ts: the gateways'
 * webhook (a raw body: its signature is checked over the exact bytes before it is parsed), the sandbox gateway's
 * checkout page and QA payments (404 unless the gateway is the sandbox), and reconciliation on demand.
 */
import * as payments from '../../../domain/contract/payments'
import {
  completeSandboxCheckout,
  receiveWebhook,
  reconcile,
  sandboxCheckout,
  sendSandboxPayment,
} from '../../services/payments/gateway'
import { ok } from '../envelope'
import { deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const paymentGatewayRoutes: AnyRoute[] = [
  implement(payments.gatewayWebhook, async (c, { params, body }) =>
    ok(c, await receiveWebhook(deps(c), params.provider, c.req.raw.headers, body)),
  ),

  implement(payments.getSandboxCheckout, async (c, { params }) =>
    ok(c, await sandboxCheckout(deps(c), params.id)),
  ),

  implement(payments.completeSandboxCheckout, async (c, { params, body }) =>
    ok(c, await completeSandboxCheckout(deps(c), params.id, body.outcome)),
  ),

  implement(payments.sendSandboxPayment, async (c, { body }) =>
    ok(c, await sendSandboxPayment(deps(c), body)),
  ),

  implement(payments.reconcilePayments, async (c) => ok(c, await reconcile(deps(c)))),
]
