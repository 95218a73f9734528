// @vitest-environment happy-dom
/**
 * The sandbox banner (docs/decisions/0018) in the real layout: shown on every page while the server says an
 * adapter is sandboxed, as a labelled region, and absent when the deployment is real or the answer fails (a
 * failed answer never takes the page down: the call is quiet). The QA panel shows in it only in sandbox mode: with
 * the QA cookie, or while the instance's sandbox mode is on (docs/decisions/0039).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import type { Environment } from '../../domain/environment'
import { authMachine } from '../../machines/auth.machine'
import { ApiError } from '../../src/api/client'
import { AppServicesProvider } from '../../src/app/app-context'
import { DEPLOYMENT_QUERY_KEY } from '../../src/app/deployment'
import type { AppServices } from '../../src/app/services'
import { loadMessages, MessagesProvider } from '../../src/i18n/messages'
import { SandboxBanner } from '../../src/ui/layout/sandbox-banner'
import { withCall } from '../support/fake-api'

afterEach(cleanup)

const environment = (sandbox: boolean, sandboxMode = false): Environment => ({
  sandbox,
  sandboxMode,
  sandboxed: sandbox ? ['identityVerification'] : [],
  captcha: { provider: 'sandbox', siteKey: null },
})

/** The banner with what it reads from the app (texts, services, the query cache), before `after`. */
async function bannerPage(services: AppServices, after?: ReactNode) {
  return (
    <MessagesProvider messages={await loadMessages('en')}>
      <AppServicesProvider services={services}>
        <QueryClientProvider client={services.queryClient}>
          <SandboxBanner />
          {after}
        </QueryClientProvider>
      </AppServicesProvider>
    </MessagesProvider>
  )
}

async function renderBanner(
  get: (path: string, options?: { quiet?: boolean }) => Promise<unknown>,
  page: (path: string) => Promise<unknown> = async () => ({ items: [] }),
) {
  const api = withCall({ get: vi.fn(get), page: vi.fn(page) })
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  // Nobody logged in: the panel's "me" needs a client session.
  const auth = createActor(authMachine, { input: {} }).start()
  render(await bannerPage({ api, queryClient, auth } as unknown as AppServices, <p>page</p>))
  return api.get as ReturnType<typeof vi.fn>
}

describe('sandbox banner', () => {
  it('shows a labelled region saying nothing is real while the server runs sandbox adapters', async () => {
    const get = await renderBanner(async () => environment(true))
    const region = await screen.findByRole('region', { name: 'Sandbox environment' })
    expect(region.textContent).toMatch(/^Sandbox Nothing here is real/)
    expect(get).toHaveBeenCalledWith('/public/environment', expect.objectContaining({ quiet: true }))
  })

  it('leaves the QA panel out without the QA cookie, and shows it while the instance is in sandbox mode', async () => {
    await renderBanner(async () => environment(true))
    await screen.findByRole('region', { name: 'Sandbox environment' })
    expect(screen.queryByRole('region', { name: 'Sandbox panel' })).toBeNull()
    cleanup()
    const scenarios = vi.fn(async () => ({ items: [] }))
    await renderBanner(async () => environment(true, true), scenarios)
    await screen.findByRole('region', { name: 'Sandbox panel' }, { timeout: 5000 })
    expect(scenarios).toHaveBeenCalledWith('/public/sandbox/scenarios', expect.anything())
    // Not logged in: no "me" to choose, and no QA cookie to leave.
    expect(screen.queryByRole('radio', { name: 'Me (the client logged in)' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Leave sandbox mode' })).toBeNull()
  })

  it('shows nothing on a real deployment', async () => {
    const get = await renderBanner(async () => environment(false))
    await waitFor(() => expect(get).toHaveBeenCalled())
    await screen.findByText('page')
    expect(screen.queryByRole('region', { name: 'Sandbox environment' })).toBeNull()
  })

  it('shows nothing when the answer fails', async () => {
    const get = await renderBanner(async (path) => {
      throw new ApiError(503, `/web${path}`, 'serviceUnavailable', 'Unavailable.', [])
    })
    await waitFor(() => expect(get).toHaveBeenCalled())
    expect(screen.queryByRole('region', { name: 'Sandbox environment' })).toBeNull()
  })

  it('is rendered by the server from the answer the page comes with, leaving the QA panel to the browser', async () => {
    // The server knows neither the QA cookie nor the client: even in the instance's sandbox mode it renders the
    // banner alone, and the browser, hydrating the same markup, adds the panel after (no mismatch, no shift).
    const queryClient = new QueryClient()
    queryClient.setQueryData(DEPLOYMENT_QUERY_KEY, environment(true, true))
    const get = vi.fn()
    const services = {
      api: withCall({ get, page: vi.fn() }),
      queryClient,
      auth: createActor(authMachine, { input: {} }).start(),
    } as unknown as AppServices
    const html = renderToString(await bannerPage(services))
    expect(html).toMatch(
      /^<section class="sandbox-banner" aria-label="Sandbox environment"><p[^>]*>.*<\/p><\/section>$/,
    )
    expect(html).toContain('Nothing here is real')
    expect(get).not.toHaveBeenCalled()
  })
})
