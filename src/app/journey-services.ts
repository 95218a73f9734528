/**
 * The journey's wiring in the app: the auth session feeds the browser's flow-sync machine the facts the routing
 * reads (SESSION.CHANGED); the machine asks the flow, and the actual application when a flow's routing reads it
 * (the cash-pickup page, the facebook step); the router context gets the actor, the cookie reader and the guard
 * effects. The sandbox facts come from three places: the QA cookie, the instance's sandbox mode (the deployment's
 * answer, GET /public/environment) and the client's own (their profile); docs/decisions/0039.
 */
import type { QueryClient } from '@tanstack/react-query'
import { waitFor } from 'xstate'
import { getFlow } from '../../domain/contract/journey'
import { getActualApplication } from '../../domain/contract/lending'
import { type ClientFacts, SANDBOX_COOKIE, type SessionFacts } from '../../domain/journey/routing'
import { type AuthSnapshot, type AuthUser, isLoggedIn, isSettled } from '../../machines/auth.machine'
import type { createApiClient } from '../api/client'
import { readCookie, removeCookie } from './cookies'
import { onDeployment } from './deployment'
import { createFlowSyncActor } from './flow-sync-actor'
import type { JourneyRouting } from './journey-routing'
import type { AuthActor } from './services'

/** The client fields the journey rules read, from the session's user (GET /private/client). */
function clientFactsOf(user: AuthUser | null): ClientFacts | null {
  if (!user || user.status === undefined) return null
  const extra = user as AuthUser & { soldDebt?: boolean; closedLoansCount?: number; sandbox?: boolean }
  return {
    firstName: user.firstName ?? null,
    status: user.status,
    soldDebt: extra.soldDebt ?? false,
    closedLoansCount: extra.closedLoansCount ?? 0,
    phoneVerified: user.phoneVerified ?? true,
    sandbox: extra.sandbox ?? false,
  }
}

function sessionFactsOf(snapshot: AuthSnapshot, instanceSandbox: boolean): SessionFacts {
  const admin = isLoggedIn(snapshot) && snapshot.context.claims?.type === 'user'
  return {
    admin,
    qaDisableFlow: readCookie(SANDBOX_COOKIE) !== null,
    instanceSandbox,
    client: admin ? null : clientFactsOf(snapshot.context.user),
  }
}

/**
 * Flow sync (machines/flow-sync.machine.ts) fed by the auth session: once the session has settled, every change
 * of who is logged in (or of their profile) is a SESSION.CHANGED; while a client is logged in the machine polls
 * the flow, and the router's `beforeLoad` guards read it (src/app/journey-routing.ts).
 */
export function createJourneyRouting({
  api,
  queryClient,
  auth,
}: {
  api: ReturnType<typeof createApiClient>
  queryClient: QueryClient
  auth: AuthActor
}): JourneyRouting & { stop(): void } {
  const actor = createFlowSyncActor({
    getFlow: (signal) => api.call(getFlow, {}, { signal, quiet: true }),
    getApplication: (signal) => api.call(getActualApplication, {}, { signal, quiet: true }),
  })
  let last = ''
  // The instance's sandbox mode, as the deployment's last answer said (off until it has answered).
  let instanceSandbox = false
  const publish = (snapshot: AuthSnapshot) => {
    if (!isSettled(snapshot)) return
    // A single-link session sees my loan only: it has no journey of its own.
    const loggedIn = isLoggedIn(snapshot) && snapshot.context.claims?.type === 'client'
    const facts = sessionFactsOf(snapshot, instanceSandbox)
    const key = JSON.stringify([loggedIn, facts])
    if (key === last) return
    last = key
    actor.send({ type: 'SESSION.CHANGED', loggedIn, facts })
  }
  const session = auth.subscribe(publish)
  const stopDeployment = onDeployment((environment) => {
    instanceSandbox = environment.sandboxMode
    publish(auth.getSnapshot())
  })
  publish(auth.getSnapshot())
  return {
    actor,
    readCookie,
    /** Ends the journey's machine and its listeners (a page the server rendered is done with them). */
    stop: () => {
      session.unsubscribe()
      stopDeployment()
      actor.stop()
    },
    effects: {
      removeCookie: ({ name }) => removeCookie(name),
      logout: () => auth.send({ type: 'LOGOUT' }),
      loadProfileAndFlow: () => {
        auth.send({ type: 'USER.RELOAD' })
        actor.send({ type: 'FLOW.REFRESH' })
      },
      loadLoanAndSchedule: () => {
        void queryClient.invalidateQueries({ queryKey: ['loan'] })
      },
    },
  }
}

/**
 * Resolves once the session and, for a client, the journey's flow are known: the auth machine has settled, and
 * the flow sync has its first answer (or has none to ask for). A page the server renders for a session waits for
 * this before it routes, and the browser before it hydrates that page, so both draw it from the same facts
 * (docs/decisions/0052). Never rejects: past `timeoutMs` it resolves with what is known.
 */
export async function sessionKnown(
  services: { auth: AuthActor; journey: JourneyRouting },
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  const left = () => Math.max(0, deadline - Date.now())
  try {
    await waitFor(services.auth, isSettled, { timeout: left() })
    await waitFor(
      services.journey.actor,
      (snapshot) =>
        !snapshot.matches('unknown') &&
        !snapshot.matches({ polling: 'fetching' }) &&
        !snapshot.matches({ polling: 'loadingApplication' }),
      { timeout: left() },
    )
  } catch {
    // Slower than the caller can wait: what is known now.
  }
}
