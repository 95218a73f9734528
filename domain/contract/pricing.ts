/**
 * Offers, promo codes and the lending configuration (spec section 7). Amounts are centavos and terms days, in
 * paths as in bodies (docs/decisions/0002-api-conventions.md).
 */
import * as v from 'valibot'
import { calculatorConfigSchema } from '../calculator-config'
import type { CalculatorLoanType } from '../calculator-rules'
import type { ClientKind, SequenceType } from '../offer'
import { promoCodeSchema } from '../pricing/promo'
import { safeString } from '../safe-text'
import { defineContract } from './define'
import { pricedOfferSchema, promoAnswerSchema } from './pricing-answers'

export const centavosParam = v.pipe(
  safeString(),
  v.regex(/^\d{1,12}$/, 'The amount must be a whole number of centavos.'),
  v.transform(Number),
)
export const daysParam = v.pipe(
  safeString(),
  v.regex(/^\d{1,4}$/, 'The term must be a whole number of days.'),
  v.transform(Number),
)

/** The optional borrowers advantage package is accepted by default (spec section 9) unless turned off. */
export const optionalFeeQuery = v.optional(
  v.pipe(
    v.picklist(
      ['true', 'false', '1', '0', 'borrowers_advantage_package_fee', 'none'],
      'optionalFee is true or false.',
    ),
    v.transform((value) => value === 'true' || value === '1' || value === 'borrowers_advantage_package_fee'),
  ),
  'true',
)
const promoQuery = v.optional(
  v.pipe(
    safeString(),
    v.trim(),
    v.transform((s) => s || undefined),
    v.optional(promoCodeSchema),
  ),
)
const offerQuery = v.object({ promo_name: promoQuery, optionalFee: optionalFeeQuery })

/**
 * The calculator's question to the offer calls: who asks (`kind`; a visitor prices the tab's `sequenceType`),
 * for which loan type, amount (centavos), term (days), with or without the optional package, and a promo code.
 */
export interface OfferRequest {
  type: CalculatorLoanType
  kind: ClientKind
  sequenceType: SequenceType
  amount: number
  term: number
  optionalFee: boolean
  promoCode: string | null
}

export const getCalculatorConfig = defineContract({
  method: 'get',
  path: '/public/config/calculator',
  summary: 'Calculator limits, defaults and tabs (spec section 5)',
  tags: ['config'],
  access: 'public',
  response: calculatorConfigSchema,
})

export const getGuestOffer = defineContract({
  method: 'get',
  path: '/public/arithmetic/offer/stl/:sequence_type/:amount/:term',
  summary:
    'Guest offer: the price of an amount and a term for a visitor (first) or a repeat client (repeated)',
  tags: ['pricing'],
  access: 'public',
  params: v.object({
    sequence_type: v.picklist(['first', 'repeated'], 'sequence_type is first or repeated.'),
    amount: centavosParam,
    term: daysParam,
  }),
  query: offerQuery,
  response: pricedOfferSchema,
})

export const getClientOffer = defineContract({
  method: 'get',
  path: '/private/client/arithmetic/offer/stl/:amount/:term',
  summary: "The logged-in client's offer: first-loan discount or repeat pricing, within the available amount",
  tags: ['pricing'],
  access: 'client',
  params: v.object({ amount: centavosParam, term: daysParam }),
  query: offerQuery,
  response: pricedOfferSchema,
})

export const validateGuestPromo = defineContract({
  method: 'put',
  path: '/public/client/promocode/validate',
  summary:
    'Checks a promo code for a visitor: valid, expired, not_started, used, unknown or wrong_client_kind',
  tags: ['pricing'],
  access: 'public',
  body: v.object({ promoCode: promoCodeSchema }),
  response: promoAnswerSchema,
})

export const validateClientPromo = defineContract({
  method: 'put',
  path: '/private/client/promocode/validate',
  summary: "Checks a promo code for the logged-in client, counting the client's own uses",
  tags: ['pricing'],
  access: 'client',
  body: v.object({ promoCode: promoCodeSchema }),
  response: promoAnswerSchema,
})
