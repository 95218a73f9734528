/**
 * Behavioural and device data for scoring and fraud (spec section 7: POST /private/client/logger/metrics,
 * POST /public/util/hello-soda, POST /private/client/affiliates/session; issue 22 item 1, docs/decisions/0042),
 * the device-data consent they need first (RA 10173), and the limit refresh behind the daily-limit marker
 * (PUT /private/client/yhat/limit, spec sections 7 and 9).
 */
import * as v from 'valibot'
import {
  DAILY_LIMIT_MAX_AGE_SECONDS,
  deviceDataConsentBodySchema,
  deviceDataConsentSchema,
  fraudSessionAnswerSchema,
  fraudSessionBodySchema,
  helloSodaAnswerSchema,
  helloSodaBodySchema,
  limitRefreshSchema,
  METRICS_BODY_LIMIT,
  metricsBatchSchema,
} from '../tracking'
import { defineContract } from './define'

export const sendMetrics = defineContract({
  method: 'post',
  path: '/private/client/logger/metrics',
  summary:
    'A batch of behavioural tracking events (start, stop, page states hidden, visible, before unload), appended; needs the device-data consent (403 consentRequired)',
  tags: ['tracking'],
  access: 'client',
  body: metricsBatchSchema,
  bodyLimit: METRICS_BODY_LIMIT,
  response: v.object({ accepted: v.number() }),
})

export const helloSoda = defineContract({
  method: 'post',
  path: '/public/util/hello-soda',
  summary:
    "A session token for the profiling tool's browser script, for a visitor who consented to device data just now",
  tags: ['tracking'],
  access: 'public',
  body: helloSodaBodySchema,
  response: helloSodaAnswerSchema,
})

export const startFraudSession = defineContract({
  method: 'post',
  path: '/private/client/affiliates/session',
  summary:
    "The fraud tools' session tokens for this browser (seonSession, juicySessionId, hotjarUserId), sent back with the application; needs the device-data consent",
  tags: ['tracking'],
  access: 'client',
  body: fraudSessionBodySchema,
  response: fraudSessionAnswerSchema,
})

export const getDeviceDataConsent = defineContract({
  method: 'get',
  path: '/private/client/consents/device-data',
  summary: "The client's answer to the device-data consent (RA 10173), and the version of its text in force",
  tags: ['tracking'],
  access: 'client',
  response: deviceDataConsentSchema,
})

export const answerDeviceDataConsent = defineContract({
  method: 'put',
  path: '/private/client/consents/device-data',
  summary: 'Grant or withdraw the device-data consent; recorded with its time and text version',
  tags: ['tracking'],
  access: 'client',
  body: deviceDataConsentBodySchema,
  response: deviceDataConsentSchema,
})

export const refreshLimit = defineContract({
  method: 'put',
  path: '/private/client/yhat/limit',
  summary: `The client's available loan amount worked out again now; the browser asks at most once per ${DAILY_LIMIT_MAX_AGE_SECONDS / 3600} hours (the daily-limit marker)`,
  tags: ['tracking'],
  access: 'client',
  response: limitRefreshSchema,
})
