/**
 * The browser's capabilities the app uses (domain/browser-capabilities.ts), detected once and kept in
 * localStorage for 1440 minutes with the detection time and the user agent (spec section 9). Detected again when
 * the kept answer is stale, unreadable or invalid, or comes from another user agent; where storage is refused
 * (a private window, a full quota) it is detected on each call and nothing throws.
 *
 * Imported only by lazily loaded code (the registration steps, the install prompt): never on the home page's
 * critical path. Read it in the browser only (an effect, a handler, or `useBrowserCapability` in a render): on the
 * server every capability is false.
 */
import { useSyncExternalStore } from 'react'
import {
  type BrowserCapabilities,
  freshCapabilities,
  type StoredCapabilities,
} from '../../domain/browser-capabilities'

/** Where the detection is kept. */
export const BROWSER_CAPABILITIES_KEY = 'hiram.browser-capabilities'

/** Asks the browser. Cheap, but the spec wants the answer kept rather than asked on every page. */
export function detectBrowserCapabilities(): BrowserCapabilities {
  const browser = typeof navigator !== 'undefined'
  return {
    geolocation: browser && 'geolocation' in navigator,
    cameraCapture: typeof HTMLInputElement !== 'undefined' && 'capture' in HTMLInputElement.prototype,
    installedRelatedApps:
      browser &&
      typeof (navigator as Navigator & { getInstalledRelatedApps?: unknown }).getInstalledRelatedApps ===
        'function',
  }
}

export interface CapabilityCacheOptions {
  /** The storage, or undefined where there is none; reading it may throw (a refused localStorage). */
  storage?: () => Storage | undefined
  now?: () => number
  userAgent?: string
  detect?: () => BrowserCapabilities
}

const defaultStorage = () => (typeof window === 'undefined' ? undefined : window.localStorage)

/** The capabilities, from the kept detection while it is fresh, otherwise detected now and kept. */
export function browserCapabilities(options: CapabilityCacheOptions = {}): BrowserCapabilities {
  const {
    storage = defaultStorage,
    now = Date.now,
    userAgent = typeof navigator === 'undefined' ? '' : navigator.userAgent,
    detect = detectBrowserCapabilities,
  } = options
  let store: Storage | undefined
  try {
    store = storage()
    const kept = freshCapabilities(store?.getItem(BROWSER_CAPABILITIES_KEY) ?? null, now(), userAgent)
    if (kept) return kept
  } catch {
    store = undefined // storage refused: detect each time
  }
  const capabilities = detect()
  if (store) {
    const record: StoredCapabilities = { detectedAt: Math.trunc(now()), userAgent, capabilities }
    try {
      store.setItem(BROWSER_CAPABILITIES_KEY, JSON.stringify(record))
    } catch {
      // quota or a refused write: the next call detects again
    }
  }
  return capabilities
}

const noSubscription = () => () => {}

/**
 * One capability, for rendering: false in the server's render and while the browser hydrates it (the server knows
 * no browser: a page rendered for a session, docs/decisions/0052), the browser's own answer from then on (and from
 * the first render of a page the browser renders itself).
 */
export function useBrowserCapability(name: keyof BrowserCapabilities): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => browserCapabilities()[name],
    () => false,
  )
}
