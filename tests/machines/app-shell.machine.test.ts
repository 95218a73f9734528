/**
 * The app shell machine: model-based paths replayed on the real machine, with coverage, then focused cases.
 *
 * How `after` is handled: `createTestModel` refuses machines with delayed transitions, and
 * `machine.provide()` only swaps implementations, so it cannot remove one. `toModelMachine` rebuilds the
 * machine from the same config and the same `setup()` implementations with the notice expiry turned into
 * a plain event named as XState names it internally (`xstate.after.untilOldestNoticeExpires.appShell.
 * notices.showing`), so the model's transition is the real machine's transition. Paths are planned on the
 * model and replayed on the real `appShellMachine` under a SimulatedClock: the expiry step advances the
 * clock to the oldest notice's expiry, and the real timer fires the real delayed transition.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Actor, createActor, SimulatedClock, type SnapshotFrom } from 'xstate'
import { createTestModel } from 'xstate/graph'
import { type AppShellEvent, appShellMachine, NOTICE_MS } from '../../machines/app-shell.machine'
import {
  type CoverageRecorder,
  createCoverageRecorder,
  formatCoverage,
  listModelEvents,
  toModelMachine,
} from '../support/model-coverage'

type Snapshot = SnapshotFrom<typeof appShellMachine>

const modelEvents = listModelEvents(appShellMachine)
const expiry = modelEvents[0]
if (modelEvents.length !== 1 || expiry?.kind !== 'after') {
  throw new Error('the app shell should have exactly one delayed transition (the notice expiry)')
}
const EXPIRE = expiry.type

type ModelEvent = AppShellEvent | { type: typeof EXPIRE }

// ---------------------------------------------------------------------------------------------
// The model

/** Every event the shell can receive, with the variants its guards tell apart. */
function eventCases(snapshot: Snapshot): ModelEvent[] {
  const { notices } = snapshot.context
  const dismissIds = [...new Set([notices[0]?.id, notices.at(-1)?.id].filter((id) => id !== undefined))]
  return [
    { type: 'api.failed', status: 503, path: '/web/loans' },
    { type: 'api.failed', status: 404, path: '/web/loans/404' },
    { type: 'navigated' },
    { type: 'notice.push', tone: 'info', text: 'Saved' },
    // oldest, newest, and an id the shell never issued (a click on a toast that has just expired)
    ...dismissIds.map((id) => ({ type: 'notice.dismiss' as const, id })),
    { type: 'notice.dismiss', id: 0 },
    { type: 'popup.open', id: 'menu' },
    { type: 'popup.close' },
    { type: EXPIRE },
  ]
}

/**
 * Everything the model and the real shell must agree on: all of the context but the clock and the
 * expiry times (which depend on when a path runs).
 */
function observable(snapshot: Snapshot) {
  const { failure, popup, nextNoticeId, notices } = snapshot.context
  return {
    value: snapshot.value,
    failure,
    popup,
    nextNoticeId,
    notices: notices.map(({ id, tone, text }) => ({ id, tone, text })),
  }
}

const stateKey = (snapshot: Snapshot) => JSON.stringify(observable(snapshot))

/**
 * Bounds the graph: at most two notices per path, hence on screen. The guards only tell one notice from
 * more than one, so longer histories add vertices, not behaviour.
 */
const MAX_NOTICES_PER_PATH = 2

const model = createTestModel(toModelMachine(appShellMachine), {
  events: (snapshot: Snapshot) => eventCases(snapshot),
  // A vertex is "state + the step that led to it": one shortest path per vertex is then one path per
  // transition of the state graph, so the paths cover transitions, not just states.
  serializeState: (snapshot: Snapshot, event: ModelEvent | undefined, previous?: Snapshot) =>
    event && previous
      ? `${stateKey(previous)} --${JSON.stringify(event)}--> ${stateKey(snapshot)}`
      : stateKey(snapshot),
  filterEvents: (snapshot: Snapshot, event: ModelEvent) =>
    event.type !== 'notice.push' || snapshot.context.nextNoticeId <= MAX_NOTICES_PER_PATH,
  limit: 20_000,
})

const paths = model.getShortestPaths()

function describePath(path: (typeof paths)[number]): string {
  return path.steps
    .slice(1)
    .map(({ event }) => {
      const { type, ...payload } = event as ModelEvent
      if (type === EXPIRE) return 'expire oldest notice'
      const values = Object.values(payload)
      return values.length ? `${type}(${values.join(', ')})` : type
    })
    .join(' → ')
}

// ---------------------------------------------------------------------------------------------
// Replaying a path on the real machine

interface RealShell {
  actor: Actor<typeof appShellMachine>
  clock: SimulatedClock
}

function startRealShell(recorder?: CoverageRecorder): RealShell {
  const clock = new SimulatedClock()
  const actor = createActor(appShellMachine, {
    clock,
    input: { now: () => clock.now() },
    ...(recorder ? { inspect: recorder.inspect } : {}),
  })
  actor.start()
  return { actor, clock }
}

function execute({ actor, clock }: RealShell, event: ModelEvent): void {
  if (event.type === EXPIRE) {
    const oldest = actor.getSnapshot().context.notices[0]
    if (!oldest) throw new Error('the model expired a notice the real shell does not have')
    clock.increment(oldest.expiresAt - clock.now())
    return
  }
  // 1 ms between pushes, so no two notices expire at the same instant (the model expires one per step).
  if (event.type === 'notice.push') clock.increment(1)
  actor.send(event as AppShellEvent)
}

async function replay(path: (typeof paths)[number], recorder?: CoverageRecorder): Promise<void> {
  const shell = startRealShell(recorder)
  const exec = (step: { event: { type: string } }) => execute(shell, step.event as ModelEvent)
  const eventTypes = new Set(path.steps.map((s) => s.event.type))
  try {
    await path.test({
      events: Object.fromEntries([...eventTypes].filter((t) => t !== 'xstate.init').map((t) => [t, exec])),
      states: {
        '*': (expected: Snapshot) => {
          expect(observable(shell.actor.getSnapshot())).toEqual(observable(expected))
        },
      },
    })
  } finally {
    shell.actor.stop()
  }
}

describe('app shell model', () => {
  it('plans a bounded set of paths', () => {
    expect(paths.length).toBeGreaterThan(10)
    expect(paths.length).toBeLessThan(500)
  })

  it.each(
    paths.map((p) => [describePath(p) || '(initial state)', p] as const),
  )('real machine follows: %s', async (_name, path) => {
    await replay(path)
  })

  it('visits every state and every transition of the real machine', async () => {
    const recorder = createCoverageRecorder(appShellMachine)
    for (const path of paths) await replay(path, recorder)
    const report = recorder.report()
    console.info(formatCoverage('app-shell', report))
    expect(report.states.missing).toEqual([])
    expect(report.transitions.missing).toEqual([])
    expect(report.states.covered).toBe(report.states.total)
    expect(report.transitions.covered).toBe(report.transitions.total)
  })
})

// ---------------------------------------------------------------------------------------------
// Focused cases, with the real default clock under vitest fake timers

describe('app shell', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-01-05T08:00:00Z'))
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  function start() {
    const actor = createActor(appShellMachine, { input: { now: () => Date.now() } })
    actor.start()
    return actor
  }

  it('shows a full-page failure for a 503 and remembers status and path', () => {
    const actor = start()
    actor.send({ type: 'api.failed', status: 503, path: '/web/loans' })
    const snapshot = actor.getSnapshot()
    expect(snapshot.matches({ page: 'failed' })).toBe(true)
    expect(snapshot.context.failure).toEqual({ status: 503, path: '/web/loans' })
  })

  it('keeps the page for a 404', () => {
    const actor = start()
    actor.send({ type: 'api.failed', status: 404, path: '/web/loans/9' })
    const snapshot = actor.getSnapshot()
    expect(snapshot.matches({ page: 'ok' })).toBe(true)
    expect(snapshot.context.failure).toBeNull()
  })

  it('clears the failure and closes the popup on navigation', () => {
    const actor = start()
    actor.send({ type: 'popup.open', id: 'menu' })
    actor.send({ type: 'api.failed', status: 500, path: '/web/me' })
    actor.send({ type: 'navigated' })
    const snapshot = actor.getSnapshot()
    expect(snapshot.value).toEqual({ page: 'ok', notices: 'idle', popup: 'closed' })
    expect(snapshot.context.failure).toBeNull()
    expect(snapshot.context.popup).toBeNull()
  })

  it('expires two notices pushed 1 s apart at 5 s and 6 s', () => {
    const actor = start()
    const texts = () => actor.getSnapshot().context.notices.map((n) => n.text)
    actor.send({ type: 'notice.push', tone: 'info', text: 'first' })
    vi.advanceTimersByTime(1000)
    actor.send({ type: 'notice.push', tone: 'success', text: 'second' })

    vi.advanceTimersByTime(NOTICE_MS - 1000 - 1) // t = 4.999 s
    expect(texts()).toEqual(['first', 'second'])
    vi.advanceTimersByTime(1) // t = 5 s
    expect(texts()).toEqual(['second'])
    expect(actor.getSnapshot().matches({ notices: 'showing' })).toBe(true)
    vi.advanceTimersByTime(999) // t = 5.999 s
    expect(texts()).toEqual(['second'])
    vi.advanceTimersByTime(1) // t = 6 s
    expect(texts()).toEqual([])
    expect(actor.getSnapshot().matches({ notices: 'idle' })).toBe(true)
  })

  it('dismisses one notice and keeps the other on its own schedule', () => {
    const actor = start()
    actor.send({ type: 'notice.push', tone: 'info', text: 'first' })
    vi.advanceTimersByTime(1000)
    actor.send({ type: 'notice.push', tone: 'error', text: 'second' })
    const [first, second] = actor.getSnapshot().context.notices
    actor.send({ type: 'notice.dismiss', id: first!.id })
    expect(actor.getSnapshot().context.notices.map((n) => n.id)).toEqual([second!.id])
    expect(actor.getSnapshot().matches({ notices: 'showing' })).toBe(true)

    vi.advanceTimersByTime(NOTICE_MS - 1) // t = 5.999 s: the second notice is due at 6 s
    expect(actor.getSnapshot().context.notices).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(actor.getSnapshot().context.notices).toEqual([])
    expect(actor.getSnapshot().matches({ notices: 'idle' })).toBe(true)
  })

  it('goes back to idle when the last notice is dismissed', () => {
    const actor = start()
    actor.send({ type: 'notice.push', tone: 'info', text: 'only' })
    actor.send({ type: 'notice.dismiss', id: actor.getSnapshot().context.notices[0]!.id })
    expect(actor.getSnapshot().matches({ notices: 'idle' })).toBe(true)
    vi.advanceTimersByTime(NOTICE_MS * 2)
    expect(actor.getSnapshot().context.notices).toEqual([])
  })
})
