/**
 * The auth session statechart: model-based paths replayed on the real machine, with coverage, then focused
 * cases.
 *
 * How invoke and `after` are handled: `toModelMachine` (tests/support/model-coverage.ts) rebuilds the machine
 * from the same config and `setup()` implementations with the answers of `loadUser`, `refreshToken` and
 * `logout` and the REFRESH_INTERVAL expiry turned into plain events named as XState names them internally
 * (`xstate.done.actor.loadUser`, `xstate.after.REFRESH_INTERVAL.auth.loggedIn.refresh.waiting`...). Paths are
 * planned on that model over tokens of every kind (client, refreshed, another session, second factor pending,
 * single link, back office) and replayed on the REAL `authMachine`: a done/error event settles the pending
 * promise of that actor, the delay event advances a simulated clock by exactly the refresh interval. After
 * every step the real snapshot must equal the model's and satisfy the spec's invariants; coverage of the real
 * machine's states and transitions is recorded from its inspection events and must be complete.
 */
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, SimulatedClock } from 'xstate'
import { createTestModel } from 'xstate/graph'
import {
  type AuthEmitted,
  type AuthEvent,
  type AuthSnapshot,
  type AuthUser,
  authMachine,
  authStatus,
  isBackOffice,
  isLoggedIn,
  isSettled,
  pendingSessionEnd,
  REFRESH_INTERVAL_MS,
  type SessionActorInput,
} from '../../machines/auth.machine'
import { decodeSessionToken } from '../../machines/session-token'
import { flush } from '../support/deferred'
import {
  type CoverageRecorder,
  createCoverageRecorder,
  formatCoverage,
  listModelEvents,
  listTransitions,
  toModelMachine,
} from '../support/model-coverage'

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0)
const REFRESH = 1000

/** An unsigned JWT with the server's claims: the browser decodes, it never verifies. */
function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`
}

const exp = Math.floor(NOW / 1000) + 900
const tokens = {
  client: jwt({ sid: 'sa', sub: '7', type: 'client', mfa: false, sl: false, exp }),
  clientRefreshed: jwt({ sid: 'sa', sub: '7', type: 'client', mfa: false, sl: false, exp: exp + 240 }),
  clientMfa: jwt({ sid: 'sa', sub: '7', type: 'client', mfa: true, sl: false, exp }),
  otherClient: jwt({ sid: 'sb', sub: '8', type: 'client', mfa: false, sl: false, exp }),
  singleLink: jwt({ sid: 'sc', sub: '7', type: 'client', mfa: false, sl: true, exp }),
  otherSingleLink: jwt({ sid: 'sf', sub: '8', type: 'client', mfa: false, sl: true, exp }),
  backOffice: jwt({ sid: 'sd', sub: '1', type: 'user', mfa: false, sl: false, exp }),
  backOfficeMfa: jwt({ sid: 'sd', sub: '1', type: 'user', mfa: true, sl: false, exp }),
  expired: jwt({
    sid: 'se',
    sub: '7',
    type: 'client',
    mfa: false,
    sl: false,
    exp: Math.floor(NOW / 1000) - 1,
  }),
  garbage: 'not-a-token',
} as const
const tokenName = (token: string | null) =>
  token === null ? null : (Object.entries(tokens).find(([, t]) => t === token)?.[0] ?? 'unknown')

const users: Record<string, AuthUser> = {
  ana: { id: 7, email: 'ana@example.ph', firstName: 'Ana', status: 1 },
  anaRenamed: { id: 7, email: 'ana@example.ph', firstName: 'Ana Maria', status: 1 },
  admin: { id: 1, email: 'admin@hiram.local', name: 'Admin', roles: ['administrator'] },
}

const modelEvents = listModelEvents(authMachine)
const modelEventTypes = new Set(modelEvents.map((e) => e.type))
type ModelEvent = AuthEvent | { type: string; output?: unknown; error?: unknown }

const input = { refreshInterval: REFRESH, now: () => NOW }
const modelMachine = toModelMachine(authMachine)

/** Every event the auth machine can receive, with the variants its guards tell apart. */
function eventCases(): ModelEvent[] {
  const cases: ModelEvent[] = [
    ...Object.values(tokens).map((token) => ({ type: 'TOKEN.RECEIVED' as const, token })),
    { type: 'LOGOUT' },
    { type: 'API.UNAUTHORIZED', status: 401, path: '/web/private/client' },
    { type: 'USER.RELOAD' },
    { type: 'USER.UPDATED', user: users.anaRenamed! },
    { type: 'SESSION.END.SEEN' },
    { type: 'SINGLE_LINK.FAILED' },
  ]
  for (const e of modelEvents) {
    if (e.kind === 'actor.done') {
      const outputs = e.src === 'loadUser' ? [users.ana, users.admin] : [{ ok: true }]
      for (const output of outputs) cases.push({ type: e.type, output })
    } else if (e.kind === 'actor.error') cases.push({ type: e.type, error: new Error('HTTP 401') })
    else if (!cases.some((c) => c.type === e.type)) cases.push({ type: e.type })
  }
  return cases
}

function observable(snapshot: AuthSnapshot) {
  const { token, claims, user, ended, notice, refreshInterval } = snapshot.context
  return { value: snapshot.value, token: tokenName(token), claims, user, ended, notice, refreshInterval }
}
const stateKey = (snapshot: AuthSnapshot) => JSON.stringify(observable(snapshot))

const model = createTestModel(modelMachine, {
  input,
  events: () => eventCases() as never,
  // Vertex = "state + the step that led to it": one shortest path per transition of the state graph.
  serializeState: ((snapshot: AuthSnapshot, event: ModelEvent | undefined, previous?: AuthSnapshot) =>
    event && previous
      ? `${stateKey(previous)} --${JSON.stringify(event)}--> ${stateKey(snapshot)}`
      : stateKey(snapshot)) as never,
  // Only what the state handles: an ignored event changes nothing, and an actor answer needs a running actor.
  filterEvents: ((snapshot: AuthSnapshot, event: ModelEvent) => snapshot.can(event as AuthEvent)) as never,
  limit: 50_000,
})
const paths = model.getShortestPaths()

function describePath(path: (typeof paths)[number]): string {
  return path.steps
    .slice(1)
    .map(({ event }) => {
      const e = event as ModelEvent & { token?: string }
      if (e.type === 'TOKEN.RECEIVED') return `token(${tokenName(e.token ?? null)})`
      if (e.type.startsWith('xstate.after.')) return 'refresh interval elapses'
      if (e.type.startsWith('xstate.done.actor.')) return `${e.type.slice(18)} done`
      if (e.type.startsWith('xstate.error.actor.')) return `${e.type.slice(19)} fails`
      return e.type
    })
    .join(' → ')
}

// ---------------------------------------------------------------------------------------------------------
// The real machine under control: promises the test settles, a simulated clock for the refresh interval.

interface Pending {
  input: SessionActorInput
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

type Calls = Record<'loadUser' | 'refreshToken' | 'logout', Pending[]>
interface Hooks {
  pending: Calls
  calls: { forgetToken: number; resetClientData: number }
}

// One provided machine for every test, so coverage recorded on it counts the same transition objects; each
// started actor gets its own call log through `current`.
let current: Hooks = {
  pending: { loadUser: [], refreshToken: [], logout: [] },
  calls: { forgetToken: 0, resetClientData: 0 },
}
const deferredActor = <T>(name: keyof Calls) =>
  fromPromise<T, SessionActorInput>(({ input }) => {
    const own = current.pending[name]
    return new Promise<T>((resolve, reject) => {
      own.push({ input, resolve: resolve as (v: unknown) => void, reject })
    })
  })
const liveMachine = authMachine.provide({
  actors: {
    loadUser: deferredActor<AuthUser>('loadUser'),
    refreshToken: deferredActor<unknown>('refreshToken'),
    logout: deferredActor<unknown>('logout'),
  },
  actions: {
    forgetToken: () => {
      current.calls.forgetToken++
    },
    resetClientData: () => {
      current.calls.resetClientData++
    },
  },
})

function startLive(recorder?: CoverageRecorder) {
  const hooks: Hooks = {
    pending: { loadUser: [], refreshToken: [], logout: [] },
    calls: { forgetToken: 0, resetClientData: 0 },
  }
  current = hooks
  const clock = new SimulatedClock()
  const actor = createActor(liveMachine, { input, clock, ...(recorder ? { inspect: recorder.inspect } : {}) })
  const emitted: AuthEmitted[] = []
  actor.on('session.ended', (e) => emitted.push(e))
  actor.start()
  return { actor, clock, pending: hooks.pending, calls: hooks.calls, emitted }
}
type Live = ReturnType<typeof startLive>

const srcOf = (type: string) => {
  const e = modelEvents.find((m) => m.type === type)
  return (e?.src === 'loadUser' ? 'loadUser' : e?.src) as keyof Live['pending']
}

async function execute(live: Live, event: ModelEvent) {
  if (event.type.startsWith('xstate.after.')) {
    const before = live.pending.refreshToken.length
    live.clock.increment(REFRESH - 1)
    expect(live.pending.refreshToken.length).toBe(before)
    live.clock.increment(1)
    expect(live.pending.refreshToken.length).toBe(before + 1)
    return
  }
  if (modelEventTypes.has(event.type)) {
    const call = live.pending[srcOf(event.type)].at(-1)
    if (!call) throw new Error(`no pending call for ${event.type}`)
    expect(call.input.claims).toEqual(live.actor.getSnapshot().context.claims)
    if (event.type.startsWith('xstate.done.')) call.resolve((event as { output?: unknown }).output)
    else call.reject((event as { error?: unknown }).error)
    await flush()
    return
  }
  live.actor.send(event as AuthEvent)
}

/** What must hold in every state, whatever path led there (spec section 4). */
function checkInvariants(snapshot: AuthSnapshot) {
  const status = authStatus(snapshot)
  const { token, claims, user } = snapshot.context
  expect(isLoggedIn(snapshot)).toBe(status === 'loggedIn')
  if (status === 'loggedIn') expect(user).not.toBeNull()
  if (status === 'loggedOut')
    expect({ token, claims, user }).toEqual({ token: null, claims: null, user: null })
  else expect(claims).toEqual(decodeSessionToken(token))
  // A session end waits for the guards exactly while loggedOut.sessionEnded, with its reason.
  expect(snapshot.context.ended !== null).toBe(snapshot.matches({ loggedOut: 'sessionEnded' }))
  expect(pendingSessionEnd(snapshot)).toBe(snapshot.context.ended)
  if (snapshot.context.ended)
    expect(['logout', 'unauthorized', 'linkFailed']).toContain(snapshot.context.ended.reason)
  // The login page's notice of a failed single link lasts while logged out, until the next session starts.
  if (snapshot.context.notice !== null)
    expect([status, snapshot.context.notice]).toEqual(['loggedOut', 'linkFailed'])
  if (status === 'mfaRequired') expect(claims?.mfa).toBe(true)
  if (status === 'singleLink') expect([claims?.sl, user]).toEqual([true, null])
  expect(isSettled(snapshot)).toBe(status !== 'loggingIn' && status !== 'loggingOut')
  expect(isBackOffice(snapshot)).toBe(status === 'loggedIn' && claims?.type === 'user')
}

async function replay(path: (typeof paths)[number], recorder?: CoverageRecorder) {
  const live = startLive(recorder)
  const exec = async (step: { event: { type: string } }) => execute(live, step.event as ModelEvent)
  const types = new Set(path.steps.map((s) => s.event.type))
  try {
    await path.test({
      events: Object.fromEntries([...types].filter((t) => t !== 'xstate.init').map((t) => [t, exec])),
      states: {
        '*': (expected: AuthSnapshot) => {
          const real = live.actor.getSnapshot()
          expect(observable(real)).toEqual(observable(expected))
          checkInvariants(real)
        },
      },
    })
  } finally {
    live.actor.stop()
  }
}

describe('auth model', () => {
  it('plans a bounded set of paths', () => {
    expect(paths.length).toBeGreaterThan(30)
    expect(paths.length).toBeLessThan(5000)
  })

  it('turns every actor answer and the refresh delay into model events', () => {
    expect(modelEvents.map((e) => `${e.kind} ${e.type}`).sort()).toEqual(
      [
        'actor.done xstate.done.actor.loadUser',
        'actor.error xstate.error.actor.loadUser',
        'actor.done xstate.done.actor.reloadUser',
        'actor.error xstate.error.actor.reloadUser',
        'actor.done xstate.done.actor.refreshToken',
        'actor.error xstate.error.actor.refreshToken',
        'actor.done xstate.done.actor.refreshToken',
        'actor.error xstate.error.actor.refreshToken',
        'actor.done xstate.done.actor.logout',
        'actor.error xstate.error.actor.logout',
        'after xstate.after.REFRESH_INTERVAL.auth.loggedIn.refresh.waiting',
        'after xstate.after.REFRESH_INTERVAL.auth.singleLink.waiting',
      ].sort(),
    )
  })

  it('replays every planned path on the real machine, and visits every state and transition', async () => {
    const recorder = createCoverageRecorder(liveMachine)
    for (const path of paths) {
      try {
        await replay(path, recorder)
      } catch (error) {
        throw new Error(`path failed: ${describePath(path)}\n${String(error)}`)
      }
    }
    const report = recorder.report()
    console.info(`${formatCoverage('auth', report)} (${paths.length} paths)`)
    expect(report.states.missing).toEqual([])
    expect(report.transitions.missing).toEqual([])
    expect(report.states.covered).toBe(report.states.total)
    expect(report.transitions.covered).toBe(listTransitions(liveMachine).length)
  })
})

// ---------------------------------------------------------------------------------------------------------
// Focused cases

async function loggedInLive(token: string = tokens.client, user: AuthUser = users.ana!) {
  const live = startLive()
  live.actor.send({ type: 'TOKEN.RECEIVED', token })
  live.pending.loadUser.at(-1)!.resolve(user)
  await flush()
  return live
}

describe('auth session', () => {
  it('loads the user of a restored token and counts as logged in only then', async () => {
    const live = startLive()
    const snap = () => live.actor.getSnapshot()
    expect(authStatus(snap())).toBe('loggedOut')
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.client })
    expect(authStatus(snap())).toBe('loggingIn')
    expect(isLoggedIn(snap())).toBe(false)
    expect(live.pending.loadUser[0]!.input.claims).toMatchObject({ type: 'client', sub: '7', sid: 'sa' })
    live.pending.loadUser[0]!.resolve(users.ana)
    await flush()
    expect(isLoggedIn(snap())).toBe(true)
    expect(snap().context.user).toEqual(users.ana)
  })

  it('ignores malformed and expired tokens', () => {
    const live = startLive()
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.garbage })
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.expired })
    expect(authStatus(live.actor.getSnapshot())).toBe('loggedOut')
    expect(live.pending.loadUser).toHaveLength(0)
  })

  it('treats an mfa token as not logged in, and loads the user once the second factor passed', async () => {
    const live = startLive()
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.backOfficeMfa })
    expect(authStatus(live.actor.getSnapshot())).toBe('mfaRequired')
    expect(isLoggedIn(live.actor.getSnapshot())).toBe(false)
    expect(live.pending.loadUser).toHaveLength(0)
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.backOffice })
    expect(authStatus(live.actor.getSnapshot())).toBe('loggingIn')
    live.pending.loadUser[0]!.resolve(users.admin)
    await flush()
    expect(isBackOffice(live.actor.getSnapshot())).toBe(true)
  })

  it('refreshes the token every interval, not a millisecond early, and keeps a refreshed token', async () => {
    const live = await loggedInLive()
    live.clock.increment(REFRESH - 1)
    expect(live.pending.refreshToken).toHaveLength(0)
    live.clock.increment(1)
    expect(live.pending.refreshToken).toHaveLength(1)
    // The API client hands the new token over while the call answers.
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.clientRefreshed })
    live.pending.refreshToken[0]!.resolve({ expiresIn: 900 })
    await flush()
    const snap = live.actor.getSnapshot()
    expect(snap.context.token).toBe(tokens.clientRefreshed)
    expect(snap.context.user).toEqual(users.ana)
    expect(live.pending.loadUser).toHaveLength(1)
    live.clock.increment(REFRESH)
    expect(live.pending.refreshToken).toHaveLength(2)
  })

  it('refreshes every 240000 ms by default', async () => {
    const clock = new SimulatedClock()
    const refreshed: number[] = []
    const machine = authMachine.provide({
      actors: {
        loadUser: fromPromise(async () => users.ana!),
        refreshToken: fromPromise<unknown, SessionActorInput>(async () => {
          refreshed.push(clock.now())
          return null
        }),
      },
    })
    const actor = createActor(machine, { clock, input: { now: () => NOW } }).start()
    actor.send({ type: 'TOKEN.RECEIVED', token: tokens.client })
    await flush()
    clock.increment(REFRESH_INTERVAL_MS - 1)
    expect(refreshed).toEqual([])
    clock.increment(1)
    await flush()
    expect(refreshed).toEqual([REFRESH_INTERVAL_MS])
    actor.stop()
  })

  it('logs out on a 401/403: token, cookie and private data cleared, redirect asked for', async () => {
    const live = await loggedInLive()
    live.actor.send({ type: 'API.UNAUTHORIZED', status: 403, path: '/web/private/client' })
    const snap = live.actor.getSnapshot()
    expect(authStatus(snap)).toBe('loggedOut')
    expect(snap.context).toMatchObject({ token: null, claims: null, user: null })
    expect(live.calls).toEqual({ forgetToken: 1, resetClientData: 1 })
    expect(live.emitted).toEqual([{ type: 'session.ended', reason: 'unauthorized' }])
  })

  it('logs out through the server, then clears everything, even when the server call fails', async () => {
    for (const outcome of ['resolve', 'reject'] as const) {
      const live = await loggedInLive()
      live.actor.send({ type: 'LOGOUT' })
      expect(authStatus(live.actor.getSnapshot())).toBe('loggingOut')
      expect(live.calls.forgetToken).toBe(0)
      const call = live.pending.logout[0]!
      expect(call.input.claims.type).toBe('client')
      if (outcome === 'resolve') call.resolve({ loggedOut: true })
      else call.reject(new Error('offline'))
      await flush()
      expect(authStatus(live.actor.getSnapshot())).toBe('loggedOut')
      expect(live.calls).toEqual({ forgetToken: 1, resetClientData: 1 })
      expect(live.emitted).toEqual([{ type: 'session.ended', reason: 'logout' }])
    }
  })

  it('a restored token the server refuses ends quietly (no redirect reason of a live session)', async () => {
    const live = startLive()
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.client })
    live.actor.send({ type: 'API.UNAUTHORIZED', status: 401 })
    expect(authStatus(live.actor.getSnapshot())).toBe('loggedOut')
    expect(live.emitted).toEqual([{ type: 'session.ended', reason: 'loadFailed' }])
  })

  it('a session end waits in loggedOut.sessionEnded for the guards, until the login page is reached', async () => {
    const live = await loggedInLive()
    live.actor.send({ type: 'API.UNAUTHORIZED', status: 401 })
    expect(live.actor.getSnapshot().value).toEqual({ loggedOut: 'sessionEnded' })
    expect(pendingSessionEnd(live.actor.getSnapshot())).toEqual({ reason: 'unauthorized' })
    expect(isSettled(live.actor.getSnapshot())).toBe(true)
    live.actor.send({ type: 'SESSION.END.SEEN' })
    expect(live.actor.getSnapshot().value).toEqual({ loggedOut: 'anonymous' })
    expect(pendingSessionEnd(live.actor.getSnapshot())).toBeNull()

    // A new login before the login page was reached forgets the old end.
    const again = await loggedInLive()
    again.actor.send({ type: 'LOGOUT' })
    again.pending.logout[0]!.resolve({})
    await flush()
    expect(pendingSessionEnd(again.actor.getSnapshot())).toEqual({ reason: 'logout' })
    again.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.otherClient })
    expect(authStatus(again.actor.getSnapshot())).toBe('loggingIn')
    expect(again.actor.getSnapshot().context.ended).toBeNull()
  })

  it('a restored session the server refuses leaves no session end for the guards', async () => {
    const live = startLive()
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.client })
    live.pending.loadUser[0]!.reject(new Error('HTTP 401'))
    await flush()
    expect(live.actor.getSnapshot().value).toEqual({ loggedOut: 'anonymous' })
    expect(pendingSessionEnd(live.actor.getSnapshot())).toBeNull()
  })

  it('a single-link session refreshes, is not "logged in", and never loads the client', async () => {
    const live = startLive()
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.singleLink })
    const snap = live.actor.getSnapshot()
    expect(authStatus(snap)).toBe('singleLink')
    expect(isLoggedIn(snap)).toBe(false)
    expect(live.pending.loadUser).toHaveLength(0)
    live.clock.increment(REFRESH)
    expect(live.pending.refreshToken).toHaveLength(1)
  })

  it('a single-link session whose loan call failed is logged out, with the notice for the login page', async () => {
    const live = startLive()
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.singleLink })
    live.actor.send({ type: 'SINGLE_LINK.FAILED' })
    const snap = () => live.actor.getSnapshot()
    expect(snap().value).toEqual({ loggedOut: 'sessionEnded' })
    expect(pendingSessionEnd(snap())).toEqual({ reason: 'linkFailed' })
    expect({ token: snap().context.token, notice: snap().context.notice }).toEqual({
      token: null,
      notice: 'linkFailed',
    })
    expect(live.calls).toEqual({ forgetToken: 1, resetClientData: 1 })
    expect(live.emitted).toEqual([{ type: 'session.ended', reason: 'linkFailed' }])
    // The login page is reached: the guards are done, the notice stays for the page to show.
    live.actor.send({ type: 'SESSION.END.SEEN' })
    expect(snap().value).toEqual({ loggedOut: 'anonymous' })
    expect(snap().context.notice).toBe('linkFailed')
    // The next session clears it.
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.client })
    expect(snap().context.notice).toBeNull()
  })

  it('a 401/403 of a single-link session ends it as a failed link; SINGLE_LINK.FAILED means nothing elsewhere', async () => {
    const live = startLive()
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.singleLink })
    live.actor.send({ type: 'API.UNAUTHORIZED', status: 401, path: '/web/private/client/loan/active' })
    expect(pendingSessionEnd(live.actor.getSnapshot())).toEqual({ reason: 'linkFailed' })
    expect(live.actor.getSnapshot().context.notice).toBe('linkFailed')

    const client = await loggedInLive()
    client.actor.send({ type: 'SINGLE_LINK.FAILED' })
    expect(isLoggedIn(client.actor.getSnapshot())).toBe(true)
    client.actor.send({ type: 'API.UNAUTHORIZED', status: 401 })
    expect(pendingSessionEnd(client.actor.getSnapshot())).toEqual({ reason: 'unauthorized' })
    expect(client.actor.getSnapshot().context.notice).toBeNull()
  })

  it('another session arriving resets the previous user data and loads the new user', async () => {
    const live = await loggedInLive()
    live.actor.send({ type: 'TOKEN.RECEIVED', token: tokens.otherClient })
    expect(authStatus(live.actor.getSnapshot())).toBe('loggingIn')
    expect(live.actor.getSnapshot().context.user).toBeNull()
    expect(live.calls.resetClientData).toBe(1)
    expect(live.pending.loadUser.at(-1)!.input.claims.sub).toBe('8')
  })

  it('reloads and updates the user without leaving the session', async () => {
    const live = await loggedInLive()
    live.actor.send({ type: 'USER.RELOAD' })
    expect(isLoggedIn(live.actor.getSnapshot())).toBe(true)
    live.pending.loadUser.at(-1)!.resolve(users.anaRenamed)
    await flush()
    expect(live.actor.getSnapshot().context.user).toEqual(users.anaRenamed)
    live.actor.send({ type: 'USER.UPDATED', user: users.ana! })
    expect(live.actor.getSnapshot().context.user).toEqual(users.ana)
  })
})

describe('session token decoding', () => {
  it('reads the claims of a server-shaped token and refuses anything else', () => {
    expect(decodeSessionToken(tokens.singleLink)).toEqual({
      sid: 'sc',
      sub: '7',
      type: 'client',
      mfa: false,
      sl: true,
      exp,
    })
    expect(decodeSessionToken('a.b.c')).toBeNull()
    expect(decodeSessionToken(jwt({ sid: 'x', sub: '1', type: 'root', exp }))).toBeNull()
    expect(decodeSessionToken(null)).toBeNull()
  })
})
