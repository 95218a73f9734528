/**
 * Maker-checker (issue 19 items 5 and 6, docs/decisions/0035-maker-checker-and-config-versions.md): the proposals a
 * user may decide, and the decision. The route needs a session only; the proposal's kind names the permission
 * the decider must hold (checked in server/services/approvals/decide.ts).
 */
import { decidableKinds } from '../../../domain/back-office/approvals'
import { approveProposal, listApprovals, rejectProposal } from '../../../domain/contract/approvals'
import { decide } from '../../services/approvals/decide'
import { listProposals } from '../../services/approvals/store'
import { ok, okPage } from '../envelope'
import { type AnyRoute, implement } from '../route'

export const approvalRoutes: AnyRoute[] = [
  implement(listApprovals, async (c, { query }) => {
    const mine = decidableKinds(c.get('principal').roles)
    const kinds = query.kind ? mine.filter((kind) => kind === query.kind) : mine
    const { items, total } = await listProposals(c.get('deps').database.db, { ...query, kinds })
    return okPage(c, items, { page: query.page, perPage: query.perPage, total })
  }),
  implement(approveProposal, async (c, { params, body }) => {
    const principal = c.get('principal')
    const view = await decide(c.get('deps'), {
      id: Number(params.id),
      by: { id: principal.id, roles: principal.roles },
      decision: 'approve',
      reason: body.reason,
      now: new Date(),
    })
    return ok(c, view)
  }),
  implement(rejectProposal, async (c, { params, body }) => {
    const principal = c.get('principal')
    const view = await decide(c.get('deps'), {
      id: Number(params.id),
      by: { id: principal.id, roles: principal.roles },
      decision: 'reject',
      reason: body.reason,
      now: new Date(),
    })
    return ok(c, view)
  }),
]
