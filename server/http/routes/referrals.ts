/**
 * Refer-a-friend (spec section 7): domain/contract/referrals.ts over server/services/referrals/referrals.ts, behind
 * the `referrals` configuration switch (docs/decisions/0041-referrals.md). Logs carry ids and statuses only.
 */
import { createReferral, listReferrals, updateReferral } from '../../../domain/contract/referrals'
import {
  cancelInvitation,
  inviteFriend,
  listReferrals as referralsOf,
} from '../../services/referrals/referrals'
import { ok, okPage } from '../envelope'
import { clientIdOf, db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const referralRoutes: AnyRoute[] = [
  implement(listReferrals, async (c, { query }) => {
    const { items, total } = await referralsOf(db(c), clientIdOf(c), query, deps(c).now())
    return okPage(c, items, { ...query, total })
  }),

  implement(createReferral, async (c, { body }) => {
    const created = await inviteFriend(db(c), clientIdOf(c), body.mobilePhone.number, deps(c).now())
    deps(c).logger.info({ clientId: clientIdOf(c), referralId: created.id }, 'referral invitation created')
    return ok(c, created, 201)
  }),

  implement(updateReferral, async (c, { params }) => {
    const updated = await cancelInvitation(db(c), clientIdOf(c), params.id, deps(c).now())
    deps(c).logger.info({ clientId: clientIdOf(c), referralId: updated.id }, 'referral invitation withdrawn')
    return ok(c, updated)
  }),
]
