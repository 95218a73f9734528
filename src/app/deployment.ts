/**
 * What the server says about the deployment (GET /web/public/environment, docs/decisions/0018), asked once per
 * page load by the layout's sandbox banner and read by the captcha (which provider's script to load). Outside
 * React, so the captcha can await the same answer the banner asked for instead of asking again; `useDeployment`
 * is the same answer as a query, shared by the banner and the back office's sandbox switches.
 */
import { useQuery } from '@tanstack/react-query'
import { getEnvironment } from '../../domain/contract/environment'
import type { Environment } from '../../domain/environment'
import type { ApiClient } from '../api/client'
import { useApi } from './app-context'

let latest: Promise<Environment | null> | undefined
const listeners = new Set<(environment: Environment) => void>()

/** Asks the server; null when it cannot say. Quiet: a failure never replaces the page with the error page. */
export function fetchDeployment(api: ApiClient, signal?: AbortSignal): Promise<Environment | null> {
  latest = Promise.resolve()
    .then(() => api.call(getEnvironment, {}, { signal, quiet: true }))
    .then((environment) => {
      for (const listener of listeners) listener(environment)
      return environment
    })
    .catch(() => null)
  return latest
}

/**
 * An answer the page came with (a server-rendered page's query cache, or one asked before the first render,
 * src/main.tsx): known to `knownDeployment` and told to the listeners as if it had just been asked.
 */
export function announceDeployment(environment: Environment): void {
  latest = Promise.resolve(environment)
  for (const listener of listeners) listener(environment)
}

/**
 * Calls `listener` with every answer from now on (the journey's sandbox facts read the instance's sandbox mode
 * from it, docs/decisions/0039). Answers the function that stops it.
 */
export function onDeployment(listener: (environment: Environment) => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The answer of the last request, or null when none was made (a page without the layout, a unit test). */
export function knownDeployment(): Promise<Environment | null> {
  return latest ?? Promise.resolve(null)
}

export const DEPLOYMENT_QUERY_KEY = ['public', 'environment'] as const

export function useDeployment() {
  const api = useApi()
  return useQuery({
    queryKey: DEPLOYMENT_QUERY_KEY,
    // A failed answer is null: nothing sandbox shows, and the page is never replaced by the error page.
    queryFn: ({ signal }) => fetchDeployment(api, signal),
    staleTime: Number.POSITIVE_INFINITY,
  })
}
