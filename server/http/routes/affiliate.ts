/**
 * Affiliate leads (spec sections 3, 7; docs/decisions/0014): the lead link's prefill lookup, the client's own
 * lead after sign-up, and the back-office call QA and integrations use to make lead links.
 */
import * as v from 'valibot'
import { leadCreateSchema, leadIdSchema, leadLinkPath } from '../../../domain/affiliate'
import { clientAddress } from '../../auth/transport'
import {
  affiliateOf,
  createLead,
  findClientLead,
  findOpenLead,
  leadNotFound,
  leadPrefill,
} from '../../services/affiliate/leads'
import { limitPerAddress } from '../../services/identity/throttle'
import { ok } from '../envelope'
import { db, deps } from '../request'
import { type AnyRoute, defineRoute } from '../route'

/** Lead lookups per address in 10 minutes: a visitor needs a handful; walking ids needs billions. */
export const LEAD_LOOKUPS_PER_ADDRESS = 30

const nullableString = v.nullable(v.string())
const prefillSchema = v.object({
  leadId: v.string(),
  firstName: nullableString,
  middleName: nullableString,
  lastName: nullableString,
  documentType: nullableString,
  clientIdentificator: nullableString,
  dateOfBirth: nullableString,
  gender: nullableString,
  civilStatus: nullableString,
  email: nullableString,
  phone: nullableString,
})

export const affiliateRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/public/affiliates/leads/:id',
    summary: 'The prefill data of an open lead (unknown, used and expired leads all answer 404)',
    tags: ['affiliate'],
    access: 'public',
    params: v.object({ id: leadIdSchema }),
    response: prefillSchema,
    handler: async (c, { params }) => {
      const { now } = deps(c)
      await limitPerAddress(db(c), 'lead', clientAddress(c), LEAD_LOOKUPS_PER_ADDRESS, 10, now())
      const row = await findOpenLead(db(c), params.id, now())
      if (!row) throw leadNotFound()
      return ok(c, leadPrefill(row))
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/affiliate-lead',
    summary: "The prefill data of the lead the current client's sign-up used, or null without one",
    tags: ['affiliate'],
    access: 'client',
    response: v.nullable(prefillSchema),
    handler: async (c) => {
      // Most clients came without a lead: that is an answer (null), not a missing resource.
      const row = await findClientLead(db(c), c.get('principal').id)
      return ok(c, row ? leadPrefill(row) : null)
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/back-office/affiliates/leads',
    summary: 'Create an affiliate lead; answers its id and the lead link path',
    tags: ['affiliate', 'back-office'],
    access: 'user',
    body: leadCreateSchema,
    handler: async (c, { body }) => {
      const { logger, now } = deps(c)
      const userId = c.get('principal').id
      const row = await createLead(db(c), body, userId, now())
      logger.info({ userId, partner: row.partner, event: 'affiliate.lead_created' }, 'affiliate lead created')
      return ok(
        c,
        {
          leadId: row.id,
          path: leadLinkPath(row.id),
          expiresAt: row.expiresAt.toISOString(),
          prefill: leadPrefill(row),
          affiliate: affiliateOf(row),
        },
        201,
      )
    },
  }),
]
