/**
 * Promo codes in the back office (issue 19 item 6, docs/decisions/0035-maker-checker-and-config-versions.md): the
 * codes with their uses so far, and a new code or a change to one proposed for another administrator's approval
 * (202 with the proposal, kind `promo_code`; the decided proposals of that kind are the codes' history).
 */
import * as v from 'valibot'
import { clientKinds } from '../offer'
import { promoCodeSchema } from '../pricing/promo'
import { promoChangeSchema, promoCreateSchema, promoStates } from '../pricing/promo-admin'
import { approvalSchema } from './approvals'
import { defineContract } from './define'
import { pagingQuery } from './reference'

export const promoCodeViewSchema = v.object({
  code: v.string(),
  validFrom: v.string(),
  validTo: v.string(),
  clientKinds: v.array(v.picklist(clientKinds)),
  maxUses: v.nullable(v.number()),
  usesPerClient: v.nullable(v.number()),
  interestDiscountBps: v.number(),
  serviceFeeDiscountBps: v.number(),
  description: v.string(),
  /** Times the code has been used (promo_redemption). */
  uses: v.number(),
  /** Before its window, in it, or after it (now). */
  state: v.picklist(promoStates),
})
export type PromoCodeView = v.InferOutput<typeof promoCodeViewSchema>

export const listPromoCodes = defineContract({
  method: 'get',
  path: '/private/back-office/promo-codes',
  summary:
    'Back office: the promo codes, newest window end first, with their uses so far and state (x-* pagination headers)',
  tags: ['config', 'back-office'],
  access: 'user',
  permission: 'config.read',
  query: v.object({ ...pagingQuery(50, 200) }),
  paginated: true,
  response: v.array(promoCodeViewSchema),
})

export const proposePromoCode = defineContract({
  method: 'post',
  path: '/private/back-office/promo-codes',
  summary:
    "Back office: propose a new promo code (202 with the proposal, kind promo_code); another administrator's approval creates it. 409 promoCodeExists when the code exists",
  tags: ['config', 'back-office'],
  access: 'user',
  permission: 'config.change',
  body: promoCreateSchema,
  response: approvalSchema,
})

export const proposePromoCodeChange = defineContract({
  method: 'put',
  path: '/private/back-office/promo-codes/:code',
  summary:
    "Back office: propose a change to a promo code's window, discounts or limits (202 with the proposal); ending it early is a window ending now. Another administrator's approval applies it",
  tags: ['config', 'back-office'],
  access: 'user',
  permission: 'config.change',
  params: v.object({ code: promoCodeSchema }),
  body: promoChangeSchema,
  response: approvalSchema,
})
