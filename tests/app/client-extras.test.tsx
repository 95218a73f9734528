// @vitest-environment happy-dom
/**
 * The logged-in client's extras in the layout (docs/decisions/0042): the device-data consent asked just in time
 * (a labelled region with two buttons and a link to the policy), nothing collected before "I agree" (no fraud
 * session, no tracking), the answer recorded with the text's version, then the fraud session started; a consent
 * given before starts it at once; the daily limit refreshed once; nothing at all for a visitor.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise, waitFor as waitForState } from 'xstate'
import { DAILY_LIMIT_COOKIE, DEVICE_DATA_CONSENT_VERSION } from '../../domain/tracking'
import { type AuthUser, authMachine, type SessionActorInput } from '../../machines/auth.machine'
import { AppServicesProvider } from '../../src/app/app-context'
import { removeCookie } from '../../src/app/cookies'
import type { AppServices } from '../../src/app/services'
import { MessagesProvider } from '../../src/i18n/messages'
import { ClientExtras } from '../../src/ui/layout/client-extras'
import { fakeApi } from '../support/fake-api'
import { messages } from '../support/messages'

vi.mock('@tanstack/react-router', () => ({
  Link: ({ children, to, hash }: { children: ReactNode; to: string; hash?: string }) => (
    <a href={`${to}${hash ? `#${hash}` : ''}`}>{children}</a>
  ),
}))

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'HS256' })}.${part({ exp: Math.floor(Date.now() / 1000) + 900, ...claims })}.sig`
}
const client = { id: 7, email: 'ana@example.ph', firstName: 'Ana', status: 1 } as unknown as AuthUser
const session = {
  provider: 'sandbox',
  seonSession: 'sbx-seon-1',
  juicySessionId: 'sbx-juicy-1',
  hotjarUserId: 'sbx-hj-1',
  expiresAt: '2026-11-28T09:00:00.000Z',
}
const limit = {
  availableLoanAmount: { amount: 10_000_00 },
  refreshedAt: '2026-11-28T08:00:00.000Z',
  nextRefreshAt: '2026-11-28T20:00:00.000Z',
}

async function renderExtras(granted: boolean | null, loggedIn = true) {
  let consent = {
    granted,
    version: granted === null ? null : DEVICE_DATA_CONSENT_VERSION,
    at: null,
    currentVersion: DEVICE_DATA_CONSENT_VERSION,
  }
  const { api, calls } = fakeApi((call) => {
    const key = `${call.method} ${call.path}`
    if (key === 'GET /private/client/consents/device-data') return consent
    if (key === 'PUT /private/client/consents/device-data') {
      consent = {
        ...(call.body as { granted: boolean; version: string }),
        at: null,
        currentVersion: DEVICE_DATA_CONSENT_VERSION,
      }
      return consent
    }
    if (key === 'POST /private/client/affiliates/session') return session
    if (key === 'PUT /private/client/yhat/limit') return limit
    throw new Error(`unexpected ${key}`)
  })
  const auth = createActor(
    authMachine.provide({
      actors: {
        loadUser: fromPromise<AuthUser, SessionActorInput>(async () => client),
        refreshToken: fromPromise<unknown, SessionActorInput>(async () => ({})),
        logout: fromPromise<unknown, SessionActorInput>(async () => ({})),
      },
    }),
    { input: {} },
  ).start()
  if (loggedIn) {
    auth.send({
      type: 'TOKEN.RECEIVED',
      token: jwt({ sid: 's1', sub: '7', type: 'client', mfa: false, sl: false }),
    })
    await waitForState(auth, (s) => s.context.user !== null)
  }
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const services = { api, queryClient, auth } as unknown as AppServices
  render(
    <MessagesProvider messages={messages}>
      <AppServicesProvider services={services}>
        <QueryClientProvider client={queryClient}>
          <ClientExtras />
        </QueryClientProvider>
      </AppServicesProvider>
    </MessagesProvider>,
  )
  return { calls, auth }
}

const paths = (calls: { method: string; path: string }[]) => calls.map((c) => `${c.method} ${c.path}`)

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{}', { status: 200 })),
  )
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  removeCookie(DAILY_LIMIT_COOKIE)
})

describe('the client extras', () => {
  it('asks for the consent first and collects nothing before it; "I agree" records it and starts the fraud session', async () => {
    const { calls } = await renderExtras(null)
    const notice = await screen.findByRole('region', { name: messages.tracking.consent.title })
    expect(notice.querySelector('a')?.getAttribute('href')).toBe('/documents/policy#policy-3')
    // A panel at the foot of the screen (no layout shift): the page keeps room for it while it shows.
    expect(document.documentElement.classList.contains('consent-notice-open')).toBe(true)
    expect(document.documentElement.style.getPropertyValue('--consent-notice-height')).toMatch(/^\d+px$/)
    await waitFor(() => expect(paths(calls)).toContain('PUT /private/client/yhat/limit'))
    expect(paths(calls)).not.toContain('POST /private/client/affiliates/session')
    expect(fetch).not.toHaveBeenCalled()

    fireEvent.click(screen.getByRole('button', { name: messages.tracking.consent.allow }))
    await waitFor(() => expect(paths(calls)).toContain('POST /private/client/affiliates/session'))
    expect(calls.find((c) => c.method === 'PUT' && c.path.endsWith('device-data'))?.body).toEqual({
      granted: true,
      version: DEVICE_DATA_CONSENT_VERSION,
    })
    expect(screen.queryByRole('region', { name: messages.tracking.consent.title })).toBeNull()
    expect(document.documentElement.classList.contains('consent-notice-open')).toBe(false)
    // The limit was refreshed once for the marker's 12 hours.
    expect(paths(calls).filter((p) => p === 'PUT /private/client/yhat/limit')).toHaveLength(1)
  })

  it('"No, thanks" is recorded too, and nothing is collected', async () => {
    const { calls } = await renderExtras(null)
    fireEvent.click(await screen.findByRole('button', { name: messages.tracking.consent.decline }))
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: messages.tracking.consent.title })).toBeNull(),
    )
    expect(calls.find((c) => c.method === 'PUT' && c.path.endsWith('device-data'))?.body).toEqual({
      granted: false,
      version: DEVICE_DATA_CONSENT_VERSION,
    })
    expect(paths(calls)).not.toContain('POST /private/client/affiliates/session')
    expect(fetch).not.toHaveBeenCalled()
  })

  it('a consent given before: no notice, the fraud session starts, and unmounting sends the stop with keepalive', async () => {
    const { calls } = await renderExtras(true)
    await waitFor(() => expect(paths(calls)).toContain('POST /private/client/affiliates/session'))
    expect(screen.queryByRole('region')).toBeNull()
    cleanup()
    const [url, init] = vi.mocked(fetch).mock.calls.at(-1)! as [string, RequestInit]
    expect(url).toBe('/web/private/client/logger/metrics')
    expect(init.keepalive).toBe(true)
    expect((init.headers as Record<string, string>).authorization).toMatch(/^Bearer /)
    expect(JSON.parse(String(init.body)).events.map((e: { type: string }) => e.type)).toEqual([
      'start',
      'stop',
    ])
  })

  it('a visitor gets nothing: no call, no notice', async () => {
    const { calls } = await renderExtras(null, false)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(calls).toEqual([])
    expect(screen.queryByRole('region')).toBeNull()
  })
})
