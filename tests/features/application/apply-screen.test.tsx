// @vitest-environment happy-dom
/**
 * /application/apply with the REAL compact calculator and the real create call (features/calculator/submit.ts):
 * the body the server gets, the Idempotency-Key, the campaign cookie sent once, the journey refresh instead of
 * navigation, and the server's answers on the form.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defaultCalculatorConfig } from '../../../domain/calculator-config'
import { ApiError } from '../../../src/api/client'
import { readCookie, removeCookie, writeCookie } from '../../../src/app/cookies'
import { ApplyScreen } from '../../../src/features/application/apply-screen'
import { ApplyCalculator } from '../../../src/features/calculator/apply-calculator'
import { createApplication, newIdempotencyKey } from '../../../src/features/calculator/submit'
import { offerFor } from '../calculator/harness'
import { Harness, scriptedApi } from './harness'

vi.mock('@tanstack/react-router', () => ({
  useNavigate: () => vi.fn(),
  Link: ({ children, to }: { children: unknown; to: string }) => <a href={to}>{children as never}</a>,
}))

afterEach(cleanup)
beforeEach(() => {
  removeCookie('affiliate')
  removeCookie('calculator')
})

function setup(post: (path: string, body?: unknown, options?: unknown) => unknown, status: unknown = null) {
  const { api, get, post: postSpy } = scriptedApi({ post })
  get.mockImplementation(async (path: string) => {
    const match = /\/(\d+)\/(\d+)$/.exec(path)
    if (match) return { ...offerFor(Number(match[1]), Number(match[2])), promo: null }
    if (path === '/public/config/calculator') return defaultCalculatorConfig
    if (path === '/private/client') return { availableLoanAmount: { amount: 1_000_000 }, closedLoansCount: 0 }
    if (path === '/private/client/application/actual/status') return status
    throw new Error(`unexpected GET ${path}`)
  })
  const journey = vi.fn()
  render(
    <Harness api={api} journey={journey}>
      <ApplyScreen Calculator={ApplyCalculator} create={createApplication} newKey={newIdempotencyKey} />
    </Harness>,
  )
  return { post: postSpy, journey }
}

const submit = async () => {
  const form = await screen.findByRole('form', { name: 'Apply' })
  const button = form.querySelector('button[type="submit"]') as HTMLButtonElement
  await waitFor(() => expect(button.disabled).toBe(false), { timeout: 5000 })
  fireEvent.click(button)
}

describe('/application/apply', () => {
  it('creates the application from the calculator with the consent, campaign and an Idempotency-Key, then refreshes the journey', async () => {
    writeCookie('affiliate', JSON.stringify({ utm_source: 'fb', utm_campaign: 'payday' }), 1800)
    const { post, journey } = setup(() => ({ id: 7, status: 1 }))
    // The consent is the calculator's own checkbox, in view without opening Edit, accepted by default.
    const consent = await screen.findByRole('checkbox', { name: 'Add the borrowers advantage package' })
    expect((consent as HTMLInputElement).checked).toBe(true)
    expect(screen.getByLabelText('Promo code')).toBeTruthy()
    await submit()
    await waitFor(() => expect(journey).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(post).toHaveBeenCalledTimes(1)
    const [path, body, options] = post.mock.calls[0]!
    expect(path).toBe('/private/client/application')
    expect(body).toEqual({
      loanAmount: { amount: 500_000, currency: 'PHP' },
      term: { value: 30, unit: 'day' },
      paymentMethod: 'bank_transfer',
      consents: { acceptBorrowersAdvantagePackageFee: true },
      iovation: { ioBB: '' },
      affiliate: { utm_source: 'fb', utm_campaign: 'payday' },
    })
    expect(options).toEqual({
      headers: { 'Idempotency-Key': expect.stringMatching(/^apply-[0-9a-f-]{36}$/) },
      quiet: true,
    })
    // Sent once, then removed (spec section 2, Campaign parameters).
    expect(readCookie('affiliate')).toBeNull()
  })

  it('an unticked consent is sent as false', async () => {
    const { post } = setup(() => ({ id: 7, status: 1 }))
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Add the borrowers advantage package' }))
    await submit()
    await waitFor(() => expect(post).toHaveBeenCalled())
    expect(post.mock.calls[0]![1]).toMatchObject({ consents: { acceptBorrowersAdvantagePackageFee: false } })
  })

  it('a 500 shows the ERP message, keeps the campaign, and a retry of the same figures reuses the key', async () => {
    writeCookie('affiliate', JSON.stringify({ utm_source: 'fb' }), 1800)
    const { post, journey } = setup(() => {
      throw new ApiError(500, '/web/private/client/application', 'internalError', 'Internal error', [])
    })
    await submit()
    expect((await screen.findByText('ERP failed to create application')).getAttribute('data-error-key')).toBe(
      'error-create-application',
    )
    expect(readCookie('affiliate')).not.toBeNull()
    expect(journey).not.toHaveBeenCalled()
    await submit()
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2))
    const key = (call: unknown[]) =>
      (call[2] as { headers: Record<string, string> }).headers['Idempotency-Key']
    expect(key(post.mock.calls[1]!)).toBe(key(post.mock.calls[0]!))
  })

  it('server violations are shown on the form with their keys', async () => {
    setup(() => {
      throw new ApiError(400, '/web/private/client/application', 'validationError', 'Invalid', [
        { propertyPath: 'loanAmount.amount', message: 'The amount is above the amount available to you.' },
        { propertyPath: 'term.value', message: 'The term is too long.' },
      ])
    })
    await submit()
    const amount = await screen.findByText('Amount: The amount is above the amount available to you.')
    expect(amount.getAttribute('data-error-key')).toBe('error-amount-out-of-range')
    expect(screen.getByText('Term: The term is too long.').getAttribute('data-error-key')).toBe(
      'error-term-out-of-range',
    )
  })

  it('applicationExist says so and offers the application page', async () => {
    const { journey } = setup(() => {
      throw new ApiError(409, '/web/private/client/application', 'applicationExist', 'Exists', [])
    })
    await submit()
    expect(await screen.findByText('You already have an application')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Open my application' }).getAttribute('href')).toBe(
      '/application/loading',
    )
    expect(journey).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' })
  })

  it('an application in progress is shown instead of the form', async () => {
    const { post } = setup(() => null, { id: 3, status: 14 })
    expect(await screen.findByText('You already have an application')).toBeTruthy()
    expect(screen.queryByRole('form', { name: 'Apply' })).toBeNull()
    expect(post).not.toHaveBeenCalled()
  })
})
