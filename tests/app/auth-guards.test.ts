// @vitest-environment happy-dom
/**
 * The route guards against the real route tree and the real auth machine: a memory-history router whose context
 * carries an auth actor with the session actors answered by the test. `beforeLoad` waits for the session to
 * settle, then the machine's state decides where each visitor ends up. With `followMachines` registered as in
 * src/main.tsx, a login, a logout and a 401 move the page on screen without any page calling navigate.
 */

import { QueryClient } from '@tanstack/react-query'
import { createMemoryHistory, createRouter } from '@tanstack/react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { createActor, fromPromise, waitFor } from 'xstate'
import { appShellMachine } from '../../machines/app-shell.machine'
import { type AuthUser, authMachine, type SessionActorInput } from '../../machines/auth.machine'
import type { ApiClient } from '../../src/api/client'
import { createApplicationServices } from '../../src/app/application-services'
import { afterLogin, authRedirect } from '../../src/app/auth-guards'
import { createFlowSyncActor } from '../../src/app/flow-sync-actor'
import { followMachines, machineRoute } from '../../src/app/machine-routing'
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
  user: { id: 1, email: 'admin@hiram.local', name: 'Admin', roles: ['administrator'] },
}

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

/** A router at `path` after its guards ran, for a session started with `token` (or none). */
async function visit(path: string, token?: keyof typeof tokens, loadFails = false) {
  return (await start(path, token, loadFails)).router.state.location
}

async function start(path: string, token?: keyof typeof tokens, loadFails = false, follow = false) {
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
  const journey = createFlowSyncActor({ getFlow: () => new Promise(() => {}) })
  stops.push(
    () => journey.stop(),
    () => auth.stop(),
    () => shell.stop(),
  )
  if (token) auth.send({ type: 'TOKEN.RECEIVED', token: tokens[token] })
  const application = createApplicationServices({ api: {} as ApiClient, refreshJourney: () => {} })
  stops.push(() => application.submit.stop())
  const context = {
    auth: auth as never,
    shell,
    queryClient: new QueryClient(),
    api: {} as ApiClient,
    // A journey that never heard of a session: it redirects nothing, so these tests see the auth guards alone.
    journey: { actor: journey, readCookie: () => null, effects: {} },
    application,
  }
  const router = createRouter({
    routeTree,
    history: createMemoryHistory({ initialEntries: [path] }),
    context,
  })
  // Registered before the first load, as in src/main.tsx.
  if (follow) stops.push(followMachines(router, [machineRoute({ actor: auth, redirectFor: authRedirect })]))
  // The guard waits while the user loads: answer the load only after the router started deciding.
  const loading = router.load()
  answerLoad()
  await loading
  return { router, auth }
}

/** As src/main.tsx registers the auth machine; the router settles after every move it causes. */
async function following(path: string, token?: keyof typeof tokens) {
  const { router, auth } = await start(path, token, false, true)
  const settle = async () => {
    // An invalidation starts a load; let it and any redirect it throws finish.
    for (let i = 0; i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5))
      if (router.state.status === 'idle' && !router.state.isLoading && i > 3) break
    }
    return router.state.location
  }
  return { router, auth, settle }
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

describe('routes from the auth machine (followMachines)', () => {
  it('a logout takes the page to /login, where the session end is acknowledged', async () => {
    const { auth, settle } = await following('/profile/change-password', 'client')
    auth.send({ type: 'LOGOUT' })
    const location = await settle()
    expect(location.pathname).toBe('/login')
    expect(location.search).toEqual({})
    expect(auth.getSnapshot().value).toEqual({ loggedOut: 'anonymous' })
  })

  it('a 401 during a session goes to /login remembering the page, and a new login comes back to it', async () => {
    const { router, auth, settle } = await following('/profile/change-email', 'client')
    auth.send({ type: 'API.UNAUTHORIZED', status: 401 })
    let location = await settle()
    expect(location.pathname).toBe('/login')
    expect(location.search).toEqual({ redirect: '/profile/change-email' })
    expect(auth.getSnapshot().value).toEqual({ loggedOut: 'anonymous' })
    // Later navigation is free: a public page stays.
    await router.navigate({ to: '/faq' })
    expect((await settle()).pathname).toBe('/faq')
    await router.navigate({ to: '/login', search: { redirect: '/profile/change-email' } })
    auth.send({ type: 'TOKEN.RECEIVED', token: tokens.client })
    await waitFor(auth, (s) => s.matches('loggedIn'))
    location = await settle()
    expect(location.pathname).toBe('/profile/change-email')
  })

  it('a 401 on the home page goes to /login without a page to come back to', async () => {
    const { auth, settle } = await following('/', 'client')
    await waitFor(auth, (s) => s.matches('loggedIn'))
    auth.send({ type: 'API.UNAUTHORIZED', status: 403 })
    const location = await settle()
    expect([location.pathname, location.search]).toEqual(['/login', {}])
  })

  it('cancelling the second factor on /login ends the session there, and it is acknowledged', async () => {
    const { auth, settle } = await following('/login', 'mfa')
    expect(auth.getSnapshot().value).toBe('mfaRequired')
    auth.send({ type: 'LOGOUT' })
    const location = await settle()
    expect(location.pathname).toBe('/login')
    expect(auth.getSnapshot().value).toEqual({ loggedOut: 'anonymous' })
  })

  it('a login on /login goes to the after-login page: the back office to /admin', async () => {
    const { auth, settle } = await following('/login')
    auth.send({ type: 'TOKEN.RECEIVED', token: tokens.admin })
    await waitFor(auth, (s) => s.matches('loggedIn'))
    expect((await settle()).pathname).toBe('/admin')
  })

  it('a logged-in visitor of /login goes straight on; a single-link session to my loan', async () => {
    const { settle } = await following('/login?redirect=%2Fprofile%2Fchange-phone', 'client')
    expect((await settle()).pathname).toBe('/profile/change-phone')
    const single = await following('/affiliate/sleeper-otp?lead_id=abc')
    single.auth.send({ type: 'TOKEN.RECEIVED', token: tokens.singleLink })
    expect((await single.settle()).pathname).toBe('/profile/my-loan')
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
