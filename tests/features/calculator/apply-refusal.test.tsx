// @vitest-environment happy-dom
/**
 * Issue 13 item 11 on /application/apply with the REAL compact calculator: a first-time client is never
 * offered the repeat-client tab or its terms; and when the server still refuses the figures (its configuration
 * changed since the page loaded), the page says why and how to fix it, and Apply comes back as soon as the
 * client changes the value, without a reload.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defaultCalculatorConfig } from '../../../domain/calculator-config'
import { ApiError } from '../../../src/api/client'
import { removeCookie, writeCookie } from '../../../src/app/cookies'
import { ApplyScreen } from '../../../src/features/application/apply-screen'
import { ApplyCalculator } from '../../../src/features/calculator/apply-calculator'
import { CALCULATOR_COOKIE } from '../../../src/features/calculator/calculator-cookie'
import { createApplication, newIdempotencyKey } from '../../../src/features/calculator/submit'
import { Harness, scriptedApi } from '../application/harness'
import { offerFor } from './harness'

vi.mock('@tanstack/react-router', () => ({
  useNavigate: () => vi.fn(),
  Link: ({ children, to }: { children: unknown; to: string }) => <a href={to}>{children as never}</a>,
}))

afterEach(cleanup)
beforeEach(() => removeCookie(CALCULATOR_COOKIE))

const firstTimeClient = { availableLoanAmount: { amount: 1_000_000 }, closedLoansCount: 0 }

/** The apply page for a first-time client; `serverMaxTerm` is the server's idea of the longest first loan. */
function renderApply(serverMaxTerm = 30) {
  const offers: string[] = []
  const offer = (path: string) => {
    offers.push(path)
    const [, amount, term] = /\/(\d+)\/(\d+)$/.exec(path)!.map(Number)
    if (term! > serverMaxTerm) {
      throw new ApiError(400, `/web${path}`, 'validationError', 'The request is not valid.', [
        {
          propertyPath: 'term',
          message: `Repeat-client terms need a repaid loan: choose up to ${serverMaxTerm} days.`,
        },
      ])
    }
    return { ...offerFor(amount!, term!), promo: null }
  }
  const get = new Proxy(
    {
      '/public/config/calculator': defaultCalculatorConfig,
      '/private/client': firstTimeClient,
      '/private/client/application/actual/status': null,
    } as Record<string, unknown>,
    {
      has: () => true,
      get: (table, path: string) => (path in table ? table[path] : offer),
    },
  )
  const { api } = scriptedApi({ get, post: () => ({ id: 7, status: 1 }) })
  render(
    <Harness api={api}>
      <ApplyScreen Calculator={ApplyCalculator} create={createApplication} newKey={newIdempotencyKey} />
    </Harness>,
  )
  return { offers }
}

const applyButton = async () =>
  within(await screen.findByRole('form', { name: 'Apply' })).getByRole('button', { name: 'Apply' })

async function openEditor() {
  const edit = await screen.findByRole('button', { name: 'Edit' })
  fireEvent.click(edit)
}

describe('/application/apply for a first-time client', () => {
  it('offers no repeat-client tab, and the term stops at the first-loan maximum', async () => {
    // A cookie from the home page, where the visitor picked the repeat-client tab and 60 days.
    writeCookie(CALCULATOR_COOKIE, JSON.stringify({ amount: 2_000_000, term: 60, tab: 'repeat' }), 3600)
    const { offers } = renderApply()
    await waitFor(async () => expect((await applyButton()).hasAttribute('disabled')).toBe(false), {
      timeout: 5000,
    })
    expect(screen.queryByRole('tablist')).toBeNull()
    expect(screen.queryByRole('tab', { name: 'Repeat client' })).toBeNull()
    await openEditor()
    const term = screen.getByRole('slider', { name: 'Term' })
    expect(term.getAttribute('max')).toBe('30')
    fireEvent.change(term, { target: { value: '60' } })
    expect(term.getAttribute('aria-valuetext')).toBe('30 days')
    expect(screen.getByRole('slider', { name: 'Amount' }).getAttribute('max')).toBe('1000000')
    // Every request asked was one the server prices.
    expect(offers.every((p) => p.endsWith('/30'))).toBe(true)
    expect(screen.queryByText('We could not price this loan just now.')).toBeNull()
  })

  it('a refusal says why and how; changing the term re-enables Apply', async () => {
    // The server now allows 21 days at most; the page loaded the older configuration (30 days).
    renderApply(21)
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 })
    expect(alert.textContent).toContain('We cannot offer this amount and term to you.')
    expect(
      within(alert).getByText('Repeat-client terms need a repaid loan: choose up to 21 days.'),
    ).toBeTruthy()
    expect(screen.queryByText('We could not price this loan just now.')).toBeNull()
    // No retry of a refused request; Apply waits for figures the server prices.
    expect(within(alert).queryByRole('button')).toBeNull()
    expect((await applyButton()).hasAttribute('disabled')).toBe(true)
    // The sliders are open for the fix, without looking for Edit.
    const term = screen.getByRole('slider', { name: 'Term' })
    expect(term.closest('[hidden]')).toBeNull()
    fireEvent.change(term, { target: { value: '21' } })
    await waitFor(async () => expect((await applyButton()).hasAttribute('disabled')).toBe(false), {
      timeout: 5000,
    })
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
