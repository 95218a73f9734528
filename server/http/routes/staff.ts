/**
 * Back-office users and roles, and the audit trail (issue 19 items 1 and 2): domain/contract/staff.ts.
 */
import {
  acceptInvitation,
  inviteUser,
  listAudit,
  listUsers,
  resendInvitation,
  updateUser,
} from '../../../domain/contract/staff'
import { manilaDayStart } from '../../../domain/pricing/manila-date'
import { searchAudit } from '../../services/audit/audit'
import {
  acceptStaffInvitation,
  inviteStaff,
  listStaff,
  resendStaffInvitation,
  updateStaff,
} from '../../services/identity/staff'
import { ok, okPage } from '../envelope'
import { db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

const DAY_MS = 86_400_000

export const staffRoutes: AnyRoute[] = [
  implement(listUsers, async (c, { query }) => {
    const { items, total } = await listStaff(db(c), query.page, query.perPage)
    return okPage(c, items, { page: query.page, perPage: query.perPage, total })
  }),
  implement(inviteUser, async (c, { body }) => {
    const { messaging, now } = deps(c)
    return ok(c, await inviteStaff(db(c), messaging, body, c.get('principal').id, now()), 201)
  }),
  implement(updateUser, async (c, { params, body }) =>
    ok(c, await updateStaff(db(c), params.id, body, c.get('principal').id)),
  ),
  implement(resendInvitation, async (c, { params }) => {
    const { messaging, now } = deps(c)
    return ok(c, await resendStaffInvitation(db(c), messaging, params.id, now()))
  }),
  implement(acceptInvitation, async (c, { body }) =>
    ok(c, await acceptStaffInvitation(db(c), body.token, body.password, deps(c).now())),
  ),
  implement(listAudit, async (c, { query }) => {
    const { rows, total } = await searchAudit(db(c), {
      clientId: query.clientId,
      userId: query.userId,
      entity: query.entity || undefined,
      from: query.from ? manilaDayStart(query.from) : undefined,
      to: query.to ? new Date(manilaDayStart(query.to).getTime() + DAY_MS) : undefined,
      page: query.page,
      perPage: query.perPage,
    })
    const items = rows.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      userId: row.userId,
      deviceHash: row.deviceHash,
      call: row.call,
      permission: row.permission,
      outcome: row.outcome as 'done' | 'refused',
      entity: row.entity,
      entityId: row.entityId,
      clientId: row.clientId,
      request: row.request,
      before: row.before,
      after: row.after,
    }))
    return okPage(c, items, { page: query.page, perPage: query.perPage, total })
  }),
]
