/**
 * The loader of /sandbox/checkout/{id} (imported by the route when it loads, src/routes/sandbox/-load-checkout.ts):
 * the gateway's charge and the page title, or the 404 page for an id that is not a charge id at all or that the
 * gateway does not know.
 */
import { notFound } from '@tanstack/react-router'
import * as v from 'valibot'
import { checkoutSchema, getSandboxCheckout } from '../../../domain/contract/payments'
import { type ApiClient, ApiError } from '../../api/client'
import { ensureMessages } from '../../i18n/messages'

/** The gateway's charge ids (domain/contract/payments.ts). */
const CHECKOUT_ID = /^chg_[A-Za-z0-9]{8,40}$/

export async function loadCheckout(api: ApiClient, id: string, signal?: AbortSignal) {
  if (!CHECKOUT_ID.test(id)) throw notFound()
  const [messages, answer] = await Promise.all([
    ensureMessages(['repay']),
    api.call(getSandboxCheckout, { params: { id } }, { signal }).catch((error: unknown) => {
      if (error instanceof ApiError && (error.status === 404 || error.status === 422)) throw notFound()
      throw error
    }),
  ])
  return { checkout: v.parse(checkoutSchema, answer), title: messages.repay.checkout.title }
}
