/**
 * What the offer and promo-code calls answer, apart from the contracts in pricing.ts: the application screens
 * parse a priced offer in the browser, and a module is bundled whole, so the home page's calculator, which only
 * calls, does not carry the schemas (docs/decisions/0023-one-contract.md).
 */
import * as v from 'valibot'
import { offerSchema } from '../offer'
import { promoStatuses } from '../pricing/promo'

/** An offer as the offer calls answer it: the Offer of spec section 3 and what became of the promo code asked. */
export const pricedOfferSchema = v.intersect([
  offerSchema,
  v.object({
    promo: v.nullable(
      v.object({ code: v.string(), status: v.picklist(promoStatuses), applied: v.boolean() }),
    ),
    /** The configuration versions that priced it (config_version, issue 19 item 6); absent on offers stored before. */
    configVersion: v.optional(v.object({ calculator: v.number(), pricing: v.number() })),
    /**
     * The referral reward taken off the service fee (ADR 0041), already counted in `discount.serviceFee` and
     * `serviceFee`; absent when none is. Signing records its use.
     */
    referralReward: v.optional(v.object({ amount: v.pipe(v.number(), v.integer(), v.minValue(1)) })),
  }),
])
export type PricedOffer = v.InferOutput<typeof pricedOfferSchema>

export const promoAnswerSchema = v.object({
  code: v.string(),
  status: v.picklist(promoStatuses),
  valid: v.boolean(),
})
export type PromoAnswer = v.InferOutput<typeof promoAnswerSchema>
