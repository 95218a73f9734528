/**
 * The back office's pricing calls: the offer a given client would get, and the lending configuration (spec
 * section 7). Apart from the borrower's pricing contracts (pricing.ts) because the configuration's schemas are
 * large and no borrower's page needs them.
 */
import * as v from 'valibot'
import { calculatorConfigSchema } from '../calculator-config'
import { idString } from '../ids'
import { limitGrowthSchema } from '../loan/limits'
import { servicingConfigSchema } from '../loan/servicing-config'
import { pricingConfigShapeSchema } from '../pricing/config'
import { referralConfigSchema } from '../referrals'
import { safeMultilineString, safeString } from '../safe-text'
import { approvalSchema } from './approvals'
import { defineContract } from './define'
import { centavosParam, daysParam, optionalFeeQuery } from './pricing'
import { pricedOfferSchema } from './pricing-answers'
import { pagingQuery } from './reference'

export const getBackOfficeClientOffer = defineContract({
  method: 'get',
  path: '/private/back-office/client/:id/arithmetic/offer',
  summary: 'Back office: the offer a given client would get',
  tags: ['pricing', 'back-office'],
  access: 'user',
  permission: 'offers.read',
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
  summary:
    'Back office: the calculator limits, the pricing parameters, the servicing rules (extension window, schedule offers, penalties, reminders) and the repeat-limit growth in force',
  tags: ['config', 'back-office'],
  access: 'user',
  permission: 'config.read',
  response: v.object({
    calculator: calculatorConfigSchema,
    pricing: pricingConfigShapeSchema,
    servicing: servicingConfigSchema,
    limits: limitGrowthSchema,
    /** The refer-a-friend switch and reward rules (issue 22 item 2, docs/decisions/0041-referrals.md). */
    referrals: referralConfigSchema,
    /** The version of each document in force (issue 19 item 6); 0 for a document never set (its defaults). */
    versions: v.object({
      calculator: v.number(),
      pricing: v.number(),
      servicing: v.number(),
      limits: v.number(),
      referrals: v.number(),
    }),
  }),
})

export const configKeys = ['calculator', 'pricing', 'servicing', 'limits', 'referrals'] as const
export type ConfigKey = (typeof configKeys)[number]

/** When a proposed change takes effect: an ISO time, at most ten years ahead; absent, as soon as it is approved. */
export const effectiveAtSchema = v.pipe(
  safeString(),
  v.isoTimestamp('An ISO time, such as 2026-12-01T00:00:00Z.'),
  v.check((text) => {
    const at = Date.parse(text)
    return Number.isFinite(at) && at < Date.now() + 10 * 366 * 86_400_000
  }, 'A time within the next ten years.'),
)

export const saveConfig = defineContract({
  method: 'put',
  path: '/private/back-office/config/:key',
  summary:
    "Back office: propose a calculator, pricing, servicing, limits or referrals document (202 with the proposal); it takes effect at `effectiveAt` (or at once) after another administrator's approval (POST /approvals/{id}/approve); refused (422) when any offer could break a legal cap or a value is out of range",
  tags: ['config', 'back-office'],
  access: 'user',
  permission: 'config.change',
  params: v.object({ key: v.picklist(configKeys) }),
  body: v.object({
    value: v.unknown(),
    note: v.optional(v.pipe(safeMultilineString(), v.maxLength(500, 'At most 500 characters.')), ''),
    effectiveAt: v.optional(effectiveAtSchema),
  }),
  /** The proposal, pending. */
  response: approvalSchema,
})

export const configVersionSchema = v.object({
  key: v.string(),
  version: v.number(),
  value: v.unknown(),
  note: v.string(),
  proposedBy: v.nullable(v.number()),
  proposedByName: v.nullable(v.string()),
  approvedBy: v.nullable(v.number()),
  approvedByName: v.nullable(v.string()),
  approvalId: v.nullable(v.number()),
  effectiveAt: v.string(),
  createdAt: v.string(),
  /** in force | scheduled (effective later) | superseded */
  state: v.picklist(['inForce', 'scheduled', 'superseded']),
})
export type ConfigVersion = v.InferOutput<typeof configVersionSchema>

export const listConfigVersions = defineContract({
  method: 'get',
  path: '/private/back-office/config/versions',
  summary:
    'Back office: the versions of the configuration documents, newest effective time first, with who proposed and approved each (x-* pagination headers)',
  tags: ['config', 'back-office'],
  access: 'user',
  permission: 'config.read',
  query: v.object({
    key: v.optional(v.picklist(configKeys)),
    ...pagingQuery(50, 200),
  }),
  paginated: true,
  response: v.array(configVersionSchema),
})
