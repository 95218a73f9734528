/**
 * The sandbox scenarios (issue 20, item 2): domain/contract/sandbox-scenarios.ts over
 * server/services/sandbox/scenarios.ts. Both answer 404 on a production server (no sandbox adapter), as the
 * sandbox clock does; a run is a back-office write, so the route layer audits it.
 */
import * as contract from '../../../domain/contract/sandbox-scenarios'
import { DomainError } from '../../../domain/errors'
import { isScenarioName, scenarioSummaries } from '../../../domain/sandbox/scenarios'
import { assertClockMovable } from '../../services/payments/clock'
import { runScenario } from '../../services/sandbox/scenarios'
import { ok } from '../envelope'
import { okSlice } from '../paging'
import { clientIdOf, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const sandboxScenarioRoutes: AnyRoute[] = [
  implement(contract.listSandboxScenarios, async (c, { query }) => {
    assertClockMovable(deps(c))
    return okSlice(c, scenarioSummaries, query)
  }),

  implement(contract.runSandboxScenario, async (c, { params, body }) => {
    assertClockMovable(deps(c))
    if (!isScenarioName(params.name))
      throw new DomainError('notFound', 'scenarioNotFound', 'No sandbox scenario of that name.')
    // clientIdOf is the principal's id: here the back-office user who runs the scenario.
    return ok(c, await runScenario(deps(c), params.name, body, { userId: clientIdOf(c) }), 201)
  }),
]
