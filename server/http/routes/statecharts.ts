/**
 * Live statecharts for analysts (issue 20, item 3): the server's lifecycles with their live counts and a funnel
 * over a Manila date range, and the clients or loans in one state. Read-only; logs carry nothing personal.
 */
import { getStatecharts, listStateMembers } from '../../../domain/contract/statecharts'
import { statechartRange, statecharts, stateMembers } from '../../services/back-office/statecharts'
import { ok, okPage } from '../envelope'
import { db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const statechartRoutes: AnyRoute[] = [
  implement(getStatecharts, async (c, { query }) =>
    ok(c, await statecharts(db(c), statechartRange(query, deps(c).now()))),
  ),

  implement(listStateMembers, async (c, { params, query }) => {
    const { items, total } = await stateMembers(db(c), params.machine, params.state, query)
    return okPage(c, items, { ...query, total })
  }),
]
