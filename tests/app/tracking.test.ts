// @vitest-environment happy-dom
/**
 * The browser's behavioural tracking (issue 22 item 1, docs/decisions/0042): a bounded queue sent in batches every
 * FLUSH_INTERVAL_MS or MAX_EVENTS_PER_BATCH events, page states hidden, visible and before unload, the last
 * batches sent with fetch keepalive and the bearer token on unload, a failed batch kept for the next attempt,
 * tracking ended when the consent is gone; the sandbox blackbox, deterministic; the daily-limit marker and the
 * locale cookie of spec section 9; the application body carrying the fraud signals only once collected.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MARKETING_QUERY_KEY } from '../../domain/campaign'
import { ANALYTICS_QUERY_COOKIE } from '../../domain/journey/routing'
import {
  DAILY_LIMIT_COOKIE,
  FLUSH_INTERVAL_MS,
  LOCALE_COOKIE,
  MAX_EVENTS_PER_BATCH,
  type MetricsBatch,
} from '../../domain/tracking'
import type { ApiClient } from '../../src/api/client'
import { readCookie, removeCookie, writeCookie } from '../../src/app/cookies'
import { refreshDailyLimit } from '../../src/app/daily-limit'
import { rememberLocale } from '../../src/app/locale-cookie'
import { blackboxCollectorFor, sandboxBlackbox } from '../../src/app/tracking/device-blackbox'
import { createMetricsSender, outcomeOf } from '../../src/app/tracking/send-metrics'
import {
  forgetFraudSignals,
  fraudSignals,
  provideFraudSignals,
  readMarketing,
} from '../../src/app/tracking/signals'
import { createTracker, type SendOutcome } from '../../src/app/tracking/tracker'
import { createApplicationBody } from '../../src/features/calculator/submit'
import { storeAnalyticsQueryFromLanding } from '../../src/features/campaign/store-campaign'

vi.mock('../../src/app/cookies', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/app/cookies')>()
  return { ...actual, writeCookie: vi.fn(actual.writeCookie) }
})

type Sent = { batch: MetricsBatch; keepalive: boolean }

function harness(answer: () => Promise<SendOutcome> = async () => 'sent', maxQueue?: number) {
  const sent: Sent[] = []
  const doc = new EventTarget() as EventTarget & { visibilityState: DocumentVisibilityState }
  doc.visibilityState = 'visible'
  const win = new EventTarget()
  let path = '/application/apply?lead_id=secret#top'
  const tracker = createTracker({
    send: (batch, { keepalive }) => {
      sent.push({ batch, keepalive })
      return answer()
    },
    sessionId: 'tab-session-test',
    path: () => path,
    now: () => Date.UTC(2026, 10, 28, 8),
    document: doc as unknown as Document,
    window: win as unknown as Window,
    maxQueue,
  })
  const setVisibility = (state: DocumentVisibilityState) => {
    doc.visibilityState = state
    doc.dispatchEvent(new Event('visibilitychange'))
  }
  return {
    tracker,
    sent,
    setVisibility,
    unload: () => win.dispatchEvent(new Event('beforeunload')),
    goTo: (next: string) => {
      path = next
    },
  }
}

const kinds = (s: Sent) => s.batch.events.map((e) => (e.type === 'page_state' ? e.state : e.type))

describe('the tracker', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('starts with a start event, sends every FLUSH_INTERVAL_MS, and never sends the query or fragment', async () => {
    const h = harness()
    h.tracker.start()
    expect(h.sent).toEqual([])
    await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS)
    expect(h.sent).toHaveLength(1)
    expect(h.sent[0]!.keepalive).toBe(false)
    expect(h.sent[0]!.batch.sessionId).toBe('tab-session-test')
    expect(h.sent[0]!.batch.events).toEqual([
      { type: 'start', path: '/application/apply', at: Date.UTC(2026, 10, 28, 8), seq: 0 },
    ])
    // Nothing waiting: the next tick sends nothing.
    await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS)
    expect(h.sent).toHaveLength(1)
  })

  it('records hidden and visible; hidden sends at once with keepalive', async () => {
    const h = harness()
    h.tracker.start()
    h.setVisibility('hidden')
    expect(h.sent).toHaveLength(1)
    expect(h.sent[0]!.keepalive).toBe(true)
    expect(kinds(h.sent[0]!)).toEqual(['start', 'hidden'])
    h.setVisibility('visible')
    await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS)
    expect(kinds(h.sent[1]!)).toEqual(['visible'])
    expect(h.sent[1]!.batch.events[0]!.seq).toBe(2)
  })

  it('sends a full batch as soon as MAX_EVENTS_PER_BATCH wait, without waiting for the timer', async () => {
    const h = harness()
    h.tracker.start()
    for (let i = 0; i < MAX_EVENTS_PER_BATCH; i++) {
      h.goTo(`/page/${i}`)
      h.setVisibility(i % 2 ? 'visible' : 'visible')
    }
    expect(h.sent).toHaveLength(1)
    expect(h.sent[0]!.batch.events).toHaveLength(MAX_EVENTS_PER_BATCH)
    await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS)
    expect(h.sent[1]!.batch.events).toHaveLength(1)
  })

  it('on unload: before_unload and every waiting batch leave with keepalive', async () => {
    let fail = true
    const h = harness(async () => (fail ? 'retry' : 'sent'))
    h.tracker.start()
    await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS)
    // The first attempt failed: its events wait again, in order.
    expect(h.tracker.pending()).toBe(1)
    fail = false
    h.unload()
    const last = h.sent.at(-1)!
    expect(last.keepalive).toBe(true)
    expect(kinds(last)).toEqual(['start', 'before_unload'])
    expect(h.tracker.pending()).toBe(0)
  })

  it('the queue is bounded: past its size the oldest events are dropped', async () => {
    const h = harness(async () => 'retry', 5)
    h.tracker.start()
    for (let i = 0; i < 3; i++) {
      h.setVisibility('visible')
      await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS)
    }
    for (let i = 0; i < 10; i++) h.setVisibility('visible')
    expect(h.tracker.pending()).toBeLessThanOrEqual(5)
    expect(h.tracker.dropped()).toBeGreaterThan(0)
  })

  it('a refusal that means no consent (or no session) ends the tracking: no more events, no listeners', async () => {
    const h = harness(async () => 'stop')
    h.tracker.start()
    await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS)
    expect(h.sent).toHaveLength(1)
    h.setVisibility('hidden')
    h.unload()
    await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS * 3)
    expect(h.sent).toHaveLength(1)
    expect(h.tracker.pending()).toBe(0)
  })

  it('stop sends a stop event with keepalive and removes its listeners', async () => {
    const h = harness()
    h.tracker.start()
    h.tracker.stop()
    expect(kinds(h.sent.at(-1)!)).toEqual(['start', 'stop'])
    expect(h.sent.at(-1)!.keepalive).toBe(true)
    h.setVisibility('hidden')
    await vi.advanceTimersByTimeAsync(FLUSH_INTERVAL_MS)
    expect(h.sent).toHaveLength(1)
  })
})

describe('the metrics sender', () => {
  it('posts with fetch keepalive, the bearer token and the device id; maps the answers', async () => {
    const calls: [string, RequestInit][] = []
    const send = createMetricsSender({
      getToken: () => 'the-token',
      getDeviceId: () => 'device-0001',
      fetch: async (url, init) => {
        calls.push([String(url), init!])
        return new Response('{}', { status: 200 })
      },
    })
    const batch = {
      sessionId: 'tab-1234abcd',
      events: [{ type: 'start' as const, path: '/', at: 1, seq: 0 }],
    }
    expect(await send(batch, { keepalive: true })).toBe('sent')
    const [url, init] = calls[0]!
    expect(url).toBe('/web/private/client/logger/metrics')
    expect(init).toMatchObject({ method: 'POST', keepalive: true })
    expect(init.headers).toMatchObject({ authorization: 'Bearer the-token', 'x-device-id': 'device-0001' })
    expect(JSON.parse(String(init.body))).toEqual(batch)
    expect([200, 400, 401, 409, 413, 429, 503].map(outcomeOf)).toEqual([
      'sent',
      'drop',
      'stop',
      'stop',
      'drop',
      'retry',
      'retry',
    ])
    const loggedOut = createMetricsSender({ getToken: () => null, fetch: async () => new Response() })
    expect(await loggedOut(batch, { keepalive: false })).toBe('stop')
  })
})

describe('fraud signals in the application', () => {
  afterEach(() => forgetFraudSignals())

  it('the sandbox blackbox is deterministic per device; an unknown provider is an error, not an empty string', async () => {
    const a = await sandboxBlackbox.collect('device-0001')
    expect(a).toMatch(/^sbx1\.[0-9a-f]{48}$/)
    expect(await sandboxBlackbox.collect('device-0001')).toBe(a)
    expect(await sandboxBlackbox.collect('device-0002')).not.toBe(a)
    expect(() => blackboxCollectorFor('iovation-live')).toThrow(/No device blackbox collector/)
  })

  it('the body carries the blackbox and the tools ids once collected, the empty blackbox before', async () => {
    const figures = { amount: 5_000_00, term: 14, optionalFee: true, promoCode: null }
    expect(await fraudSignals()).toBeNull()
    expect(createApplicationBody(figures, null).iovation).toEqual({ ioBB: '' })
    provideFraudSignals(
      Promise.resolve({ ioBB: 'sbx1.abc', seonSession: 's', juicySessionId: 'j', hotjarUserId: 'h' }),
    )
    const body = createApplicationBody(figures, null, await fraudSignals(), { utm_source: 'fb' })
    expect(body).toMatchObject({
      iovation: { ioBB: 'sbx1.abc' },
      seonSession: 's',
      juicySessionId: 'j',
      hotjarUserId: 'h',
      marketing: { utm_source: 'fb' },
    })
  })

  it('the marketing data: the analytics query parameters, and the Google keyword only from a Google click', () => {
    try {
      expect(readMarketing()).toBeNull()
      writeCookie(ANALYTICS_QUERY_COOKIE, 'utm_source=google&utm_term=cash+loan&gclid=abc', 600 * 60)
      expect(readMarketing()).toEqual({
        utm_source: 'google',
        utm_term: 'cash loan',
        gclid: 'abc',
        keywordData: 'cash loan',
      })
      // A partner's utm_term is no Google keyword.
      writeCookie(ANALYTICS_QUERY_COOKIE, 'utm_source=fb&utm_term=cash+loan', 600 * 60)
      expect(readMarketing()).toEqual({ utm_source: 'fb', utm_term: 'cash loan' })
    } finally {
      removeCookie(ANALYTICS_QUERY_COOKIE)
    }
  })

  it('the marketing data outlives the guard removing the analytics cookie, for its 600 minutes', () => {
    const landed = Date.parse('2026-11-28T01:00:00Z')
    try {
      storeAnalyticsQueryFromLanding('?utm_source=fb&utm_campaign=payday&lead=1', landed)
      expect(readCookie(ANALYTICS_QUERY_COOKIE)).toBe('utm_source=fb&utm_campaign=payday')
      // The registration guard passes the query on to the employment step and removes the cookie.
      removeCookie(ANALYTICS_QUERY_COOKIE)
      const applied = landed + 3 * 60 * 60_000
      expect(readMarketing(applied)).toEqual({ utm_source: 'fb', utm_campaign: 'payday' })
      expect(readMarketing(landed + 600 * 60_000 + 1)).toBeNull()
      localStorage.setItem(MARKETING_QUERY_KEY, '{not json')
      expect(readMarketing(applied)).toBeNull()
    } finally {
      localStorage.removeItem(MARKETING_QUERY_KEY)
    }
  })
})

describe('the cookies of spec section 9', () => {
  afterEach(() => {
    removeCookie(DAILY_LIMIT_COOKIE)
    removeCookie(LOCALE_COOKIE)
  })

  it('the daily-limit marker: asks once, writes the marker for 12 hours, reloads the client; not again while it lives', async () => {
    const call = vi.fn(async () => ({
      availableLoanAmount: { amount: 10_000_00 },
      refreshedAt: '2026-11-28T08:00:00.000Z',
      nextRefreshAt: '2026-11-28T20:00:00.000Z',
    }))
    const api = { call } as unknown as ApiClient
    const reload = vi.fn()
    expect(await refreshDailyLimit(api, reload)).toBe(true)
    expect(reload).toHaveBeenCalledOnce()
    expect(writeCookie).toHaveBeenCalledWith(DAILY_LIMIT_COOKIE, '2026-11-28T08:00:00.000Z', 43_200)
    expect(readCookie(DAILY_LIMIT_COOKIE)).toBe('2026-11-28T08:00:00.000Z')
    expect(await refreshDailyLimit(api, reload)).toBe(false)
    expect(call).toHaveBeenCalledOnce()
  })

  it('a failed refresh writes no marker, so the next page load asks again', async () => {
    const api = { call: async () => Promise.reject(new Error('429')) } as unknown as ApiClient
    expect(await refreshDailyLimit(api, () => {})).toBe(false)
    expect(readCookie(DAILY_LIMIT_COOKIE)).toBeFalsy()
  })

  it('the locale cookie lives 365 days', () => {
    rememberLocale()
    expect(writeCookie).toHaveBeenCalledWith(LOCALE_COOKIE, 'en', 31_536_000)
    expect(readCookie(LOCALE_COOKIE)).toBe('en')
  })
})
