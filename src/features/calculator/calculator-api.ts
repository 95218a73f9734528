/**
 * The calls behind the calculator (spec section 7), as the actors the calculator machine invokes. Money in
 * paths and bodies is integer centavos, terms are days (ADR 0002), so the machine's numbers go out as they are.
 * Every call takes the actor's AbortSignal: leaving `fetching` stops the actor, which aborts the stale request.
 */
import * as v from 'valibot'
import { fromPromise } from 'xstate'
import { type CalculatorConfig, calculatorConfigSchema } from '../../../domain/calculator-config'
import type { Offer } from '../../../domain/offer'
import type { OfferRequest } from '../../../machines/calculator.machine'
import type { ApiClient } from '../../api/client'

export const CONFIG_PATH = '/public/config/calculator'

/** The offer path for a request: the client's own price when logged in, the guest price otherwise. */
export function offerPathOf(request: OfferRequest): string {
  const amount = Math.trunc(request.amount)
  const term = Math.trunc(request.term)
  return request.kind === 'guest'
    ? `/public/arithmetic/offer/stl/${request.sequenceType}/${amount}/${term}`
    : `/private/client/arithmetic/offer/stl/${amount}/${term}`
}

export function offerQueryOf(request: OfferRequest): Record<string, string> {
  const query: Record<string, string> = { optionalFee: String(request.optionalFee) }
  if (request.promoCode) query.promo_name = request.promoCode
  return query
}

/** A priced offer also says what became of the promo code it was asked with. */
export type PricedOffer = Offer & { promo: { code: string; status: string; applied: boolean } | null }

export function calculatorActors(api: ApiClient) {
  return {
    loadConfig: fromPromise<CalculatorConfig, void>(async ({ signal }) => {
      const raw = await api.get<unknown>(CONFIG_PATH, { signal })
      // A config that does not parse is a failed load, not a calculator built on guesses.
      return v.parse(calculatorConfigSchema, raw)
    }),
    fetchOffer: fromPromise<Offer, OfferRequest>(({ input, signal }) =>
      api.get<PricedOffer>(offerPathOf(input), { query: offerQueryOf(input), signal }),
    ),
  }
}

export type PromoStatus = 'valid' | 'expired' | 'not_started' | 'used' | 'unknown' | 'wrong_client_kind'
export interface PromoAnswer {
  code: string
  status: PromoStatus
  valid: boolean
}

export function validatePromoCode(api: ApiClient, code: string, loggedIn: boolean): Promise<PromoAnswer> {
  const path = loggedIn ? '/private/client/promocode/validate' : '/public/client/promocode/validate'
  return api.put<PromoAnswer>(path, { promoCode: code })
}
