/**
 * The Offer of spec section 3, as the API answers it. Every money field is `{ amount }` in integer centavos
 * (PHP); `apr` and `apr_without_discount` are annual percentage rates in percent with 2 decimals; `endDate` is
 * the repayment date as YYYY-MM-DD on the Asia/Manila calendar.
 */
import * as v from 'valibot'

export const moneySchema = v.object({ amount: v.pipe(v.number(), v.integer()) })
export type Money = v.InferOutput<typeof moneySchema>

export const extensionTypes = ['cheap', 'expensive'] as const
export type ExtensionType = (typeof extensionTypes)[number]

export const extensionOptionSchema = v.object({
  type: v.picklist(extensionTypes),
  /** Days added to the due date. */
  term: v.pipe(v.number(), v.integer()),
  fee: moneySchema,
})
export type ExtensionOption = v.InferOutput<typeof extensionOptionSchema>

export const offerSchema = v.object({
  principal: moneySchema,
  interest: moneySchema,
  interest_without_discount: moneySchema,
  processingFee: moneySchema,
  processing_fee_without_discount: moneySchema,
  serviceFee: moneySchema,
  serviceFee_without_discount: moneySchema,
  withdrawalFee: moneySchema,
  invoicingFee: moneySchema,
  borrowers_advantage_package_fee: moneySchema,
  total: moneySchema,
  total_without_discount: moneySchema,
  discount: v.object({ interest: moneySchema, serviceFee: moneySchema }),
  apr: v.number(),
  apr_without_discount: v.number(),
  endDate: v.pipe(v.string(), v.isoDate()),
  term: v.pipe(v.number(), v.integer()),
  extensions: v.array(extensionOptionSchema),
})
export type Offer = v.InferOutput<typeof offerSchema>

/** Who the price is for: a visitor (guest), a first-loan client (new) or a client with closed loans (repeat). */
export const clientKinds = ['guest', 'new', 'repeat'] as const
export type ClientKind = (typeof clientKinds)[number]

/** The path segment of the guest offer call: /public/arithmetic/offer/stl/{sequence_type}/{amount}/{term}. */
export const sequenceTypes = ['first', 'repeated'] as const
export type SequenceType = (typeof sequenceTypes)[number]
