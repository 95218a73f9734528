// @vitest-environment happy-dom
/**
 * The offer-increase route's composition with the REAL calculator: preset from the pending increase (spec
 * section 4, Calculator), the slider's choice is what the approval sends.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defaultCalculatorConfig } from '../../../domain/calculator-config'
import { OfferIncreaseScreen } from '../../../src/features/application/offer-screens'
import { IncreaseCalculator } from '../../../src/features/calculator/increase-calculator'
import { offerFor } from '../calculator/harness'
import { applicationFor, Harness, scriptedApi } from './harness'

vi.mock('@tanstack/react-router', () => ({ useNavigate: () => vi.fn(), Link: () => null }))

afterEach(cleanup)

describe('/application/offer-increase with the calculator', () => {
  it('presets the sliders to the offer, bounds them to principal..offered, and approves the choice', async () => {
    const application = applicationFor(18, {
      offeredAmount: { amount: 1_200_000 },
      principalAmount: { amount: 800_000 },
      term: { value: 30, unit: 'day' },
    })
    const { api, put, get } = scriptedApi({})
    // The application, the calculator's configuration, the client and any priced offer.
    get.mockImplementation(async (path: string) => {
      const match = /\/arithmetic\/offer\/stl\/(\d+)\/(\d+)$/.exec(path)
      if (match) return { ...offerFor(Number(match[1]), Number(match[2])), promo: null }
      if (path === '/private/client/application/actual') return application
      if (path === '/public/config/calculator') return defaultCalculatorConfig
      if (path === '/private/client')
        return { availableLoanAmount: { amount: 2_000_000 }, closedLoansCount: 1 }
      throw new Error(`unexpected GET ${path}`)
    })
    render(
      <Harness api={api}>
        <OfferIncreaseScreen Calculator={IncreaseCalculator} />
      </Harness>,
    )
    const amount = await screen.findByRole('slider', { name: 'Amount' })
    await waitFor(() => expect(amount.getAttribute('aria-valuetext')).toBe('PHP 12 000.00'))
    expect(amount.getAttribute('min')).toBe('800000')
    expect(amount.getAttribute('max')).toBe('1200000')
    expect(screen.getByRole('slider', { name: 'Term' }).getAttribute('aria-valuetext')).toBe('30 days')

    fireEvent.change(amount, { target: { value: '1000000' } })
    const approve = await screen.findByRole('button', { name: 'Accept ₱10,000.00 for 30 days' })
    fireEvent.click(approve)
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1))
    expect(put.mock.calls[0]?.slice(0, 2)).toEqual([
      '/private/client/yhat/offer/approve/increase',
      { amount: { amount: 1_000_000, currency: 'PHP' }, term: { value: 30, unit: 'day' } },
    ])
  })
})
