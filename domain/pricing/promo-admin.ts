/**
 * Promo codes edited in the back office (issue 19 item 6, docs/decisions/0035-maker-checker-and-config-versions.md):
 * what an administrator proposes (a new code or a change to one: its validity window, discounts and limits), and
 * the pure rules checked when it is proposed and again when another administrator approves it.
 *
 * Lawful by construction: a promo carries only discounts, shares of the interest and of the service fee that the
 * pricing engine takes off the charges (domain/pricing/offer.ts `discountsFor`). Every other part of the offer is
 * priced by the configuration in force, which the calculator and pricing checks already keep within the legal caps;
 * a discount only lowers a charge, so no promo can raise a price above a cap. Nothing beyond 0..10000 basis points
 * needs checking.
 *
 * The effective time is the validity window itself: a code applies from `validFrom` to `validTo` (excluded), so a
 * change scheduled for later is a window that starts later, and ending a code early is moving `validTo` to now.
 */
import * as v from 'valibot'
import { clientKinds } from '../offer'
import { safeMultilineString, safeString } from '../safe-text'
import { type PromoDefinition, promoCodeSchema } from './promo'

const EARLIEST = Date.UTC(2000, 0, 1)
const TEN_YEARS = 10 * 366 * 86_400_000

/** An ISO instant between 2000 and ten years from now (what PostgreSQL stores and a person means). */
export const promoInstantSchema = v.pipe(
  safeString('Enter a time.'),
  v.trim(),
  v.isoTimestamp('An ISO time, such as 2026-12-01T00:00:00Z.'),
  v.check((text) => {
    const at = Date.parse(text)
    return Number.isFinite(at) && at >= EARLIEST && at < Date.now() + TEN_YEARS
  }, 'A time between the year 2000 and ten years from now.'),
)

const discountBps = v.pipe(
  v.number('Enter a number of basis points.'),
  v.integer('A whole number of basis points.'),
  v.minValue(0, 'At least 0 basis points.'),
  v.maxValue(10_000, 'At most 10000 basis points (100%).'),
)

const limit = v.nullable(
  v.pipe(
    v.number('Enter a number.'),
    v.integer('A whole number.'),
    v.minValue(1, 'At least 1, or no limit.'),
    v.maxValue(1_000_000_000, 'At most 1000000000.'),
  ),
)

/** What a proposal sets, besides the code itself. */
const termsEntries = {
  validFrom: promoInstantSchema,
  validTo: promoInstantSchema,
  clientKinds: v.pipe(
    v.array(v.picklist(clientKinds, 'A kind of client: guest, new or repeat.')),
    v.minLength(1, 'Choose at least one kind of client.'),
    v.maxLength(clientKinds.length, 'Each kind of client once.'),
    v.check((kinds) => new Set(kinds).size === kinds.length, 'Each kind of client once.'),
  ),
  /** Uses over all clients; null for no limit. */
  maxUses: limit,
  /** Uses by one client; null for no limit. */
  usesPerClient: limit,
  interestDiscountBps: discountBps,
  serviceFeeDiscountBps: discountBps,
  description: v.optional(v.pipe(safeString(), v.trim(), v.maxLength(200, 'At most 200 characters.')), ''),
  /** Why the change is proposed, shown to the approver. */
  note: v.optional(v.pipe(safeMultilineString(), v.trim(), v.maxLength(500, 'At most 500 characters.')), ''),
}

const windowCheck = <T extends { validFrom: string; validTo: string }>() =>
  v.forward<T, v.CheckIssue<T>, ['validTo']>(
    v.check(
      (terms) => Date.parse(terms.validFrom) < Date.parse(terms.validTo),
      'The promo must end after it starts.',
    ),
    ['validTo'] as never,
  )

const changeEntries = v.object(termsEntries)
const createEntries = v.object({ code: promoCodeSchema, ...termsEntries })

/** A change to an existing code (PUT /promo-codes/{code}). */
export const promoChangeSchema = v.pipe(changeEntries, windowCheck<v.InferOutput<typeof changeEntries>>())
export type PromoChange = v.InferOutput<typeof promoChangeSchema>

/** A new code (POST /promo-codes). */
export const promoCreateSchema = v.pipe(createEntries, windowCheck<v.InferOutput<typeof createEntries>>())
export type PromoCreate = v.InferOutput<typeof promoCreateSchema>

/** A proposal's payload, as stored on the approval and applied when approved. */
export interface PromoProposalPayload {
  action: 'create' | 'change'
  code: string
  validFrom: string
  validTo: string
  clientKinds: PromoDefinition['clientKinds']
  maxUses: number | null
  usesPerClient: number | null
  interestDiscountBps: number
  serviceFeeDiscountBps: number
  description: string
}

/**
 * The definition a payload makes, or the issues that refuse it (checked when proposed and again when approved:
 * the code and terms as an administrator sends them, whatever was stored).
 */
export function promoDefinitionOf(
  payload: PromoProposalPayload,
): { definition: PromoDefinition } | { issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]] } {
  const code = v.safeParse(promoCodeSchema, payload.code)
  if (!code.success) return { issues: code.issues }
  const terms = v.safeParse(promoChangeSchema, payload)
  if (!terms.success) return { issues: terms.issues }
  const { note: _note, description: _description, ...rest } = terms.output
  return {
    definition: {
      ...rest,
      code: code.output,
      validFrom: new Date(rest.validFrom),
      validTo: new Date(rest.validTo),
    },
  }
}

/** Where a code stands at `now`: before its window, in it, or after it. */
export function promoState(window: { validFrom: Date; validTo: Date }, now: Date) {
  if (now.getTime() < window.validFrom.getTime()) return 'scheduled' as const
  if (now.getTime() >= window.validTo.getTime()) return 'ended' as const
  return 'active' as const
}
export const promoStates = ['scheduled', 'active', 'ended'] as const
