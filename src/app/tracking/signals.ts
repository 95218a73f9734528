/**
 * The fraud signals the application carries (spec section 7: iovation.ioBB, hotjarUserId, seonSession,
 * juicySessionId; docs/decisions/0042), once the client consented and the tracking module collected them, and the
 * application's marketing data. The calculator's submit imports it only when applying, so it stays off the home
 * route's critical path; the collecting code (src/app/tracking/client-boot.ts) fills it in.
 */
import { isMarketingParam, MARKETING_QUERY_KEY } from '../../../domain/campaign'
import { googleModelOf } from '../../../domain/google'
import { ANALYTICS_QUERY_COOKIE } from '../../../domain/journey/routing'
import { readCookie } from '../cookies'

/** The query key of the device-data consent, shared by the layout's notice and the profile's setting. */
export const DEVICE_CONSENT_QUERY = ['tracking', 'consent'] as const

export interface FraudSignals {
  ioBB: string
  seonSession?: string
  juicySessionId?: string
  hotjarUserId?: string
}

let current: Promise<FraudSignals | null> | null = null

export function provideFraudSignals(signals: Promise<FraudSignals | null>) {
  current = signals.catch(() => null)
}

export function forgetFraudSignals() {
  current = null
}

/** What was collected; null without consent, before collection, or when it takes longer than `waitMs`. */
export function fraudSignals(waitMs = 3000): Promise<FraudSignals | null> {
  if (!current) return Promise.resolve(null)
  return Promise.race([current, new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs))])
}

/**
 * The application's marketing data (spec section 7): the marketing parameters of the stored analytics query, at
 * most 20, each value at most 200 characters, and the Google model's `keywordData` (spec section 3,
 * domain/google.ts) when the visitor came from a Google Ads click with a keyword; null when there are none.
 */
export function readMarketing(now = Date.now()): Record<string, string> | null {
  const raw = readCookie(ANALYTICS_QUERY_COOKIE) ?? keptMarketingQuery(now)
  if (!raw) return null
  const found: Record<string, string> = {}
  for (const [key, value] of new URLSearchParams(raw)) {
    if (Object.keys(found).length >= 20) break
    if (isMarketingParam(key) && value && !(key in found)) found[key] = value.slice(0, 200)
  }
  const google = googleModelOf(raw)
  if (google) found.keywordData = google.keywordData
  return Object.keys(found).length ? found : null
}

/** The landing's marketing query kept for the application (store-campaign.ts), while it has not expired. */
function keptMarketingQuery(now: number): string | null {
  try {
    const kept = JSON.parse(localStorage.getItem(MARKETING_QUERY_KEY) ?? 'null') as unknown
    if (typeof kept !== 'object' || kept === null) return null
    const { query, expiresAt } = kept as { query?: unknown; expiresAt?: unknown }
    return typeof query === 'string' && typeof expiresAt === 'number' && expiresAt > now ? query : null
  } catch {
    return null
  }
}
