/**
 * Long-lived services of the browser app, created once and handed to React and to the router context.
 */
import { QueryClient } from '@tanstack/react-query'
import { type Actor, createActor } from 'xstate'
import { appShellMachine } from '../../machines/app-shell.machine'
import { createApiClient } from '../api/client'

export function createAppServices() {
  const shell = createActor(appShellMachine, { input: {} }).start()
  let token: string | null = null
  const api = createApiClient({
    getToken: () => token,
    setToken: (next) => {
      token = next
    },
    onServerFailure: (status, path) => shell.send({ type: 'api.failed', status, path }),
    onUnauthorized: () => {
      // The auth session (issue 4) logs out here; until then the token is simply dropped.
      token = null
    },
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
  return { shell, api, queryClient }
}

export type AppServices = ReturnType<typeof createAppServices>
export type ShellActor = Actor<typeof appShellMachine>
