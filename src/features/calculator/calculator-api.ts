/**
 * The calls behind the calculator (spec section 7), as the actors the calculator machine invokes. Money in
 * paths and bodies is integer centavos, terms are days (ADR 0002), so the machine's numbers go out as they are.
 * Every call takes the actor's AbortSignal: leaving `fetching` stops the actor, which aborts the stale request.
 */
import * as v from 'valibot'
import { fromPromise } from 'xstate'
import { type CalculatorConfig, calculatorConfigSchema } from '../../../domain/calculator-config'
import {
  getCalculatorConfig,
  getClientOffer,
  getGuestOffer,
  type OfferRequest,
  validateClientPromo,
  validateGuestPromo,
} from '../../../domain/contract/pricing'
import type { PricedOffer, PromoAnswer } from '../../../domain/contract/pricing-answers'
import type { Offer } from '../../../domain/offer'
import { OfferRefusedError } from '../../../machines/calculator.machine'
import type { ApiClient } from '../../api/client'
import { isServerFailure, type ServerFailure } from '../../ui/forms/violations'

/** The offer call for a request: the client's own price when logged in, the guest price otherwise. */
export function fetchOfferFor(
  api: ApiClient,
  request: OfferRequest,
  signal?: AbortSignal,
): Promise<PricedOffer> {
  const amount = Math.trunc(request.amount)
  const term = Math.trunc(request.term)
  const query = { optionalFee: request.optionalFee, promo_name: request.promoCode || undefined }
  return request.kind === 'guest'
    ? api.call(
        getGuestOffer,
        { params: { sequence_type: request.sequenceType, amount, term }, query },
        { signal },
      )
    : api.call(getClientOffer, { params: { amount, term }, query }, { signal })
}

/** A 400 or 422 with the reasons: the request itself is refused, asking again would not help. */
function isRefusal(error: unknown): error is ServerFailure {
  return (
    isServerFailure(error) && (error.status === 400 || error.status === 422) && error.violations.length > 0
  )
}

export function calculatorActors(api: ApiClient) {
  return {
    loadConfig: fromPromise<CalculatorConfig, void>(async ({ signal }) => {
      const raw = await api.call(getCalculatorConfig, {}, { signal })
      // A config that does not parse is a failed load, not a calculator built on guesses.
      return v.parse(calculatorConfigSchema, raw)
    }),
    fetchOffer: fromPromise<Offer, OfferRequest>(async ({ input, signal }) => {
      try {
        return await fetchOfferFor(api, input, signal)
      } catch (error) {
        // The server refused this request and said why: a refusal, not a failure to retry (issue 13).
        if (isRefusal(error)) throw new OfferRefusedError(error.violations)
        throw error
      }
    }),
  }
}

export function validatePromoCode(api: ApiClient, code: string, loggedIn: boolean): Promise<PromoAnswer> {
  return api.call(loggedIn ? validateClientPromo : validateGuestPromo, { body: { promoCode: code } })
}
