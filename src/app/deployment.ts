/**
 * What the server says about the deployment (GET /web/public/environment, docs/decisions/0018), asked once per
 * page load by the layout's sandbox banner and read by the captcha (which provider's script to load). Outside
 * React, so the captcha can await the same answer the banner asked for instead of asking again.
 */
import { getEnvironment } from '../../domain/contract/environment'
import type { Environment } from '../../domain/environment'
import type { ApiClient } from '../api/client'

let latest: Promise<Environment | null> | undefined

/** Asks the server; null when it cannot say. Quiet: a failure never replaces the page with the error page. */
export function fetchDeployment(api: ApiClient, signal?: AbortSignal): Promise<Environment | null> {
  latest = Promise.resolve()
    .then(() => api.call(getEnvironment, {}, { signal, quiet: true }))
    .catch(() => null)
  return latest
}

/** The answer of the last request, or null when none was made (a page without the layout, a unit test). */
export function knownDeployment(): Promise<Environment | null> {
  return latest ?? Promise.resolve(null)
}
