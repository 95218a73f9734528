// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { submitRoute } from '../../../machines/calculator-submit.machine'
import { createApplicationServices } from '../../../src/app/application-services'
import { removeCookie } from '../../../src/app/cookies'
import { Calculator } from '../../../src/features/calculator/calculator'
import {
  CALCULATOR_COOKIE,
  readCalculatorCookie,
  writeCalculatorCookie,
} from '../../../src/features/calculator/calculator-cookie'
import { Harness, scriptedApi } from './harness'

afterEach(() => {
  cleanup()
  removeCookie(CALCULATOR_COOKIE)
})

const loggedInRepeat = {
  loggedIn: true,
  availableAmount: 2_000_000,
  closedLoansCount: 2,
  hasActiveLoan: false,
}

function stat(name: string) {
  return document.querySelector(`[data-stat="${name}"] dd`)
}

describe('<Calculator>', () => {
  it('shows the loading overlay, then sliders with units and the visitor summary', async () => {
    const { api, calls } = scriptedApi()
    render(
      <Harness api={api}>
        <Calculator />
      </Harness>,
    )
    expect(screen.getByRole('status')).toHaveProperty('textContent', 'Loading the calculator…')
    const amount = await screen.findByRole('slider', { name: 'Amount' })
    expect(amount.getAttribute('aria-valuetext')).toBe('PHP 5 000.00')
    expect(amount.getAttribute('step')).toBe('10000')
    expect(screen.getByRole('slider', { name: 'Term' }).getAttribute('aria-valuetext')).toBe('30 days')
    await waitFor(() => expect(stat('repay-date')?.textContent).toBe('12.22.2026'))
    expect(stat('principal')?.textContent).toBe('₱5 000.00')
    expect(stat('tenor')?.textContent).toBe('30 days')
    expect(stat('package-fee')?.textContent).toBe('₱15.00')
    // A visitor sees no interest, processing fee or total.
    expect(stat('interest')).toBeNull()
    expect(stat('processing-fee')).toBeNull()
    expect(stat('total')).toBeNull()
    // The stats follow the spec's order.
    expect([...document.querySelectorAll('[data-stat]')].map((e) => e.getAttribute('data-stat'))).toEqual([
      'principal',
      'repay-date',
      'package-fee',
      'tenor',
    ])
    expect(calls).toContain('/public/arithmetic/offer/stl/first/500000/30?optionalFee=true')
    // The state is kept for the next page.
    await waitFor(() =>
      expect(readCalculatorCookie()).toMatchObject({ amount: 500_000, term: 30, tab: 'new' }),
    )
  })

  it('shows the error overlay when the configuration fails, and Retry recovers', async () => {
    const scripted = scriptedApi()
    scripted.failConfig = 1
    render(
      <Harness api={scripted.api}>
        <Calculator />
      </Harness>,
    )
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('The calculator could not load.')
    expect(alert.closest('[data-error]')?.getAttribute('data-error')).toBe('[API] failed to load configs')
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('slider', { name: 'Amount' })).toBeTruthy()
  })

  it('renders nothing when the client can borrow less than the minimum', async () => {
    const { api, calls } = scriptedApi()
    const { container } = render(
      <Harness api={api}>
        <Calculator client={{ ...loggedInRepeat, availableAmount: 50_000 }} />
      </Harness>,
    )
    await waitFor(() => expect(calls).toContain('/public/config/calculator'))
    await waitFor(() => expect(container.innerHTML).toBe(''))
  })

  it('shows a logged-in client the costs, struck-out originals with a red flag, and the extra note', async () => {
    const { api, calls } = scriptedApi({ discounted: true })
    const application = createApplicationServices({ api, refreshJourney: () => {} })
    render(
      <Harness api={api} application={application}>
        <Calculator client={loggedInRepeat} extraNote />
      </Harness>,
    )
    await waitFor(() => expect(stat('total')).not.toBeNull())
    expect(calls.some((c) => c.startsWith('/private/client/arithmetic/offer/stl/1000000/60'))).toBe(true)
    const interest = stat('interest')!
    // 10 000 × 0.19% × 60 days = 1 140.00, less 20% = 912.00.
    expect(interest.querySelector('s')?.textContent).toBe('Before discount: PHP 1 140.00₱1 140.00')
    expect(interest.querySelector('.calculator__value')?.textContent).toBe('₱912.00')
    expect(interest.querySelector('.calculator__flag')?.textContent).toContain('20% discount')
    // No discount on the processing fee: nothing struck out there.
    expect(stat('processing-fee')?.querySelector('s')).toBeNull()
    expect([...document.querySelectorAll('[data-stat]')].map((e) => e.getAttribute('data-stat'))).toEqual([
      'principal',
      'repay-date',
      'interest',
      'processing-fee',
      'package-fee',
      'tenor',
      'total',
    ])

    const more = screen.getByRole('button', { name: 'More' })
    expect(more.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(more)
    expect(screen.getByRole('button', { name: 'Hide' }).getAttribute('aria-expanded')).toBe('true')
    // A logged-in client submits to apply (no active loan, so no additional loan): the app's submit machine
    // names the page, for the route guard to take the client there; the calculator navigates nowhere.
    fireEvent.click(screen.getByRole('button', { name: 'Apply now' }))
    expect(submitRoute(application.submit.getSnapshot())).toBe('/application/apply')
    expect(application.submit.getSnapshot().context.decision).toMatchObject({
      target: 'apply',
      amount: 1_000_000,
      term: 60,
    })
    expect(screen.getByRole('button', { name: 'Please wait…' })).toBeTruthy()
  })

  it('hides the tabs when the limit is set to first, and the extra note without closed loans', async () => {
    const { api } = scriptedApi()
    render(
      <Harness api={api}>
        <Calculator client={{ ...loggedInRepeat, closedLoansCount: 0, limitFirst: true }} extraNote />
      </Harness>,
    )
    await screen.findByRole('slider', { name: 'Amount' })
    expect(screen.queryByRole('tablist')).toBeNull()
    expect(screen.queryByRole('button', { name: 'More' })).toBeNull()
  })

  it('sends a promo code to the machine only once the server accepts it', async () => {
    const { api, calls, put } = scriptedApi()
    render(
      <Harness api={api}>
        <Calculator />
      </Harness>,
    )
    const field = await screen.findByRole('textbox', { name: 'Promo code' })
    const apply = () => fireEvent.click(screen.getByRole('button', { name: 'Apply the promo code' }))

    fireEvent.change(field, { target: { value: 'x!' } })
    apply()
    const shapeError = await screen.findByRole('alert')
    expect(shapeError.getAttribute('data-error-key')).toBe('error-promo-applied-wrong')
    expect(shapeError.textContent).toBe('A promo code is 3 to 10 letters or digits.')
    expect(put).not.toHaveBeenCalled()

    fireEvent.change(field, { target: { value: 'oldpromo' } })
    apply()
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('This promo code has expired.'))
    expect(put).toHaveBeenLastCalledWith('/public/client/promocode/validate', { promoCode: 'OLDPROMO' })
    expect(calls.some((c) => c.includes('promo_name'))).toBe(false)

    fireEvent.change(field, { target: { value: 'hiram10' } })
    apply()
    await screen.findByText('Promo code HIRAM10 applied. You see the discount once you log in.')
    await waitFor(() => expect(calls.some((c) => c.includes('promo_name=HIRAM10'))).toBe(true))
    fireEvent.click(screen.getByRole('button', { name: 'Remove the promo code' }))
    await waitFor(() => expect(readCalculatorCookie()?.promoCode).toBeNull())
  })

  it('restores the cookie state through the machine, and reports a restored promo the offer refused', async () => {
    writeCalculatorCookie({
      amount: 730_000,
      term: 99,
      tab: 'new',
      optionalFee: false,
      promoCode: 'OLDPROMO',
    })
    const { api, calls } = scriptedApi()
    render(
      <Harness api={api}>
        <Calculator />
      </Harness>,
    )
    const amount = await screen.findByRole('slider', { name: 'Amount' })
    // Re-validated: rounded down to the PHP 100 interval, the term clamped to the new-client max.
    expect(amount.getAttribute('aria-valuetext')).toBe('PHP 7 300.00')
    expect(screen.getByRole('slider', { name: 'Term' }).getAttribute('aria-valuetext')).toBe('30 days')
    expect(screen.getByRole('checkbox', { name: 'Add the borrowers advantage package' })).toHaveProperty(
      'checked',
      false,
    )
    await waitFor(() =>
      expect(calls).toContain(
        '/public/arithmetic/offer/stl/first/730000/30?optionalFee=false&promo_name=OLDPROMO',
      ),
    )
    const refusal = await screen.findByRole('alert')
    expect(refusal.getAttribute('data-error-key')).toBe('error-promo-applied-wrong')
    expect(refusal.textContent).toBe('This promo code has expired.')
  })

  it('compact mode shows a one-line summary and opens the sliders with Edit', async () => {
    const { api } = scriptedApi()
    render(
      <Harness api={api}>
        <Calculator mode="compact" submit={false} />
      </Harness>,
    )
    const edit = await screen.findByRole('button', { name: 'Edit' })
    expect(screen.getByText('₱5 000.00 for 30 days')).toBeTruthy()
    expect(edit.getAttribute('aria-expanded')).toBe('false')
    expect(document.getElementById(edit.getAttribute('aria-controls')!)?.hidden).toBe(true)
    expect(screen.queryByRole('button', { name: 'Apply now' })).toBeNull()
    fireEvent.click(edit)
    expect(document.getElementById(edit.getAttribute('aria-controls')!)?.hidden).toBe(false)
    fireEvent.change(screen.getByRole('slider', { name: 'Term' }), { target: { value: '14' } })
    expect(screen.getByText('₱5 000.00 for 14 days')).toBeTruthy()
  })

  it('forwards changed client facts to the machine (CONTEXT.UPDATE)', async () => {
    const { api, calls } = scriptedApi()
    const view = render(
      <Harness api={api}>
        <Calculator />
      </Harness>,
    )
    await screen.findByRole('slider', { name: 'Amount' })
    expect(screen.queryByText(/Log in to see/)).not.toBeNull()
    view.rerender(
      <Harness api={api}>
        <Calculator client={loggedInRepeat} />
      </Harness>,
    )
    await waitFor(() => expect(stat('total')).not.toBeNull())
    // The visitor's offer stays on screen until the client's own is priced, 300 ms later.
    await waitFor(() =>
      expect(calls.some((c) => c.startsWith('/private/client/arithmetic/offer/stl/'))).toBe(true),
    )
    // A client's tab is their history, not a choice (issue 13): no tabs, the repeat-client terms.
    expect(screen.queryByRole('tablist')).toBeNull()
    expect(screen.getByRole('slider', { name: 'Term' }).getAttribute('max')).toBe('60')
  })
})
