/**
 * Long-lived services of the browser app, created once and handed to React and to the router context.
 */
import { QueryClient } from '@tanstack/react-query'
import { type Actor, createActor, fromPromise } from 'xstate'
import { getBackOfficeUser, refreshUserToken, userLogout } from '../../domain/contract/back-office'
import { clientLogout, getClient, refreshClientToken } from '../../domain/contract/identity'
import { appShellMachine } from '../../machines/app-shell.machine'
import { type AuthUser, authMachine, type SessionActorInput } from '../../machines/auth.machine'
import { createApiClient } from '../api/client'
import { deviceId } from '../features/auth/device'
import { createApplicationServices } from './application-services'
import { readCookie, removeCookie } from './cookies'
import type { JourneyRouting } from './journey-routing'
import { createJourneyRouting } from './journey-services'
import { authRefreshInterval } from './runtime-settings'

/** The cookie the server writes with every token (docs/decisions/0006); the app only reads and removes it. */
export const TOKEN_COOKIE = 'auth.token'

/**
 * Query keys of data anyone may see start with 'public'; every other cached query may belong to the user and
 * is dropped when the user becomes empty (spec section 4).
 */
export const isPublicQueryKey = (key: readonly unknown[]) => key[0] === 'public'

/**
 * How the services are made where there is no browser: the server renders a client's page (src/entry-server.tsx,
 * docs/decisions/0052) with the session token from the request and its own API handler.
 */
export interface AppServicesOptions {
  /** The session to restore; default: the `auth.token` cookie of the browser. */
  token?: string | null
  /** Where API calls go (src/api/client.ts); default: the browser's fetch. */
  fetch?: typeof globalThis.fetch
  /**
   * The page is one the server renders for the session, or the browser hydrates from such a render
   * (ADR 0052): the parts a browser-rendered page adds after load are in its first render instead.
   */
  sessionPage?: boolean
}

export function createAppServices(options: AppServicesOptions = {}) {
  const shell = createActor(appShellMachine, { input: {} }).start()
  // The session machine owns the token; the API client reads it from there and hands every new one back.
  let auth: AuthActor | null = null
  const api = createApiClient({
    getToken: () => auth?.getSnapshot().context.token ?? null,
    setToken: (token) => auth?.send({ type: 'TOKEN.RECEIVED', token }),
    onServerFailure: (status, path) => shell.send({ type: 'api.failed', status, path }),
    onUnauthorized: (status, path) => auth?.send({ type: 'API.UNAUTHORIZED', status, path }),
    // The server has no device of its own to name.
    getDeviceId: options.fetch ? () => null : deviceId,
    fetch: options.fetch,
  })
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        // A failed call already shows its error (field, toast or full page); retrying would only repeat it.
        retry: false,
      },
    },
  })
  const sessionMachine = authMachine.provide({
    actors: {
      loadUser: fromPromise<AuthUser, SessionActorInput>(({ input, signal }) =>
        input.claims.type === 'user'
          ? api.call(getBackOfficeUser, { params: { id: input.claims.sub } }, { signal })
          : api.call(getClient, {}, { signal }),
      ),
      refreshToken: fromPromise<unknown, SessionActorInput>(({ input, signal }) =>
        input.claims.type === 'user'
          ? api.call(refreshUserToken, {}, { signal })
          : api.call(refreshClientToken, {}, { signal }),
      ),
      logout: fromPromise<unknown, SessionActorInput>(({ input }) =>
        input.claims.type === 'user' ? api.call(userLogout) : api.call(clientLogout),
      ),
    },
    actions: {
      forgetToken: () => removeCookie(TOKEN_COOKIE),
      resetClientData: () => queryClient.removeQueries({ predicate: (q) => !isPublicQueryKey(q.queryKey) }),
    },
  })
  auth = createActor(sessionMachine, { input: { refreshInterval: authRefreshInterval() } }).start()
  // After a reload the session comes back from the cookie; an expired or malformed one is ignored.
  const restored = options.token === undefined ? readCookie(TOKEN_COOKIE) : options.token
  if (restored) auth.send({ type: 'TOKEN.RECEIVED', token: restored })
  const journeyWiring = createJourneyRouting({ api, queryClient, auth })
  const journey: JourneyRouting = journeyWiring
  // The calculator's submit lives at app level: home's and no-loan's route guards read it.
  const application = createApplicationServices({
    api,
    refreshJourney: () => journey.actor.send({ type: 'FLOW.REFRESH' }),
  })
  /** Stops every machine and listener: the server is done with a page it rendered. */
  const stop = () => {
    auth?.stop()
    shell.stop()
    journeyWiring.stop()
    queryClient.clear()
  }
  return {
    shell,
    api,
    queryClient,
    auth,
    journey,
    application,
    stop,
    sessionPage: options.sessionPage ?? false,
  }
}

export type AppServices = ReturnType<typeof createAppServices>
export type ShellActor = Actor<typeof appShellMachine>
export type AuthActor = Actor<typeof authMachine>
