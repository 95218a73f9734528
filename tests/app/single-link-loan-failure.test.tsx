// @vitest-environment happy-dom
/**
 * Spec section 4: "A single-link cookie can trigger loading the loan, and a logout if that call fails." With the
 * app's own services (src/app/services.ts: the real API client over a stubbed fetch, the real auth machine) and
 * the real route tree followed as src/main.tsx does: My loan of a single-link session asks for the loan; a
 * refused call (404, or a 401) ends the session through the auth machine (no page navigates), the route guards
 * take the browser to /login, and the login page says the link expired or could not be used. A 5xx (or no
 * answer) is the server's trouble, not the link's: the session stays (src/app/servicing.ts `endsSingleLink`).
 */
import { QueryClientProvider } from '@tanstack/react-query'
import { createMemoryHistory, createRouter } from '@tanstack/react-router'
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { pendingSessionEnd } from '../../machines/auth.machine'
import { ApiError } from '../../src/api/client'
import { AppServicesProvider } from '../../src/app/app-context'
import { authRedirect } from '../../src/app/auth-guards'
import { followMachines, machineRoute } from '../../src/app/machine-routing'
import { type AppServices, createAppServices } from '../../src/app/services'
import { endsSingleLink } from '../../src/app/servicing'
import { MyLoanScreen } from '../../src/features/application/my-loan-screen'
import { LoginPage } from '../../src/features/auth/login-page'
import { MessagesProvider } from '../../src/i18n/messages'
import { routeTree } from '../../src/route-tree.gen'
import { messages } from '../support/messages'

vi.mock('@tanstack/react-router', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@tanstack/react-router')>()),
  // The screens render outside a RouterProvider here: a link is a plain anchor.
  Link: ({ to, children, className }: { to: string; children: ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
}))

const LOAN_PATH = '/web/private/client/loan/active'

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'HS256' })}.${part({ exp: Math.floor(Date.now() / 1000) + 900, ...claims })}.sig`
}
const singleLinkToken = jwt({ sid: 'sl1', sub: '7', type: 'client', mfa: false, sl: true })

/** How the server answers the loan call in a test; every other call answers an empty success. */
let loanAnswer: { status: number; code: string; message: string } = { status: 200, code: 'ok', message: '' }
let asked: string[] = []

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

beforeEach(() => {
  asked = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(new URL(input, location.href), init)
      const path = new URL(request.url).pathname
      asked.push(`${request.method} ${path}`)
      if (path === LOAN_PATH) {
        const { status, code, message } = loanAnswer
        return json(status, {
          success: false,
          data: null,
          response: { status, code, message, violations: [] },
        })
      }
      return json(200, { success: true, data: [], response: { status: 200 } })
    }),
  )
})

const stops: (() => void)[] = []
afterEach(() => {
  cleanup()
  for (const stop of stops.splice(0)) stop()
  vi.unstubAllGlobals()
})

/** The app's services with a single-link session, and the router on My loan following the auth machine. */
async function singleLinkOnMyLoan() {
  const services = createAppServices()
  stops.push(
    () => services.auth.stop(),
    () => services.shell.stop(),
    () => services.journey.actor.stop(),
    () => services.application.submit.stop(),
  )
  services.auth.send({ type: 'TOKEN.RECEIVED', token: singleLinkToken })
  expect(services.auth.getSnapshot().matches('singleLink')).toBe(true)
  const router = createRouter({
    routeTree,
    history: createMemoryHistory({ initialEntries: ['/profile/my-loan'] }),
    context: services,
  })
  stops.push(followMachines(router, [machineRoute({ actor: services.auth, redirectFor: authRedirect })]))
  await router.load()
  expect(router.state.location.pathname).toBe('/profile/my-loan')
  return { services, router }
}

function Screen({ services, children }: { services: AppServices; children: ReactNode }) {
  return (
    <MessagesProvider messages={messages}>
      <AppServicesProvider services={services}>
        <QueryClientProvider client={services.queryClient}>{children}</QueryClientProvider>
      </AppServicesProvider>
    </MessagesProvider>
  )
}

const notice = messages.auth.login.singleLinkFailed

describe('a single-link session whose loan call fails', () => {
  it('a refused loan call logs it out: /login, with the notice that the link could not be used', async () => {
    loanAnswer = { status: 404, code: 'notFound', message: 'Not found' }
    const { services, router } = await singleLinkOnMyLoan()
    render(
      <Screen services={services}>
        <MyLoanScreen />
      </Screen>,
    )
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(asked).toContain(`GET ${LOAN_PATH}`)
    // No page to come back to: the link's session is gone, a login is a new start.
    expect(router.state.location.search).toEqual({})
    const snapshot = services.auth.getSnapshot()
    // The /login guard acknowledged the end; the notice stays for the page.
    expect(snapshot.value).toEqual({ loggedOut: 'anonymous' })
    expect(pendingSessionEnd(snapshot)).toBeNull()
    expect([snapshot.context.token, snapshot.context.notice]).toEqual([null, 'linkFailed'])
    expect(document.cookie).not.toContain('auth.token=')
    cleanup()

    render(
      <Screen services={services}>
        <LoginPage />
      </Screen>,
    )
    const shown = screen.getByText(notice).closest('[data-notice]')
    expect(shown?.getAttribute('data-notice')).toBe('single-link-failed')
    expect(shown?.getAttribute('role')).toBe('status')
    // The login form is there to log in with a password instead.
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy()
  })

  it('a 401 on the loan call ends it the same way (a link that expired)', async () => {
    loanAnswer = { status: 401, code: 'unauthorized', message: 'Token expired' }
    const { services, router } = await singleLinkOnMyLoan()
    render(
      <Screen services={services}>
        <MyLoanScreen />
      </Screen>,
    )
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(router.state.location.search).toEqual({})
    expect(services.auth.getSnapshot().context.notice).toBe('linkFailed')
  })

  it('a 5xx is the server failing, not the link: the session stays on My loan', async () => {
    loanAnswer = { status: 503, code: 'unavailable', message: 'Service unavailable' }
    const { services, router } = await singleLinkOnMyLoan()
    render(
      <Screen services={services}>
        <MyLoanScreen />
      </Screen>,
    )
    // The screen says the loan could not be loaded and offers a retry.
    expect(await screen.findByRole('button', { name: messages.application.retry })).toBeTruthy()
    expect(asked).toContain(`GET ${LOAN_PATH}`)
    expect(services.auth.getSnapshot().matches('singleLink')).toBe(true)
    expect(router.state.location.pathname).toBe('/profile/my-loan')
  })
})

describe('endsSingleLink', () => {
  it('counts a refusal and an unreadable answer; not a 5xx, no answer, or a cancelled call', () => {
    const api = (status: number) => new ApiError(status, LOAN_PATH, 'x', 'x', [])
    expect([400, 401, 403, 404, 409, 422].map((s) => endsSingleLink(api(s)))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ])
    expect([500, 502, 503].map((s) => endsSingleLink(api(s)))).toEqual([false, false, false])
    let unreadable: unknown
    try {
      v.parse(v.object({ id: v.number() }), { id: 'nine' })
    } catch (error) {
      unreadable = error
    }
    expect(endsSingleLink(unreadable)).toBe(true)
    expect(endsSingleLink(new TypeError('Failed to fetch'))).toBe(false)
    expect(endsSingleLink(new DOMException('The operation was aborted.', 'AbortError'))).toBe(false)
  })
})
