/**
 * Affiliate leads (spec sections 3, 7; docs/decisions/0014): the lead link's prefill lookup, the client's own
 * lead after sign-up, and the back-office call QA and integrations use to make lead links.
 */

import { leadLinkPath } from '../../../domain/affiliate'
import { createLead, getClientLead, getLead } from '../../../domain/contract/affiliate'
import { clientAddress } from '../../auth/transport'
import {
  affiliateOf,
  findClientLead,
  leadPrefill,
  lookUpLead,
  createLead as storeLead,
} from '../../services/affiliate/leads'
import { ok } from '../envelope'
import { db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const affiliateRoutes: AnyRoute[] = [
  implement(getLead, async (c, { params }) =>
    ok(c, await lookUpLead(db(c), params.id, clientAddress(c), deps(c).now())),
  ),

  implement(getClientLead, async (c) => {
    // Most clients came without a lead: that is an answer (null), not a missing resource.
    const row = await findClientLead(db(c), c.get('principal').id)
    return ok(c, row ? leadPrefill(row) : null)
  }),

  implement(createLead, async (c, { body }) => {
    const { logger, now } = deps(c)
    const userId = c.get('principal').id
    const row = await storeLead(db(c), body, userId, now())
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
  }),
]
