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
import { createJourneyRouting } from './journey-services'
import { authRefreshInterval } from './runtime-settings'

/** The cookie the server writes with every token (docs/decisions/0006); the app only reads and removes it. */
export const TOKEN_COOKIE = 'auth.token'

/**
 * Query keys of data anyone may see start with 'public'; every other cached query may belong to the user and
 * is dropped when the user becomes empty (spec section 4).
 */
export const isPublicQueryKey = (key: readonly unknown[]) => key[0] === 'public'

export function createAppServices() {
  const shell = createActor(appShellMachine, { input: {} }).start()
  // The session machine owns the token; the API client reads it from there and hands every new one back.
  let auth: AuthActor | null = null
  const api = createApiClient({
    getToken: () => auth?.getSnapshot().context.token ?? null,
    setToken: (token) => auth?.send({ type: 'TOKEN.RECEIVED', token }),
    onServerFailure: (status, path) => shell.send({ type: 'api.failed', status, path }),
    onUnauthorized: (status, path) => auth?.send({ type: 'API.UNAUTHORIZED', status, path }),
    getDeviceId: deviceId,
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
  const restored = readCookie(TOKEN_COOKIE)
  if (restored) auth.send({ type: 'TOKEN.RECEIVED', token: restored })
  const journey = createJourneyRouting({ api, queryClient, auth })
  // The calculator's submit lives at app level: home's and no-loan's route guards read it.
  const application = createApplicationServices({
    api,
    refreshJourney: () => journey.actor.send({ type: 'FLOW.REFRESH' }),
  })
  return { shell, api, queryClient, auth, journey, application }
}

export type AppServices = ReturnType<typeof createAppServices>
export type ShellActor = Actor<typeof appShellMachine>
export type AuthActor = Actor<typeof authMachine>
