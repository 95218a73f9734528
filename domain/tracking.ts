/**
 * Behavioural and device data for scoring and fraud (spec section 4 "Behavioural tracking", section 7; issue 22
 * item 1; docs/decisions/0042): the events the browser sends, their bounds, the consent that must come first
 * (RA 10173: a purpose of its own, asked separately), and the cookies of spec section 9 this area writes.
 * Shared by the browser (what it sends and when) and the server (what it accepts).
 */
import * as v from 'valibot'
import { deviceIdSchema } from './identity'
import { safeString } from './safe-text'

/** The consent kind (server consent table) and the version of its text: a new text means asking again. */
export const DEVICE_DATA_CONSENT = 'device_data'
export const DEVICE_DATA_CONSENT_VERSION = '2026-11-28'

/** Spec section 4: tracking has start and stop events; page state values: hidden, visible, before unload. */
export const trackingEventTypes = ['start', 'stop', 'page_state'] as const
export const pageStates = ['hidden', 'visible', 'before_unload'] as const
export type TrackingEventType = (typeof trackingEventTypes)[number]
export type PageState = (typeof pageStates)[number]

/** Bounds of one batch: the browser flushes at MAX_EVENTS_PER_BATCH, the server refuses more. */
export const MAX_EVENTS_PER_BATCH = 50
/** The browser's queue never holds more than this; the oldest events are dropped first. */
export const MAX_QUEUED_EVENTS = 200
/** The browser sends what it has every this many milliseconds. */
export const FLUSH_INTERVAL_MS = 15_000
export const MAX_PATH_LENGTH = 200
/** The largest batch body the server reads (50 events of at most ~300 bytes each). */
export const METRICS_BODY_LIMIT = 24 * 1024
/** Batches a client may send in METRICS_WINDOW_MINUTES before a 429. */
export const METRICS_MAX_BATCHES = 120
export const METRICS_WINDOW_MINUTES = 10

/** An event's time: epoch milliseconds between 2020 and 2100 (a clock far off is refused, not stored). */
const epochMs = v.pipe(
  v.number('Must be a time in milliseconds.'),
  v.integer('Must be a whole number of milliseconds.'),
  v.minValue(Date.UTC(2020, 0, 1), 'Must be a time after 2020.'),
  v.maxValue(Date.UTC(2100, 0, 1), 'Must be a time before 2100.'),
)

/** A page path without query or fragment: those may carry personal data (a lead id, an e-mail). */
const pathSchema = v.pipe(
  safeString('Must be a path.'),
  v.maxLength(MAX_PATH_LENGTH, `At most ${MAX_PATH_LENGTH} characters.`),
  v.regex(/^\/[^?#\s]*$/, 'Must be a page path, without query or fragment.'),
)

export const trackingEventSchema = v.pipe(
  v.object({
    type: v.picklist(trackingEventTypes, 'Must be start, stop or page_state.'),
    state: v.optional(v.picklist(pageStates, 'Must be hidden, visible or before_unload.')),
    path: pathSchema,
    at: epochMs,
    seq: v.pipe(
      v.number('Must be a number.'),
      v.integer('Must be a whole number.'),
      v.minValue(0, 'Must not be negative.'),
      v.maxValue(1_000_000, 'Too large.'),
    ),
  }),
  v.check(
    (e) => (e.type === 'page_state') === (e.state !== undefined),
    'A page_state event, and only it, has a state.',
  ),
)
export type TrackingEvent = v.InferOutput<typeof trackingEventSchema>

/** The tab's tracking session: random, made by the browser. */
export const trackingSessionIdSchema = v.pipe(
  v.string('Must be a session id.'),
  v.regex(/^[\w-]{8,64}$/, 'Must be 8 to 64 letters, digits, _ or -.'),
)

export const metricsBatchSchema = v.object({
  sessionId: trackingSessionIdSchema,
  events: v.pipe(
    v.array(trackingEventSchema, 'Must be a list of events.'),
    v.minLength(1, 'Send at least one event.'),
    v.maxLength(MAX_EVENTS_PER_BATCH, `At most ${MAX_EVENTS_PER_BATCH} events in one batch.`),
  ),
})
export type MetricsBatch = v.InferOutput<typeof metricsBatchSchema>

/** The device-data consent as the client gave it (or not yet: granted null). */
export const deviceDataConsentSchema = v.object({
  granted: v.nullable(v.boolean()),
  /** The version of the text answered; null when never answered. */
  version: v.nullable(v.string()),
  at: v.nullable(v.string()),
  /** The version of the text in force: a consent to an older one asks again. */
  currentVersion: v.string(),
})
export type DeviceDataConsent = v.InferOutput<typeof deviceDataConsentSchema>

export const deviceDataConsentBodySchema = v.object({
  granted: v.boolean('Must be true or false.'),
  version: v.literal(DEVICE_DATA_CONSENT_VERSION, 'The consent text has changed: read it again.'),
})

/** POST /public/util/hello-soda: a visitor's device, and the just-in-time consent given for it. */
export const helloSodaBodySchema = v.object({
  deviceId: deviceIdSchema,
  consent: v.object({
    deviceData: v.literal(true, 'Consent to device data is required.'),
    version: v.literal(DEVICE_DATA_CONSENT_VERSION, 'The consent text has changed: read it again.'),
  }),
})

export const helloSodaAnswerSchema = v.object({
  provider: v.string(),
  token: v.string(),
  expiresAt: v.string(),
})

/** POST /private/client/affiliates/session: the browser's device, for the fraud tools' session tokens. */
export const fraudSessionBodySchema = v.object({ deviceId: deviceIdSchema })

export const fraudSessionAnswerSchema = v.object({
  /** Which provider issued the tokens; the browser collects the device blackbox with the same one. */
  provider: v.string(),
  seonSession: v.string(),
  juicySessionId: v.string(),
  hotjarUserId: v.string(),
  expiresAt: v.string(),
})
export type FraudSession = v.InferOutput<typeof fraudSessionAnswerSchema>

/** PUT /private/client/yhat/limit: the client's limit worked out again now. */
export const limitRefreshSchema = v.object({
  availableLoanAmount: v.object({ amount: v.number() }),
  refreshedAt: v.string(),
  /** When the browser asks again at the earliest (the daily-limit marker's lifetime). */
  nextRefreshAt: v.string(),
})

/** Spec section 9, cookies: the daily limit refresh marker lives 12 hours; the locale 365 days. */
export const DAILY_LIMIT_COOKIE = 'daily-limit-refreshed'
export const DAILY_LIMIT_MAX_AGE_SECONDS = 43_200
export const LOCALE_COOKIE = 'locale'
export const LOCALE_MAX_AGE_SECONDS = 365 * 86_400
/** Limit refreshes a client may ask for in 12 hours (the browser asks once; reloads with cookies off ask more). */
export const LIMIT_REFRESH_MAX = 6
