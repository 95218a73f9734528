/**
 * Debt sales and write-offs (issue 18, items 3 and 4): implements domain/contract/debt.ts.
 * docs/decisions/0029-debt-sale-and-write-off.md.
 */
import * as debt from '../../../domain/contract/debt'
import { proposeDebtSale, proposeWriteOff } from '../../services/approvals/servicing-actions'
import { approvalView } from '../../services/approvals/store'
import {
  createAgency,
  defaultCandidates,
  forwardsPage,
  listAgencies,
  markForwarded,
  salesPage,
  soldDebtOf,
} from '../../services/servicing/debt-sale'
import { ok, okPage } from '../envelope'
import { clientIdOf, db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const debtRoutes: AnyRoute[] = [
  implement(debt.listCollectionAgencies, async (c, { query }) => {
    const { items, total } = await listAgencies(db(c), query.page, query.perPage)
    return okPage(c, items, { ...query, total })
  }),

  implement(debt.createCollectionAgency, async (c, { body }) =>
    ok(c, await createAgency(deps(c), clientIdOf(c), body), 201),
  ),

  implement(debt.listDefaultCandidates, async (c, { query }) => {
    const { items, total } = await defaultCandidates(db(c), query.page, query.perPage)
    return okPage(c, items, { ...query, total })
  }),

  // Maker-checker (issue 19 item 5): 202 with the proposal; another user's approval sells.
  implement(debt.sellDebt, async (c, { body }) => {
    const proposal = await proposeDebtSale(db(c), clientIdOf(c), body)
    return ok(c, (await approvalView(db(c), proposal.id))!, 202)
  }),

  implement(debt.listDebtSales, async (c, { query }) => {
    const { items, total } = await salesPage(db(c), query.page, query.perPage)
    return okPage(c, items, { ...query, total })
  }),

  implement(debt.listDebtForwards, async (c, { query }) => {
    const { items, total } = await forwardsPage(db(c), query)
    return okPage(c, items, { ...query, total })
  }),

  implement(debt.markDebtForwarded, async (c, { params }) =>
    ok(c, await markForwarded(deps(c), clientIdOf(c), params.id)),
  ),

  // Maker-checker (issue 19 item 5): 202 with the proposal; another user's approval writes the loan off.
  implement(debt.writeOffLoan, async (c, { params, body }) => {
    const proposal = await proposeWriteOff(db(c), clientIdOf(c), { loanId: params.id, reason: body.reason })
    return ok(c, (await approvalView(db(c), proposal.id))!, 202)
  }),

  implement(debt.getSoldDebt, async (c, { query }) => {
    const { items, total } = await soldDebtOf(db(c), clientIdOf(c), query.page, query.perPage)
    return okPage(c, items, { ...query, total })
  }),
]
