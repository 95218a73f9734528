/**
 * The browser's behavioural tracking (spec section 4: start and stop events, page states hidden, visible and
 * before unload; issue 22 item 1, docs/decisions/0042). Events wait in a bounded queue (the oldest dropped past
 * MAX_QUEUED_EVENTS) and leave in batches: every FLUSH_INTERVAL_MS, as soon as MAX_EVENTS_PER_BATCH are waiting,
 * and when the page is hidden or unloads, then with `keepalive` so the request outlives the page. Nothing here
 * ever blocks the page: sending is fire-and-forget and a failure only keeps the events for the next attempt.
 *
 * Started only for a client who consented to device data (src/ui/layout/client-extras.tsx).
 */
import {
  FLUSH_INTERVAL_MS,
  MAX_EVENTS_PER_BATCH,
  MAX_PATH_LENGTH,
  MAX_QUEUED_EVENTS,
  type MetricsBatch,
  type PageState,
  type TrackingEvent,
  type TrackingEventType,
} from '../../../domain/tracking'

/**
 * What became of a batch: sent; `retry` (no answer, a 429 or a 5xx: the events go back in the queue); `drop` (the
 * server refused this batch: never again); `stop` (no consent or no session any more: tracking ends).
 */
export type SendOutcome = 'sent' | 'retry' | 'drop' | 'stop'
export type SendBatch = (batch: MetricsBatch, options: { keepalive: boolean }) => Promise<SendOutcome>

export interface TrackerOptions {
  send: SendBatch
  sessionId: string
  /** The page's path (location.pathname). */
  path: () => string
  now?: () => number
  /** Where the page's lifecycle events come from (the real document and window by default). */
  document?: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'>
  window?: Pick<Window, 'addEventListener' | 'removeEventListener'>
  flushIntervalMs?: number
  maxBatch?: number
  maxQueue?: number
}

export interface Tracker {
  start(): void
  stop(): void
  /** Sends what waits now; with `keepalive` every waiting batch leaves at once (the page is going away). */
  flush(options?: { keepalive?: boolean }): void
  /** How many events wait (tests, and the dropped count in the ADR's reasoning). */
  pending(): number
  dropped(): number
}

/** A path without query or fragment, cut to the server's limit (the query may hold personal data). */
const cleanPath = (path: string) => (path.split(/[?#]/)[0] || '/').slice(0, MAX_PATH_LENGTH)

export function createTracker(options: TrackerOptions): Tracker {
  const now = options.now ?? Date.now
  const doc = options.document ?? document
  const win = options.window ?? window
  const maxBatch = Math.min(options.maxBatch ?? MAX_EVENTS_PER_BATCH, MAX_EVENTS_PER_BATCH)
  const maxQueue = options.maxQueue ?? MAX_QUEUED_EVENTS
  let queue: TrackingEvent[] = []
  let seq = 0
  let lost = 0
  let inFlight = false
  let running = false
  let stopped = false
  let timer: ReturnType<typeof setInterval> | undefined

  const keep = (events: TrackingEvent[]) => {
    queue = [...events, ...queue]
    if (queue.length > maxQueue) {
      lost += queue.length - maxQueue
      queue = queue.slice(queue.length - maxQueue)
    }
  }

  const record = (type: TrackingEventType, state?: PageState) => {
    if (stopped) return
    queue.push({ type, ...(state ? { state } : {}), path: cleanPath(options.path()), at: now(), seq: seq++ })
    if (queue.length > maxQueue) {
      lost += queue.length - maxQueue
      queue = queue.slice(queue.length - maxQueue)
    }
  }

  const end = () => {
    stopped = true
    queue = []
    detach()
  }

  const sendOne = (events: TrackingEvent[], keepalive: boolean) =>
    options
      .send({ sessionId: options.sessionId, events }, { keepalive })
      .catch((): SendOutcome => 'retry')
      .then((outcome) => {
        if (outcome === 'retry' && !keepalive) keep(events)
        if (outcome === 'stop') end()
        return outcome
      })

  const flush = ({ keepalive = false } = {}) => {
    if (!queue.length) return
    if (keepalive) {
      // The page is going: every batch leaves now, each with keepalive; none comes back.
      while (queue.length) void sendOne(queue.splice(0, maxBatch), true)
      return
    }
    if (inFlight) return
    inFlight = true
    void sendOne(queue.splice(0, maxBatch), false).finally(() => {
      inFlight = false
      if (queue.length >= maxBatch) flush()
    })
  }

  const onVisibility = () => {
    const hidden = doc.visibilityState === 'hidden'
    record('page_state', hidden ? 'hidden' : 'visible')
    // Hidden is often the last moment a mobile page gets: what waits leaves with keepalive.
    if (hidden) flush({ keepalive: true })
    else if (queue.length >= maxBatch) flush()
  }
  const onBeforeUnload = () => {
    record('page_state', 'before_unload')
    flush({ keepalive: true })
  }

  function detach() {
    if (timer !== undefined) clearInterval(timer)
    timer = undefined
    doc.removeEventListener('visibilitychange', onVisibility)
    win.removeEventListener('beforeunload', onBeforeUnload)
    running = false
  }

  const track = (type: TrackingEventType, state?: PageState) => {
    record(type, state)
    if (queue.length >= maxBatch) flush()
  }

  return {
    start() {
      if (running || stopped) return
      running = true
      track('start')
      doc.addEventListener('visibilitychange', onVisibility)
      win.addEventListener('beforeunload', onBeforeUnload)
      timer = setInterval(() => flush(), options.flushIntervalMs ?? FLUSH_INTERVAL_MS)
    },
    stop() {
      if (!running) return
      track('stop')
      detach()
      flush({ keepalive: true })
    },
    flush,
    pending: () => queue.length,
    dropped: () => lost,
  }
}
