// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  AcceptedCashScreen,
  AcceptedScreen,
  CashPickupScreen,
} from '../../../src/features/application/accepted-screens'
import {
  ApplicationLoading,
  POLL_MS,
  TIMEOUT_MS,
} from '../../../src/features/application/application-loading'
import { ManualVerificationScreen } from '../../../src/features/application/manual-verification-screen'
import { RejectedScreen } from '../../../src/features/application/rejected-screen'
import { applicationFor, Harness, scriptedApi } from './harness'

vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children, className }: { to: string; children: ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
}))

afterEach(cleanup)

const ACTUAL = '/private/client/application/actual'
const STATUS = '/private/client/application/actual/status'

function figure(name: string) {
  return document.querySelector(`[data-figure="${name}"] dd`)?.textContent
}

describe('<ApplicationLoading>', () => {
  it('polls every 2 to 3 seconds and times out after a minute by default', () => {
    expect(POLL_MS).toBeGreaterThanOrEqual(2_000)
    expect(POLL_MS).toBeLessThanOrEqual(3_000)
    expect(TIMEOUT_MS).toBe(60_000)
  })

  it('polls the status and asks the journey to refresh whenever it changes', async () => {
    const statuses = [1, 1, 7, 7, 3]
    const { api, get } = scriptedApi({ get: { [STATUS]: () => ({ status: statuses.shift() ?? 3, id: 42 }) } })
    const journey = vi.fn()
    render(
      <Harness api={api} journey={journey}>
        <ApplicationLoading pollMs={20} timeoutMs={5_000} />
      </Harness>,
    )
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('We are checking your application')
    expect(screen.getByRole('status').textContent).toBe('Checking your application…')
    await waitFor(() => expect(get.mock.calls.length).toBeGreaterThanOrEqual(6))
    // 1 (first answer), 7, 3: three changes, three refreshes; repeated answers send nothing.
    expect(journey.mock.calls).toEqual([
      [{ type: 'FLOW.REFRESH' }],
      [{ type: 'FLOW.REFRESH' }],
      [{ type: 'FLOW.REFRESH' }],
    ])
    expect(get.mock.calls.every(([path]) => path === STATUS)).toBe(true)
  })

  it('while the scoring provider checks the client (verification, 7) says so, and that it may take a day', async () => {
    const statuses = [1, 7]
    const { api } = scriptedApi({ get: { [STATUS]: () => ({ status: statuses.shift() ?? 7, id: 42 }) } })
    render(
      <Harness api={api}>
        <ApplicationLoading pollMs={20} timeoutMs={5_000} />
      </Harness>,
    )
    expect(screen.getByRole('status').textContent).toBe('Checking your application…')
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Confirming your details…'))
    expect(screen.getByText(/confirming some of your details with a credit bureau/).textContent).toContain(
      'up to a day',
    )
  })

  it('after the time-out stops polling and offers to keep waiting or leave', async () => {
    const { api, get } = scriptedApi({ get: { [STATUS]: { status: 1 } } })
    render(
      <Harness api={api}>
        <ApplicationLoading pollMs={20} timeoutMs={150} />
      </Harness>,
    )
    const alert = await screen.findByRole('alert', {}, { timeout: 2_000 })
    expect(alert.getAttribute('data-error-key')).toBe('application-loading-timeout')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('This is taking longer than usual')
    expect(screen.getByRole('link', { name: 'Go to my profile' }).getAttribute('href')).toBe('/profile')
    expect(screen.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact')
    const asked = get.mock.calls.length
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(get.mock.calls.length).toBe(asked)
    fireEvent.click(screen.getByRole('button', { name: 'Keep waiting' }))
    expect(screen.getByRole('status').textContent).toBe('Checking your application…')
    await waitFor(() => expect(get.mock.calls.length).toBeGreaterThan(asked))
  })
})

const accepted = applicationFor(3, { loanAmount: { amount: 500_000, currency: 'PHP' }, offeredAmount: null })

describe('accepted screens', () => {
  it('/application/accepted: the amount, the term and where the money goes', async () => {
    const { api } = scriptedApi({ get: { [ACTUAL]: accepted } })
    render(
      <Harness api={api}>
        <AcceptedScreen />
      </Harness>,
    )
    await waitFor(() => expect(figure('amount')).toBe('₱5,000.00'))
    expect(figure('term')).toBe('21 days')
    expect(screen.getByText(/We are sending ₱5,000.00 to your bank account/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'See my loan' }).getAttribute('href')).toBe('/profile/my-loan')
  })

  const cash = applicationFor(3, {
    loanAmount: { amount: 500_000, currency: 'PHP' },
    disbursementType: { type: 'cash_pickup', provider: 'cebuana' },
    cashPickupNumber: 'CP-2026-778812',
  })

  it('/application/accepted-cash: the pickup number and a link to how to claim', async () => {
    const { api } = scriptedApi({ get: { [ACTUAL]: cash } })
    render(
      <Harness api={api}>
        <AcceptedCashScreen />
      </Harness>,
    )
    await waitFor(() => expect(figure('cash-pickup-number')).toBe('CP-2026-778812'))
    expect(screen.getByText('Your ₱5,000.00 is ready to claim at a Cebuana Lhuillier branch.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'How to claim your cash' }).getAttribute('href')).toBe(
      '/application/cash-pickup',
    )
  })

  it('/application/cash-pickup: the number, the amount, where to claim and what to bring', async () => {
    const { api } = scriptedApi({ get: { [ACTUAL]: cash } })
    render(
      <Harness api={api}>
        <CashPickupScreen />
      </Harness>,
    )
    await waitFor(() => expect(figure('cash-pickup-number')).toBe('CP-2026-778812'))
    expect(figure('amount')).toBe('₱5,000.00')
    expect(document.querySelector('[data-figure="provider"]')?.textContent).toBe(
      'Go to any Cebuana Lhuillier branch within 7 days.',
    )
    expect(screen.getAllByRole('listitem')).toHaveLength(3)
  })

  it('without a pickup number yet, says it is on its way', async () => {
    const { api } = scriptedApi({ get: { [ACTUAL]: { ...cash, cashPickupNumber: null } } })
    render(
      <Harness api={api}>
        <CashPickupScreen />
      </Harness>,
    )
    expect((await screen.findByText(/being prepared/)).getAttribute('role')).toBe('status')
  })

  it('no application at all is an error with its key, not an empty page', async () => {
    const { api } = scriptedApi({ get: { [ACTUAL]: null } })
    render(
      <Harness api={api}>
        <AcceptedScreen />
      </Harness>,
    )
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-error-key')).toBe('applicationNotFound')
    expect(alert.textContent).toContain('We could not find your application.')
  })

  it('a failed load shows the error key and Retry loads again', async () => {
    let fail = true
    const { api, get } = scriptedApi({
      get: {
        [ACTUAL]: () => {
          if (fail) throw Object.assign(new Error('404'), { code: 'applicationNotFound' })
          return accepted
        },
      },
    })
    render(
      <Harness api={api}>
        <AcceptedScreen />
      </Harness>,
    )
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-error-key')).toBe('applicationNotFound')
    fail = false
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(figure('amount')).toBe('₱5,000.00'))
    expect(get).toHaveBeenCalledTimes(2)
  })
})

describe('<ManualVerificationScreen>', () => {
  it('explains the wait and offers contact, with no calls', () => {
    const { api, get } = scriptedApi({})
    render(
      <Harness api={api}>
        <ManualVerificationScreen />
      </Harness>,
    )
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('We are reviewing your application')
    expect(screen.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact')
    expect(get).not.toHaveBeenCalled()
  })
})

describe('<RejectedScreen>', () => {
  const now = () => new Date('2026-11-22T10:00:00Z')

  it('says from when a new application is possible (MMM DD, YYYY)', async () => {
    const { api } = scriptedApi({ get: { [ACTUAL]: applicationFor(6, { reapplyFrom: '2026-12-05' }) } })
    render(
      <Harness api={api}>
        <RejectedScreen now={now} />
      </Harness>,
    )
    await waitFor(() =>
      expect(document.querySelector('[data-figure="reapply"]')?.textContent).toBe(
        'You can send a new application from Dec 05, 2026.',
      ),
    )
    expect(screen.queryByRole('link', { name: 'Apply again' })).toBeNull()
  })

  it('an instant is read on the Manila calendar', async () => {
    const { api } = scriptedApi({
      get: { [ACTUAL]: applicationFor(6, { reapplyFrom: '2026-12-05T17:00:00Z' }) },
    })
    render(
      <Harness api={api}>
        <RejectedScreen now={now} />
      </Harness>,
    )
    await waitFor(() =>
      expect(document.querySelector('[data-figure="reapply"]')?.textContent).toBe(
        'You can send a new application from Dec 06, 2026.',
      ),
    )
  })

  it('when a new application is possible now, links to apply', async () => {
    const { api } = scriptedApi({ get: { [ACTUAL]: applicationFor(6, { reapplyFrom: '2026-11-22' }) } })
    render(
      <Harness api={api}>
        <RejectedScreen now={now} />
      </Harness>,
    )
    expect((await screen.findByRole('link', { name: 'Apply again' })).getAttribute('href')).toBe(
      '/application/apply',
    )
    expect(screen.getByText('You can send a new application now.')).toBeTruthy()
  })
})
