/**
 * What runs for a logged-in client who consented to device data (docs/decisions/0042), loaded after the page
 * (src/ui/layout/client-extras.tsx imports it lazily, so none of it weighs on the home route): the fraud tools'
 * session tokens, the device blackbox, and the behavioural tracker. Answers the function that stops it all.
 */
import { startFraudSession } from '../../../domain/contract/tracking'
import type { ApiClient } from '../../api/client'
import { blackboxCollectorFor } from './device-blackbox'
import { createMetricsSender } from './send-metrics'
import { forgetFraudSignals, provideFraudSignals } from './signals'
import { createTracker } from './tracker'

export interface ClientTrackingInput {
  api: ApiClient
  getToken: () => string | null
  deviceId: () => string
}

const newSessionId = () => `tab-${crypto.randomUUID()}`

export function startClientTracking({ api, getToken, deviceId }: ClientTrackingInput): () => void {
  const device = deviceId()
  provideFraudSignals(
    api.call(startFraudSession, { body: { deviceId: device } }, { quiet: true }).then(async (session) => ({
      ioBB: await blackboxCollectorFor(session.provider).collect(device),
      seonSession: session.seonSession,
      juicySessionId: session.juicySessionId,
      hotjarUserId: session.hotjarUserId,
    })),
  )
  const tracker = createTracker({
    send: createMetricsSender({ getToken, getDeviceId: deviceId }),
    sessionId: newSessionId(),
    path: () => location.pathname,
  })
  tracker.start()
  return () => {
    tracker.stop()
    forgetFraudSignals()
  }
}
