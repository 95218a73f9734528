// @vitest-environment happy-dom
/**
 * The session wiring of the app services against a fake network: the token restored from the `auth.token`
 * cookie, the user loaded with it, a refreshed token taken from the Authorization header, and a 403 on any call
 * logging out (token and cookie gone, private cached data dropped, public data kept).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { waitFor } from 'xstate'
import { getClient, refreshClientToken } from '../../domain/contract/identity'
import { authStatus, isLoggedIn } from '../../machines/auth.machine'
import { readCookie, removeCookie, writeCookie } from '../../src/app/cookies'
import { createAppServices } from '../../src/app/services'

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'HS256' })}.${part({ exp: Math.floor(Date.now() / 1000) + 900, ...claims })}.sig`
}
const restored = jwt({ sid: 's1', sub: '7', type: 'client', mfa: false, sl: false })
const refreshed = jwt({ sid: 's1', sub: '7', type: 'client', mfa: false, sl: false, iat: 2 })
const client = { id: 7, email: 'ana@example.ph', firstName: 'Ana', status: 1 }

interface Call {
  method: string
  url: string
  authorization: string | null
}

let calls: Call[] = []
let blocked = false

function answer(status: number, data: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ success: status < 400, data, response: { status } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

beforeEach(() => {
  calls = []
  blocked = false
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(new URL(input, location.href), init)
      const path = new URL(request.url).pathname
      calls.push({ method: request.method, url: path, authorization: request.headers.get('authorization') })
      if (blocked) return answer(403, null)
      if (path === '/web/private/client') return answer(200, client)
      if (path === '/web/private/client/token/refresh')
        return answer(200, { expiresIn: 900 }, { authorization: `Bearer ${refreshed}` })
      if (path === '/web/private/client/logout') return answer(200, { loggedOut: true })
      return answer(404, null)
    }),
  )
  // The server writes this cookie with every token; the helpers write it the same way a page would read it.
  writeCookie('auth.token', restored, 900)
})

afterEach(() => {
  vi.unstubAllGlobals()
  removeCookie('auth.token')
})

async function started() {
  const services = createAppServices()
  await waitFor(services.auth, isLoggedIn, { timeout: 2000 })
  return services
}

describe('app services: the session', () => {
  it('restores the session from the cookie and loads the client with its token', async () => {
    const { auth } = await started()
    expect(calls[0]).toEqual({
      method: 'GET',
      url: '/web/private/client',
      authorization: `Bearer ${restored}`,
    })
    expect(auth.getSnapshot().context.user).toEqual(client)
    auth.stop()
  })

  it('keeps a refreshed token from the Authorization header and sends it next', async () => {
    const { auth, api } = await started()
    await api.call(refreshClientToken)
    expect(authStatus(auth.getSnapshot())).toBe('loggedIn')
    expect(auth.getSnapshot().context.token).toBe(refreshed)
    await api.call(getClient)
    expect(calls.at(-1)?.authorization).toBe(`Bearer ${refreshed}`)
    auth.stop()
  })

  it('logs out on a 403: token and cookie gone, private data dropped, public data kept', async () => {
    const { auth, api, queryClient } = await started()
    queryClient.setQueryData(['public', 'calculator-config'], { ok: true })
    queryClient.setQueryData(['client', 'loan'], { secret: true })
    blocked = true
    await expect(api.call(getClient)).rejects.toMatchObject({ status: 403 })
    const snapshot = auth.getSnapshot()
    expect(authStatus(snapshot)).toBe('loggedOut')
    expect(snapshot.context.token).toBeNull()
    // happy-dom may keep an emptied cookie for the instant Max-Age=0 takes; the token is gone either way (the
    // e2e test checks the cookie is removed in Chromium).
    expect(readCookie('auth.token') ?? '').toBe('')
    expect(queryClient.getQueryData(['client', 'loan'])).toBeUndefined()
    expect(queryClient.getQueryData(['public', 'calculator-config'])).toEqual({ ok: true })
    auth.stop()
  })

  it('logs out through the server with the token, then forgets it', async () => {
    const { auth } = await started()
    auth.send({ type: 'LOGOUT' })
    await waitFor(auth, (s) => authStatus(s) === 'loggedOut', { timeout: 2000 })
    expect(calls.at(-1)).toEqual({
      method: 'POST',
      url: '/web/private/client/logout',
      authorization: `Bearer ${restored}`,
    })
    // happy-dom may keep an emptied cookie for the instant Max-Age=0 takes; the token is gone either way (the
    // e2e test checks the cookie is removed in Chromium).
    expect(readCookie('auth.token') ?? '').toBe('')
    auth.stop()
  })

  it('ignores a cookie that holds no usable token', async () => {
    writeCookie('auth.token', 'garbage', 900)
    const { auth } = createAppServices()
    expect(authStatus(auth.getSnapshot())).toBe('loggedOut')
    expect(calls).toEqual([])
    auth.stop()
  })
})
