/**
 * Behavioural and device data for scoring and fraud (spec sections 4 and 7; issue 22 item 1; docs/decisions/0042):
 * the tracking events, the fraud tools' session tokens, the device-data consent they need first, and the limit
 * refresh behind the daily-limit marker. Logs carry ids and counts only, never a token, a path or a device id.
 */
import * as tracking from '../../../domain/contract/tracking'
import { clientAddress } from '../../auth/transport'
import { answerDeviceDataConsent, deviceDataConsent } from '../../services/tracking/consent'
import { fraudToolTokens, helloSodaToken } from '../../services/tracking/fraud-sessions'
import { refreshLimit } from '../../services/tracking/limit'
import { recordMetrics } from '../../services/tracking/metrics'
import { ok } from '../envelope'
import { clientIdOf, db, deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const trackingRoutes: AnyRoute[] = [
  implement(tracking.sendMetrics, async (c, { body }) => {
    const clientId = clientIdOf(c)
    const answer = await recordMetrics(db(c), clientId, body, deps(c).now())
    deps(c).logger.debug(
      { clientId, events: answer.accepted, event: 'tracking.metrics' },
      'behaviour events recorded',
    )
    return ok(c, answer)
  }),

  implement(tracking.helloSoda, async (c, { body }) => {
    const { id, answer } = await helloSodaToken(
      deps(c),
      { deviceId: body.deviceId, address: clientAddress(c) },
      deps(c).now(),
    )
    deps(c).logger.info({ fraudSessionId: id, event: 'tracking.hello_soda' }, 'hello-soda token issued')
    return ok(c, answer)
  }),

  implement(tracking.startFraudSession, async (c, { body }) => {
    const clientId = clientIdOf(c)
    const { id, answer } = await fraudToolTokens(deps(c), clientId, body.deviceId, deps(c).now())
    deps(c).logger.info(
      { clientId, fraudSessionId: id, event: 'tracking.fraud_session' },
      'fraud-tool session issued',
    )
    return ok(c, answer)
  }),

  implement(tracking.getDeviceDataConsent, async (c) => ok(c, await deviceDataConsent(db(c), clientIdOf(c)))),

  implement(tracking.answerDeviceDataConsent, async (c, { body }) => {
    const clientId = clientIdOf(c)
    const answer = await answerDeviceDataConsent(db(c), clientId, body.granted, deps(c).now())
    deps(c).logger.info(
      { clientId, granted: body.granted, event: 'tracking.consent' },
      'device-data consent answered',
    )
    return ok(c, answer)
  }),

  implement(tracking.refreshLimit, async (c) =>
    ok(c, await refreshLimit(db(c), clientIdOf(c), deps(c).now())),
  ),
]
