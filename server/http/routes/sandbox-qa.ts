/**
 * The sandbox panel's routes (domain/contract/sandbox-qa.ts, docs/decisions/0039-sandbox-panel.md). A person with
 * the QA cookie runs a scenario through the same service as the back-office route (real services and the clock,
 * server/services/sandbox/scenarios.ts) and this browser is logged in as the fresh client it made. The
 * back-office steps a scenario takes (a manual payment, a hold, a sale, a write-off) are recorded under a system
 * user, "Sandbox QA", that has no role and cannot log in, so the audit trail never names a person who did not act.
 */

import { eq } from 'drizzle-orm'
import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import * as contract from '../../../domain/contract/sandbox-qa'
import { DomainError } from '../../../domain/errors'
import { stepMeta } from '../../../domain/journey/client-journey.machine'
import { journeyPages, resolveDestination } from '../../../domain/journey/destinations'
import { SANDBOX_COOKIE } from '../../../domain/journey/routing'
import { isScenarioName, scenarioSummaries } from '../../../domain/sandbox/scenarios'
import { sendToken } from '../../auth/transport'
import type { DbOrTx } from '../../db/client'
import { backOfficeUser, client } from '../../db/schema-identity'
import { clientView } from '../../services/identity/clients'
import { openSession } from '../../services/identity/sessions'
import { assertClockMovable } from '../../services/payments/clock'
import { runScenario } from '../../services/sandbox/scenarios'
import { requesterOf } from '../code-delivery'
import type { AppEnv } from '../context'
import { ok } from '../envelope'
import { okSlice } from '../paging'
import { db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

/** The system user the panel's scenarios act as: no role, no password, inactive (it can never log in). */
export const SANDBOX_QA_EMAIL = 'sandbox-qa@hiram.invalid'

async function sandboxQaUser(database: DbOrTx): Promise<number> {
  await database
    .insert(backOfficeUser)
    .values({ email: SANDBOX_QA_EMAIL, name: 'Sandbox QA (system)', roles: [], active: false })
    .onConflictDoNothing()
  const [row] = await database
    .select({ id: backOfficeUser.id })
    .from(backOfficeUser)
    .where(eq(backOfficeUser.email, SANDBOX_QA_EMAIL))
  return row!.id
}

/** Sandbox deployments only (404 elsewhere), and only for a browser holding the QA cookie. */
function assertQa(c: Context<AppEnv>) {
  assertClockMovable(deps(c))
  if (getCookie(c, SANDBOX_COOKIE) === undefined)
    throw new DomainError(
      'forbidden',
      'qaCookieRequired',
      'The sandbox panel is for QA: set the QA cookie on /admin/router first.',
    )
}

export const sandboxQaRoutes: AnyRoute[] = [
  implement(contract.listQaScenarios, async (c, { query }) => {
    assertQa(c)
    return okSlice(c, scenarioSummaries, query)
  }),

  implement(contract.runQaScenario, async (c, { params, body }) => {
    assertQa(c)
    if (!isScenarioName(params.name))
      throw new DomainError('notFound', 'scenarioNotFound', 'No sandbox scenario of that name.')
    const outcome = await runScenario(
      deps(c),
      params.name,
      { days: body.days },
      { userId: await sandboxQaUser(db(c)) },
    )
    const [row] = await db(c).select().from(client).where(eq(client.id, outcome.clientId))
    const view = await clientView(db(c), row!)
    const destination = view.soldDebt
      ? journeyPages.debtSold
      : resolveDestination(stepMeta(outcome.journeyStep).destination, {
          client: { firstName: view.firstName, closedLoansCount: view.closedLoansCount },
          application: null,
        })
    const { deviceHash } = await requesterOf(c, body.deviceId)
    const { token } = await openSession(
      db(c),
      deps(c).secrets.jwtSecret,
      { type: 'client', id: outcome.clientId, deviceHash },
      deps(c).now(),
    )
    sendToken(c, token)
    deps(c).logger.info(
      { event: 'sandbox.qa_scenario', scenario: params.name, clientId: outcome.clientId },
      'sandbox panel ran a scenario',
    )
    return ok(c, { ...outcome, destination }, 201)
  }),
]
