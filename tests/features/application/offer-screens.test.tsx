// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../src/api/client'
import {
  type IncreaseCalculatorProps,
  OfferDecreaseScreen,
  OfferIncreaseScreen,
} from '../../../src/features/application/offer-screens'
import { applicationFor, Harness, offerOf, scriptedApi } from './harness'

vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children, className }: { to: string; children: ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
  useNavigate: () => vi.fn(),
}))

afterEach(cleanup)

const ACTUAL = '/private/client/application/actual'
const OFFER = '/private/client/application/42/offer/actual'

function figure(name: string) {
  return document.querySelector(`[data-figure="${name}"] dd`)?.textContent
}

/** The application answers `first` until an answer is sent, then `after` (what the reload reads). */
function decreaseApi(status: number, put?: (path: string, body?: unknown) => unknown) {
  let answered = false
  const scripted = scriptedApi({
    get: {
      [ACTUAL]: () => (answered ? applicationFor(2) : applicationFor(status)),
      [OFFER]: offerOf(500_000, 21),
    },
    put: (path, body) => {
      const result = put?.(path, body)
      answered = true
      return result
    },
  })
  return scripted
}

describe('<OfferDecreaseScreen>', () => {
  it('shows what was asked and the offered figures from the actual offer', async () => {
    const { api } = decreaseApi(17)
    render(
      <Harness api={api}>
        <OfferDecreaseScreen />
      </Harness>,
    )
    await waitFor(() => expect(figure('total')).toBe('₱5,250.00'))
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('A lower offer for you')
    expect(figure('requested')).toBe('₱8,000.00 · 30 days')
    expect(figure('principal')).toBe('₱5,000.00')
    expect(figure('interest')).toBe('₱210.00')
    expect(figure('processing-fee')).toBe('₱25.00')
    expect(figure('package-fee')).toBe('₱15.00')
    expect(figure('term')).toBe('21 days')
    expect(figure('due-date')).toBe('Dec 13, 2026')
  })

  it('approving a yhat decrease calls yhat decrease approve, reloads, and asks the journey to refresh', async () => {
    const { api, put, get } = decreaseApi(17)
    const journey = vi.fn()
    render(
      <Harness api={api} journey={journey}>
        <OfferDecreaseScreen />
      </Harness>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Accept the offer' }))
    await waitFor(() => expect(journey).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(put.mock.calls).toEqual([['/private/client/yhat/offer/approve/decrease', {}, expect.anything()]])
    expect(get.mock.calls.filter(([path]) => path === ACTUAL)).toHaveLength(2)
    expect(screen.getByRole('button', { name: 'Accept the offer' })).toHaveProperty('disabled', true)
  })

  it('the package fee consent starts as the application has it; a change is sent as the application update after the answer', async () => {
    const { api, put } = decreaseApi(17)
    const journey = vi.fn()
    render(
      <Harness api={api} journey={journey}>
        <OfferDecreaseScreen />
      </Harness>,
    )
    const consent = await screen.findByRole('checkbox', { name: "Include the borrower's advantage package" })
    expect(consent).toHaveProperty('checked', true)
    fireEvent.click(consent)
    expect(consent).toHaveProperty('checked', false)
    fireEvent.click(screen.getByRole('button', { name: 'Accept the offer' }))
    await waitFor(() => expect(journey).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    // Spec section 4: the answer first, then the update, with the consent only (the answer set the figures).
    expect(put.mock.calls.map((call) => call.slice(0, 2))).toEqual([
      ['/private/client/yhat/offer/approve/decrease', {}],
      ['/private/client/application/42', { consents: { acceptBorrowersAdvantagePackageFee: false } }],
    ])
  })

  it('a consent changed and changed back sends no update, and a refusal never does', async () => {
    const { api, put, post } = decreaseApi(17)
    const journey = vi.fn()
    render(
      <Harness api={api} journey={journey}>
        <OfferDecreaseScreen />
      </Harness>,
    )
    const consent = await screen.findByRole('checkbox', { name: "Include the borrower's advantage package" })
    fireEvent.click(consent)
    fireEvent.click(screen.getByRole('button', { name: 'No, thank you' }))
    await waitFor(() => expect(journey).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(post.mock.calls.map(([path]) => path)).toEqual(['/private/client/application/42/cancel'])
    expect(put).not.toHaveBeenCalled()
  })

  it('approving a special offer calls special offer approve', async () => {
    const { api, put } = decreaseApi(13)
    render(
      <Harness api={api}>
        <OfferDecreaseScreen />
      </Harness>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Accept the offer' }))
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1))
    expect(put.mock.calls[0]?.[0]).toBe('/private/client/special/offer/approve')
  })

  it('refusing a decrease cancels the application (POST .../cancel), then the journey refreshes', async () => {
    const { api, put, post } = decreaseApi(17)
    const journey = vi.fn()
    render(
      <Harness api={api} journey={journey}>
        <OfferDecreaseScreen />
      </Harness>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'No, thank you' }))
    await waitFor(() => expect(journey).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    // The cancel contract takes no body.
    expect(post.mock.calls.map((c) => c.slice(0, 2))).toEqual([
      ['/private/client/application/42/cancel', undefined],
    ])
    expect(put).not.toHaveBeenCalled()
  })

  it('a failed answer shows its error key with Retry (same call again) and Back', async () => {
    let fail = true
    const { api, put } = decreaseApi(17, () => {
      if (fail) throw new ApiError(409, '/web/x', 'offerExpired', 'Offer expired', [])
    })
    const journey = vi.fn()
    render(
      <Harness api={api} journey={journey}>
        <OfferDecreaseScreen />
      </Harness>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Accept the offer' }))
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-error-key')).toBe('offerExpired')
    expect(alert.textContent).toContain('This offer is no longer available.')
    expect(journey).not.toHaveBeenCalled()
    fail = false
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(journey).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(put.mock.calls.map((c) => c[0])).toEqual([
      '/private/client/yhat/offer/approve/decrease',
      '/private/client/yhat/offer/approve/decrease',
    ])
  })

  it('an application with no offer pending says so and offers no answer', async () => {
    const { api, put } = decreaseApi(3)
    render(
      <Harness api={api}>
        <OfferDecreaseScreen />
      </Harness>,
    )
    expect((await screen.findByText('There is no offer waiting for your answer.')).getAttribute('role')).toBe(
      'status',
    )
    expect(screen.getByRole('button', { name: 'Accept the offer' })).toHaveProperty('disabled', true)
    expect(put).not.toHaveBeenCalled()
  })
})

/** A stand-in calculator: shows the preset it was given and lets the test pick figures. */
function FakeCalculator({ increaseOffer, feeConsent, onSelection }: IncreaseCalculatorProps) {
  return (
    <div data-testid="calculator" data-preset={JSON.stringify(increaseOffer)} data-fee={String(feeConsent)}>
      <button
        type="button"
        onClick={() => onSelection({ amount: 1_000_000, term: 14, optionalFee: feeConsent })}
      >
        pick 10000 for 14
      </button>
      <button type="button" onClick={() => onSelection({ amount: 1_000_000, term: 14, optionalFee: false })}>
        pick 10000 for 14 without the package
      </button>
      <button
        type="button"
        onClick={() => onSelection({ amount: 2_000_000, term: 14, optionalFee: feeConsent })}
      >
        pick too much
      </button>
    </div>
  )
}

function increaseApi() {
  return scriptedApi({
    get: {
      [ACTUAL]: applicationFor(18, {
        offeredAmount: { amount: 1_200_000 },
        term: { value: 30, unit: 'day' },
        desiredTerm: null,
      }),
    },
  })
}

describe('<OfferIncreaseScreen>', () => {
  it('presets the calculator to the offered amount, the application term and the principal as min', async () => {
    const { api } = increaseApi()
    render(
      <Harness api={api}>
        <OfferIncreaseScreen Calculator={FakeCalculator} />
      </Harness>,
    )
    const calculator = await screen.findByTestId('calculator')
    expect(JSON.parse(calculator.getAttribute('data-preset') ?? '')).toEqual({
      amount: 1_200_000,
      term: 30,
      principal: 800_000,
    })
    expect(screen.getByText(/you can borrow up to ₱12,000.00/)).toBeTruthy()
    // Nothing chosen yet: approving waits for the calculator.
    expect(screen.getByRole('button', { name: 'Accept the offer' })).toHaveProperty('disabled', true)
  })

  it('approving sends the chosen amount and term to yhat increase approve', async () => {
    const { api, put } = increaseApi()
    const journey = vi.fn()
    render(
      <Harness api={api} journey={journey}>
        <OfferIncreaseScreen Calculator={FakeCalculator} />
      </Harness>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'pick 10000 for 14' }))
    fireEvent.click(screen.getByRole('button', { name: 'Accept ₱10,000.00 for 14 days' }))
    await waitFor(() => expect(journey).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(put.mock.calls[0]?.slice(0, 2)).toEqual([
      '/private/client/yhat/offer/approve/increase',
      { amount: { amount: 1_000_000, currency: 'PHP' }, term: { value: 14, unit: 'day' } },
    ])
  })

  it('the calculator starts from the application’s consent; leaving the package out sends the update after the approval', async () => {
    const { api, put } = increaseApi()
    const journey = vi.fn()
    render(
      <Harness api={api} journey={journey}>
        <OfferIncreaseScreen Calculator={FakeCalculator} />
      </Harness>,
    )
    expect((await screen.findByTestId('calculator')).dataset.fee).toBe('true')
    fireEvent.click(screen.getByRole('button', { name: 'pick 10000 for 14 without the package' }))
    fireEvent.click(screen.getByRole('button', { name: 'Accept ₱10,000.00 for 14 days' }))
    await waitFor(() => expect(journey).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(put.mock.calls.map((call) => call.slice(0, 2))).toEqual([
      [
        '/private/client/yhat/offer/approve/increase',
        { amount: { amount: 1_000_000, currency: 'PHP' }, term: { value: 14, unit: 'day' } },
      ],
      ['/private/client/application/42', { consents: { acceptBorrowersAdvantagePackageFee: false } }],
    ])
  })

  it('a choice above the offer makes no call and says the allowed range', async () => {
    const { api, put } = increaseApi()
    render(
      <Harness api={api}>
        <OfferIncreaseScreen Calculator={FakeCalculator} />
      </Harness>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'pick too much' }))
    fireEvent.click(screen.getByRole('button', { name: 'Accept ₱20,000.00 for 14 days' }))
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-error-key')).toBe('offer-choice-out-of-range')
    expect(alert.textContent).toBe('Choose an amount between ₱8,000.00 and ₱12,000.00.')
    expect(put).not.toHaveBeenCalled()
  })

  it('refusing sends the original desired amount and term', async () => {
    const { api, put } = increaseApi()
    render(
      <Harness api={api}>
        <OfferIncreaseScreen Calculator={FakeCalculator} />
      </Harness>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'No, thank you' }))
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1))
    expect(put.mock.calls[0]?.slice(0, 2)).toEqual([
      '/private/client/yhat/offer/approve/increase',
      { amount: { amount: 800_000, currency: 'PHP' }, term: { value: 30, unit: 'day' } },
    ])
  })
})
