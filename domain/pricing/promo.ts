/**
 * Promo codes: the definitions are database rows (never part of the pricing config); these are the pure rules
 * that decide whether a code applies to a request. A promo only carries discounts, which the engine applies as
 * shares of interest and service fee, so no promo can raise a price or make an offer unlawful.
 */
import * as v from 'valibot'
import { type ClientKind, clientKinds } from '../offer'
import { safeString } from '../safe-text'

/** Spec section 9: 3 to 10 characters. Case-insensitive: 'summer25' and 'SUMMER25' are the same code. */
export const promoCodeSchema = v.pipe(
  safeString('Enter a promo code.'),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^[A-Z0-9]{3,10}$/, 'A promo code is 3 to 10 letters or digits.'),
)

const discountBps = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000))
const limit = v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))

/** A promo row as an admin saves it. Dates are instants; the window is [validFrom, validTo). */
export const promoDefinitionSchema = v.pipe(
  v.object({
    code: promoCodeSchema,
    validFrom: v.date(),
    validTo: v.date(),
    clientKinds: v.pipe(
      v.array(v.picklist(clientKinds)),
      v.minLength(1, 'Choose at least one kind of client.'),
    ),
    /** Uses over all clients; null for no limit. */
    maxUses: limit,
    /** Uses by one client; null for no limit. */
    usesPerClient: limit,
    interestDiscountBps: discountBps,
    serviceFeeDiscountBps: discountBps,
  }),
  v.forward(
    v.check(
      (promo) => promo.validFrom.getTime() < promo.validTo.getTime(),
      'The promo must end after it starts.',
    ),
    ['validTo'],
  ),
)
export type PromoDefinition = v.InferOutput<typeof promoDefinitionSchema>

/** What the pricing engine needs from a valid promo. */
export interface ResolvedPromo {
  code: string
  interestDiscountBps: number
  serviceFeeDiscountBps: number
}

export const promoStatuses = [
  'valid',
  'expired',
  'not_started',
  'used',
  'unknown',
  'wrong_client_kind',
] as const
export type PromoStatus = (typeof promoStatuses)[number]

export interface PromoContext {
  kind: ClientKind
  now: Date
  /** Times the code has been used by anyone. */
  totalUses: number
  /** Times this client has used it (0 for a guest). */
  clientUses: number
}

/**
 * The first reason a code does not apply, in the order a person can act on: a code that does not exist, is
 * outside its dates, or is not for them says so before "already used", so a client is never told they used a
 * code they could not have used.
 */
export function evaluatePromo(
  definition: PromoDefinition | undefined,
  context: PromoContext,
): { status: PromoStatus; promo?: ResolvedPromo } {
  if (!definition) return { status: 'unknown' }
  const now = context.now.getTime()
  if (now < definition.validFrom.getTime()) return { status: 'not_started' }
  if (now >= definition.validTo.getTime()) return { status: 'expired' }
  if (!definition.clientKinds.includes(context.kind)) return { status: 'wrong_client_kind' }
  if (definition.maxUses !== null && context.totalUses >= definition.maxUses) return { status: 'used' }
  if (definition.usesPerClient !== null && context.clientUses >= definition.usesPerClient)
    return { status: 'used' }
  return {
    status: 'valid',
    promo: {
      code: definition.code,
      interestDiscountBps: definition.interestDiscountBps,
      serviceFeeDiscountBps: definition.serviceFeeDiscountBps,
    },
  }
}
