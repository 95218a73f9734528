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
import { safeMultilineString } from '../safe-text'
import { defineContract } from './define'
import { centavosParam, daysParam, optionalFeeQuery } from './pricing'
import { pricedOfferSchema } from './pricing-answers'

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
  }),
})

export const saveConfig = defineContract({
  method: 'put',
  path: '/private/back-office/config/:key',
  summary:
    'Back office: save the calculator, pricing, servicing or limits document; refused (422) when any offer could break a legal cap or a value is out of range',
  tags: ['config', 'back-office'],
  access: 'user',
  permission: 'config.change',
  params: v.object({ key: v.picklist(['calculator', 'pricing', 'servicing', 'limits']) }),
  body: v.object({
    value: v.unknown(),
    note: v.optional(v.pipe(safeMultilineString(), v.maxLength(500)), ''),
  }),
  /** The document saved, as stored. */
  response: v.unknown(),
})
