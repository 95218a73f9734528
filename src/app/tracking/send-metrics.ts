/**
 * Sends a tracking batch (POST /web/private/client/logger/metrics) with `fetch`: the API reads a bearer token,
 * which `navigator.sendBeacon` cannot carry, and `keepalive` lets the request outlive the page on unload (the
 * browser caps such bodies at 64 KB in flight; a batch is at most METRICS_BODY_LIMIT). Outside the app's API
 * client on purpose: a refusal here must never log the client out or show the error page.
 */
import { sendMetrics } from '../../../domain/contract/tracking'
import type { MetricsBatch } from '../../../domain/tracking'
import { DEVICE_HEADER } from '../../api/client'
import type { SendBatch, SendOutcome } from './tracker'

export interface MetricsSenderOptions {
  getToken: () => string | null
  getDeviceId?: () => string | null
  fetch?: typeof fetch
}

/** The outcome of an answer: see SendOutcome. */
export function outcomeOf(status: number): SendOutcome {
  if (status >= 200 && status < 300) return 'sent'
  // No session, or no consent any more (409 consentRequired): tracking ends.
  if (status === 401 || status === 403 || status === 409) return 'stop'
  if (status === 429 || status >= 500) return 'retry'
  return 'drop'
}

export function createMetricsSender(options: MetricsSenderOptions): SendBatch {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init))
  return async (batch: MetricsBatch, { keepalive }) => {
    const token = options.getToken()
    if (!token) return 'stop'
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    }
    const device = options.getDeviceId?.()
    if (device) headers[DEVICE_HEADER] = device
    const response = await doFetch(`/web${sendMetrics.path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(batch),
      keepalive,
      credentials: 'same-origin',
    })
    return outcomeOf(response.status)
  }
}
