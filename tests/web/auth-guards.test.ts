// @vitest-environment happy-dom
/**
 * The route guards against the real route tree and the real auth machine: a memory-history router whose context
 * carries an auth actor with the session actors answered by the test. `beforeLoad` waits for the session to
 * settle, then the machine's state decides where each visitor ends up.
 */

import { QueryClient } from '@tanstack/react-query'
import { createMemoryHistory, createRouter } from '@tanstack/react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { appShellMachine } from '../../machines/app-shell.machine'
import { type AuthUser, authMachine, type SessionActorInput } from '../../machines/auth.machine'
import type { ApiClient } from '../../src/api/client'
import { afterLogin } from '../../src/features/auth/guards'
import { createJourneyActor } from '../../src/features/journey/journey-actor'
import { routeTree } from '../../src/route-tree.gen'

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'HS256' })}.${part({ exp: Math.floor(Date.now() / 1000) + 900, ...claims })}.sig`
}
const tokens = {
  client: jwt({ sid: 'a', sub: '7', type: 'client', mfa: false, sl: false }),
  admin: jwt({ sid: 'b', sub: '1', type: 'user', mfa: false, sl: false }),
  mfa: jwt({ sid: 'c', sub: '1', type: 'user', mfa: true, sl: false }),
  singleLink: jwt({ sid: 'd', sub: '7', type: 'client', mfa: false, sl: true }),
}
const users: Record<string, AuthUser> = {
  client: { id: 7, email: 'ana@example.ph', firstName: 'Ana' },
  user: { id: 1, email: 'admin@hiram.local', name: 'Admin', roles: ['admin'] },
}

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

/** A router at `path` after its guards ran, for a session started with `token` (or none). */
async function visit(path: string, token?: keyof typeof tokens, loadFails = false) {
  let answerLoad: () => void = () => {}
  const loaded = new Promise<void>((resolve) => {
    answerLoad = resolve
  })
  const auth = createActor(
    authMachine.provide({
      actors: {
        loadUser: fromPromise<AuthUser, SessionActorInput>(async ({ input }) => {
          await loaded
          if (loadFails) throw new Error('HTTP 401')
          return users[input.claims.type]!
        }),
      },
    }),
    { input: {} },
  ).start()
  const shell = createActor(appShellMachine, { input: {} }).start()
  const journey = createJourneyActor({ getFlow: () => new Promise(() => {}) })
  stops.push(
    () => journey.stop(),
    () => auth.stop(),
    () => shell.stop(),
  )
  if (token) auth.send({ type: 'TOKEN.RECEIVED', token: tokens[token] })
  const router = createRouter({
    routeTree,
    history: createMemoryHistory({ initialEntries: [path] }),
    context: {
      auth,
      shell,
      queryClient: new QueryClient(),
      api: {} as ApiClient,
      // A journey that never heard of a session: it redirects nothing, so these tests see the auth guards alone.
      journey: { actor: journey, readCookie: () => null, effects: {} },
    },
  })
  // The guard waits while the user loads: answer the load only after the router started deciding.
  const loading = router.load()
  answerLoad()
  await loading
  return router.state.location
}

describe('route guards', () => {
  it('send a visitor from a guarded page to login, keeping where they were going', async () => {
    for (const path of ['/profile', '/profile/change-password', '/application/apply', '/admin']) {
      const location = await visit(path)
      expect(location.pathname).toBe('/login')
      expect(location.search).toEqual({ redirect: path })
    }
  })

  it('wait for a restored session to load its user, then let the client in', async () => {
    expect((await visit('/profile/change-email', 'client')).pathname).toBe('/profile/change-email')
    expect((await visit('/application/apply', 'client')).pathname).toBe('/application/apply')
  })

  it('treat a restored session the server refuses as no session', async () => {
    expect((await visit('/profile', 'client', true)).pathname).toBe('/login')
  })

  it('send non-admins home from /admin, and let the back office in', async () => {
    expect((await visit('/admin', 'client')).pathname).toBe('/')
    expect((await visit('/admin/router', 'singleLink')).pathname).toBe('/')
    expect((await visit('/admin', 'admin')).pathname).toBe('/admin')
    expect((await visit('/profile', 'admin')).pathname).toBe('/admin')
  })

  it('count a pending second factor as not logged in', async () => {
    expect((await visit('/admin', 'mfa')).pathname).toBe('/login')
  })

  it('keep a single-link session on my loan', async () => {
    expect((await visit('/profile/my-loan', 'singleLink')).pathname).toBe('/profile/my-loan')
    for (const path of ['/profile', '/profile/change-phone', '/application/apply']) {
      expect((await visit(path, 'singleLink')).pathname).toBe('/profile/my-loan')
    }
  })
})

describe('afterLogin', () => {
  const snapshotOf = (token?: keyof typeof tokens) => {
    const auth = createActor(authMachine, { input: {} }).start()
    stops.push(() => auth.stop())
    if (token) auth.send({ type: 'TOKEN.RECEIVED', token: tokens[token] })
    return auth.getSnapshot()
  }

  it('goes back to a same-site path only', () => {
    const client = snapshotOf('client')
    expect(afterLogin('/profile/change-phone', client)).toBe('/profile/change-phone')
    for (const hostile of ['//evil.example/x', 'https://evil.example', '/login?redirect=/x', 'profile'])
      expect(afterLogin(hostile, client)).toBe('/profile')
    expect(afterLogin(undefined, snapshotOf('admin'))).toBe('/admin')
    expect(afterLogin('/profile', snapshotOf('singleLink'))).toBe('/profile/my-loan')
  })
})
