/**
 * Settings the app reads at start-up from the browser itself, for QA and end-to-end tests
 * (docs/decisions/0009). Each can only make the app stricter or chattier, never weaker: the server enforces
 * every rule on its own.
 */
import { REFRESH_INTERVAL_MS } from '../../machines/auth.machine'

/** localStorage key: a shorter token-refresh interval in ms (the e2e test proves a refresh in seconds). */
export const AUTH_REFRESH_SETTING = 'hiram:auth-refresh-ms'
/** Never more often than once a second, never less often than the spec's 240000 ms. */
export const MIN_AUTH_REFRESH_MS = 1000

export function authRefreshInterval(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): number {
  const raw = Number(storage?.getItem(AUTH_REFRESH_SETTING))
  if (!Number.isFinite(raw) || raw <= 0) return REFRESH_INTERVAL_MS
  return Math.min(REFRESH_INTERVAL_MS, Math.max(MIN_AUTH_REFRESH_MS, Math.round(raw)))
}

function safeStorage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    // Storage can be blocked (privacy settings): the spec's default applies.
    return undefined
  }
}
