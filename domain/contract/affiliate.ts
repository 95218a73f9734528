/**
 * Affiliate leads (spec sections 3, 7; docs/decisions/0014): the lead link's prefill lookup, the client's own
 * lead after sign-up, and the back-office call QA and integrations use to make lead links.
 */
import * as v from 'valibot'
import { leadCreateSchema } from '../affiliate'
import { leadIdSchema } from '../affiliate-link'
import { defineContract } from './define'

const text = v.nullable(v.string())

/** The Lead prefill data of spec section 3: what an affiliate knew about the visitor, for the forms. */
export const leadPrefillSchema = v.object({
  leadId: v.string(),
  firstName: text,
  middleName: text,
  lastName: text,
  documentType: text,
  clientIdentificator: text,
  /** YYYY-MM-DD. */
  dateOfBirth: text,
  gender: text,
  civilStatus: text,
  email: text,
  phone: text,
})
export type LeadPrefill = v.InferOutput<typeof leadPrefillSchema>

export const getLead = defineContract({
  method: 'get',
  path: '/public/affiliates/leads/:id',
  summary: 'The prefill data of an open lead (unknown, used and expired leads all answer 404)',
  tags: ['affiliate'],
  access: 'public',
  params: v.object({ id: leadIdSchema }),
  response: leadPrefillSchema,
})

export const getClientLead = defineContract({
  method: 'get',
  path: '/private/client/affiliate-lead',
  summary: "The prefill data of the lead the current client's sign-up used, or null without one",
  tags: ['affiliate'],
  access: 'client',
  response: v.nullable(leadPrefillSchema),
})

export const createLead = defineContract({
  method: 'post',
  path: '/private/back-office/affiliates/leads',
  summary: 'Create an affiliate lead; answers its id and the lead link path',
  tags: ['affiliate', 'back-office'],
  access: 'user',
  permission: 'affiliates.leads',
  body: leadCreateSchema,
  /** 201. */
  response: v.object({
    leadId: v.string(),
    /** The lead link (`/registration?lead_id=...&redirected-from-affiliates=true`). */
    path: v.string(),
    expiresAt: v.string(),
    prefill: leadPrefillSchema,
    affiliate: v.object({
      partner: v.string(),
      code: text,
      campaign: text,
      source: text,
      optionalParam: text,
    }),
  }),
})
