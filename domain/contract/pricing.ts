/**
 * Offers, promo codes and the lending configuration (spec section 7). Amounts are centavos and terms days, in
 * paths as in bodies (docs/decisions/0002-api-conventions.md).
 */
import * as v from 'valibot'
import { calculatorConfigSchema } from '../calculator-config'
import type { CalculatorLoanType } from '../calculator-rules'
import { idString } from '../ids'
import { type ClientKind, offerSchema, type SequenceType } from '../offer'
import { pricingConfigShapeSchema } from '../pricing/config'
import { promoCodeSchema, promoStatuses } from '../pricing/promo'
import { safeMultilineString, safeString } from '../safe-text'
import { defineContract } from './define'

const centavosParam = v.pipe(
  safeString(),
  v.regex(/^\d{1,12}$/, 'The amount must be a whole number of centavos.'),
  v.transform(Number),
)
const daysParam = v.pipe(
  safeString(),
  v.regex(/^\d{1,4}$/, 'The term must be a whole number of days.'),
  v.transform(Number),
)

/** The optional borrowers advantage package is accepted by default (spec section 9) unless turned off. */
const optionalFeeQuery = v.optional(
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

/** An offer as the offer calls answer it: the Offer of spec section 3 and what became of the promo code asked. */
export const pricedOfferSchema = v.object({
  ...offerSchema.entries,
  promo: v.nullable(v.object({ code: v.string(), status: v.picklist(promoStatuses), applied: v.boolean() })),
})
export type PricedOffer = v.InferOutput<typeof pricedOfferSchema>

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

export const promoAnswerSchema = v.object({
  code: v.string(),
  status: v.picklist(promoStatuses),
  valid: v.boolean(),
})
export type PromoAnswer = v.InferOutput<typeof promoAnswerSchema>

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

export const getBackOfficeClientOffer = defineContract({
  method: 'get',
  path: '/private/back-office/client/:id/arithmetic/offer',
  summary: 'Back office: the offer a given client would get',
  tags: ['pricing', 'back-office'],
  access: 'user',
  params: v.object({ id: idString(undefined, 'The id must be a number.') }),
  query: v.object({
    finance_type: v.optional(v.picklist(['stl']), 'stl'),
    sequence_type: v.optional(v.picklist(['first', 'repeated'])),
    amount: centavosParam,
    term: daysParam,
    optionalFee: optionalFeeQuery,
  }),
  response: pricedOfferSchema,
})

export const getLendingConfig = defineContract({
  method: 'get',
  path: '/private/back-office/config/lending',
  summary: 'Back office: the calculator limits and the pricing parameters in force',
  tags: ['config', 'back-office'],
  access: 'user',
  response: v.object({ calculator: calculatorConfigSchema, pricing: pricingConfigShapeSchema }),
})

export const saveConfig = defineContract({
  method: 'put',
  path: '/private/back-office/config/:key',
  summary:
    'Back office: save the calculator or pricing document; refused (422) when any offer could break a legal cap',
  tags: ['config', 'back-office'],
  access: 'user',
  params: v.object({ key: v.picklist(['calculator', 'pricing']) }),
  body: v.object({
    value: v.unknown(),
    note: v.optional(v.pipe(safeMultilineString(), v.maxLength(500)), ''),
  }),
  /** The document saved, as stored. */
  response: v.unknown(),
})
