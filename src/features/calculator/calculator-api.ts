/**
 * The calls behind the calculator (spec section 7), as the actors the calculator machine invokes. Money in
 * paths and bodies is integer centavos, terms are days (ADR 0002), so the machine's numbers go out as they are.
 * Every call takes the actor's AbortSignal: leaving `fetching` stops the actor, which aborts the stale request.
 */
import * as v from 'valibot'
import { fromPromise } from 'xstate'
import { type CalculatorConfig, calculatorConfigSchema } from '../../../domain/calculator-config'
import type { Offer } from '../../../domain/offer'
import { OfferRefusedError, type OfferRequest } from '../../../machines/calculator.machine'
import type { ApiClient } from '../../api/client'
import { isServerFailure, type ServerFailure } from '../../ui/forms/violations'

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

/** A 400 or 422 with the reasons: the request itself is refused, asking again would not help. */
function isRefusal(error: unknown): error is ServerFailure {
  return (
    isServerFailure(error) && (error.status === 400 || error.status === 422) && error.violations.length > 0
  )
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
    fetchOffer: fromPromise<Offer, OfferRequest>(async ({ input, signal }) => {
      try {
        return await api.get<PricedOffer>(offerPathOf(input), { query: offerQueryOf(input), signal })
      } catch (error) {
        // The server refused this request and said why: a refusal, not a failure to retry (issue 13).
        if (isRefusal(error)) throw new OfferRefusedError(error.violations)
        throw error
      }
    }),
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
