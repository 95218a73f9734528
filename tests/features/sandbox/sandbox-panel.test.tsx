// @vitest-environment happy-dom
/**
 * The sandbox panel's two targets (docs/decisions/0039): a client logged in with a way to make fresh clients (the
 * QA cookie, the instance's sandbox mode) chooses "a new client" (the default) or "me"; "me" runs the scenario on
 * the client logged in over the client route, keeps the session and reloads the profile. With only the client's own
 * switch there is nothing to choose: the scenarios run on them, from their own list.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ScenarioSummary } from '../../../domain/contract/sandbox-scenarios'
import { AppServicesProvider } from '../../../src/app/app-context'
import type { AppServices } from '../../../src/app/services'
import SandboxPanel, { type SandboxGrants } from '../../../src/features/sandbox/sandbox-panel'
import { ensureMessages, MessagesProvider } from '../../../src/i18n/messages'
import { withCall } from '../../support/fake-api'

vi.mock('@tanstack/react-router', () => ({
  Link: ({ children, to }: { children: unknown; to: string }) => <a href={to}>{children as string}</a>,
}))

afterEach(cleanup)

const overdue: ScenarioSummary = {
  name: 'loan-overdue-10',
  title: 'Overdue loan with its penalty',
  description: 'Overdue.',
  journeyStep: 'loan_page',
  applicationStatus: null,
  loanState: 'active.on_terms.overdue',
  loanStatus: null,
  takesDays: true,
  defaultDays: 10,
}

const outcome = {
  scenario: 'loan-overdue-10',
  clientId: 7,
  login: { phone: '09170000007', email: 'c@example.ph', password: null },
  journeyStep: 'loan_page',
  what: 'Overdue loan with its penalty: 10 days past the due date',
  destination: '/profile/my-loan',
}

async function renderPanel(grants: SandboxGrants, clientLoggedIn: boolean) {
  const page = vi.fn(async () => ({ items: [overdue] }))
  const post = vi.fn(async () => outcome)
  const api = withCall({ page, post })
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const auth = { send: vi.fn() }
  const services = { api, queryClient, auth } as unknown as AppServices
  render(
    <MessagesProvider messages={await ensureMessages(['sandbox'])}>
      <AppServicesProvider services={services}>
        <QueryClientProvider client={queryClient}>
          <SandboxPanel grants={grants} clientLoggedIn={clientLoggedIn} />
        </QueryClientProvider>
      </AppServicesProvider>
    </MessagesProvider>,
  )
  return { page, post, auth }
}

describe('sandbox panel targets', () => {
  it('a new client by default; "me" runs on the client logged in and reloads their profile', async () => {
    const { page, post, auth } = await renderPanel({ qa: true, instance: false, client: false }, true)
    expect(page).toHaveBeenCalledWith('/public/sandbox/scenarios', expect.anything())
    expect((await screen.findByRole<HTMLInputElement>('radio', { name: 'A new client' })).checked).toBe(true)
    fireEvent.click(screen.getByRole('radio', { name: 'Me (the client logged in)' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Overdue loan with its penalty (10 days)' }))
    expect(await screen.findByText(/You are still logged in as yourself/)).toBeTruthy()
    expect(post).toHaveBeenCalledWith('/private/client/sandbox/scenarios/loan-overdue-10', { days: 10 })
    expect(auth.send).toHaveBeenCalledWith({ type: 'USER.RELOAD' })
    expect(screen.getByRole('link', { name: /Open the client’s page/ }).getAttribute('href')).toBe(
      '/profile/my-loan',
    )
  })

  it('a new client runs over the public route', async () => {
    const { post, auth } = await renderPanel({ qa: false, instance: true, client: false }, true)
    fireEvent.click(await screen.findByRole('button', { name: 'Overdue loan with its penalty (10 days)' }))
    await screen.findByText(/You are logged in as the client/)
    expect(post).toHaveBeenCalledWith('/public/sandbox/scenarios/loan-overdue-10', { days: 10 })
    expect(auth.send).not.toHaveBeenCalled()
  })

  it("with only the client's own switch: no choice, the client's own list, and no QA cookie to leave", async () => {
    const { page, post } = await renderPanel({ qa: false, instance: false, client: true }, true)
    expect(page).toHaveBeenCalledWith('/private/client/sandbox/scenarios', expect.anything())
    fireEvent.click(await screen.findByRole('button', { name: 'Overdue loan with its penalty (10 days)' }))
    await screen.findByText(/You are still logged in as yourself/)
    expect(post).toHaveBeenCalledWith('/private/client/sandbox/scenarios/loan-overdue-10', { days: 10 })
    expect(screen.queryByRole('radio')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Leave sandbox mode' })).toBeNull()
  })
})
