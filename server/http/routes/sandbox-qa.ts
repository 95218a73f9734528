/**
 * The sandbox panel's routes (domain/contract/sandbox-qa.ts, docs/decisions/0039-sandbox-panel.md). A person with
 * the QA cookie runs a scenario through the same service as the back-office route (real services and the clock,
 * server/services/sandbox/scenarios.ts) and this browser is logged in as the fresh client it made. The
 * back-office steps a scenario takes (a manual payment, a hold, a sale, a write-off) are recorded under a system
 * user, "Sandbox QA", that has no role and cannot log in, so the audit trail never names a person who did not act.
 *
 * The instance's sandbox mode (server/services/sandbox/mode.ts) counts as the QA cookie for every browser. A
 * logged-in client in sandbox mode (the cookie, the instance's switch or their own) runs a scenario on themself
 * over the client routes: same scenarios, same answer, no new session.
 */

import { eq } from 'drizzle-orm'
import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import * as contract from '../../../domain/contract/sandbox-qa'
import { DomainError } from '../../../domain/errors'
import { type JourneyStep, stepMeta } from '../../../domain/journey/client-journey.machine'
import { journeyPages, resolveDestination } from '../../../domain/journey/destinations'
import { SANDBOX_COOKIE } from '../../../domain/journey/routing'
import { isScenarioName, type ScenarioName, scenarioSummaries } from '../../../domain/sandbox/scenarios'
import { sendToken } from '../../auth/transport'
import type { DbOrTx } from '../../db/client'
import { backOfficeUser, client } from '../../db/schema-identity'
import { clientView } from '../../services/identity/clients'
import { openSession } from '../../services/identity/sessions'
import { assertClockMovable } from '../../services/payments/clock'
import { clientSandboxOn, instanceSandboxOn } from '../../services/sandbox/mode'
import { runScenario } from '../../services/sandbox/scenarios'
import { requesterOf } from '../code-delivery'
import type { AppEnv } from '../context'
import { ok } from '../envelope'
import { okSlice } from '../paging'
import { clientIdOf, db, deps } from '../request'
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

const hasQaCookie = (c: Context<AppEnv>) => getCookie(c, SANDBOX_COOKIE) !== undefined

/**
 * Sandbox deployments only (404 elsewhere), and only for a browser holding the QA cookie or while the instance's
 * sandbox mode is on.
 */
async function assertQa(c: Context<AppEnv>) {
  assertClockMovable(deps(c))
  if (hasQaCookie(c) || (await instanceSandboxOn(deps(c)))) return
  throw new DomainError(
    'forbidden',
    'qaCookieRequired',
    "The sandbox panel is for QA: set the QA cookie on /admin/router first, or turn on the instance's sandbox mode.",
  )
}

/** The logged-in client is in sandbox mode: the QA cookie, the instance's switch or the client's own. */
async function assertClientInSandbox(c: Context<AppEnv>) {
  assertClockMovable(deps(c))
  if (hasQaCookie(c) || (await instanceSandboxOn(deps(c)))) return
  // A sandbox deployment (asserted above): the client's own switch counts.
  if (await clientSandboxOn(db(c), true, clientIdOf(c))) return
  throw new DomainError(
    'forbidden',
    'sandboxModeRequired',
    'Sandbox mode is off for this client: set the QA cookie, or have an administrator turn sandbox mode on for the instance or for this client.',
  )
}

function scenarioNamed(name: string): ScenarioName {
  if (!isScenarioName(name))
    throw new DomainError('notFound', 'scenarioNotFound', 'No sandbox scenario of that name.')
  return name
}

/** The page the client's journey is on after the run: where the panel takes the browser. */
async function destinationOf(
  c: Context<AppEnv>,
  outcome: { clientId: number; journeyStep: JourneyStep },
): Promise<string> {
  const [row] = await db(c).select().from(client).where(eq(client.id, outcome.clientId))
  // Only the journey's facts are read here, not the client's sandbox mode.
  const view = await clientView(db(c), row!, false)
  return view.soldDebt
    ? journeyPages.debtSold
    : resolveDestination(stepMeta(outcome.journeyStep).destination, {
        client: { firstName: view.firstName, closedLoansCount: view.closedLoansCount },
        application: null,
      })
}

export const sandboxQaRoutes: AnyRoute[] = [
  implement(contract.listQaScenarios, async (c, { query }) => {
    await assertQa(c)
    return okSlice(c, scenarioSummaries, query)
  }),

  implement(contract.runQaScenario, async (c, { params, body }) => {
    await assertQa(c)
    const name = scenarioNamed(params.name)
    const outcome = await runScenario(
      deps(c),
      name,
      { days: body.days },
      { userId: await sandboxQaUser(db(c)) },
    )
    const destination = await destinationOf(c, outcome)
    const { deviceHash } = await requesterOf(c, body.deviceId)
    const { token } = await openSession(
      db(c),
      deps(c).secrets.jwtSecret,
      { type: 'client', id: outcome.clientId, deviceHash },
      deps(c).now(),
    )
    sendToken(c, token)
    deps(c).logger.info(
      { event: 'sandbox.qa_scenario', scenario: name, clientId: outcome.clientId },
      'sandbox panel ran a scenario',
    )
    return ok(c, { ...outcome, destination }, 201)
  }),

  implement(contract.listClientScenarios, async (c, { query }) => {
    await assertClientInSandbox(c)
    return okSlice(c, scenarioSummaries, query)
  }),

  // The logged-in client puts themself in a state, from where they stand (409 `scenarioStuck` or the journey's
  // conflict when the state cannot be reached from there). The session stays: no token is sent.
  implement(contract.runClientScenario, async (c, { params, body }) => {
    await assertClientInSandbox(c)
    const name = scenarioNamed(params.name)
    const clientId = clientIdOf(c)
    const outcome = await runScenario(
      deps(c),
      name,
      { days: body.days, clientId },
      { userId: await sandboxQaUser(db(c)) },
    )
    const destination = await destinationOf(c, outcome)
    deps(c).logger.info(
      { event: 'sandbox.client_scenario', scenario: name, clientId },
      'a client in sandbox mode ran a scenario on themself',
    )
    return ok(c, { ...outcome, destination }, 201)
  }),
]
