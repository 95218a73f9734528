/**
 * What the app asks the browser it can do, and how long the answer is kept (spec section 9: "Browser capability
 * cache 1440 minutes"; docs/decisions/0049-browser-capability-cache.md). Pure: the detection and the storage
 * are in src/app/browser-capabilities.ts.
 *
 * Only whether an API exists is kept, never a permission: a client may allow or refuse the location in the
 * middle of a session, so "can ask for the location" is cached and "may read it" is asked each time.
 */
import * as v from 'valibot'

/** Spec section 9: a detection is reused for 1440 minutes (one day), then made again. */
export const BROWSER_CAPABILITY_CACHE_MINUTES = 1440
export const BROWSER_CAPABILITY_CACHE_MS = BROWSER_CAPABILITY_CACHE_MINUTES * 60_000

/** Unknown keys are dropped: nothing else kept under the key (a permission, say) ever reaches the app. */
export const browserCapabilitiesSchema = v.object({
  /** The Geolocation API exists (the address step's "Share my location"); not whether it is allowed. */
  geolocation: v.boolean(),
  /** A file input can open the camera (`capture`, the documents step's photos): phones' browsers. */
  cameraCapture: v.boolean(),
  /** `navigator.getInstalledRelatedApps` exists (the install prompt hides the store link once the app is in). */
  installedRelatedApps: v.boolean(),
})
export type BrowserCapabilities = v.InferOutput<typeof browserCapabilitiesSchema>

/** What is kept in the browser: the answer, when it was found (ms since the epoch) and in which browser. */
export const storedCapabilitiesSchema = v.object({
  detectedAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
  userAgent: v.string(),
  capabilities: browserCapabilitiesSchema,
})
export type StoredCapabilities = v.InferOutput<typeof storedCapabilitiesSchema>

/**
 * The kept answer if it may still be used: readable, valid, from this same browser (an updated browser may do
 * more) and younger than 1440 minutes. A detection time in the future (the clock was put back) counts as stale.
 */
export function freshCapabilities(
  stored: string | null,
  now: number,
  userAgent: string,
): BrowserCapabilities | null {
  if (stored === null) return null
  let json: unknown
  try {
    json = JSON.parse(stored)
  } catch {
    return null
  }
  const parsed = v.safeParse(storedCapabilitiesSchema, json)
  if (!parsed.success) return null
  const { detectedAt, capabilities } = parsed.output
  if (parsed.output.userAgent !== userAgent) return null
  const age = now - detectedAt
  return age >= 0 && age < BROWSER_CAPABILITY_CACHE_MS ? capabilities : null
}
