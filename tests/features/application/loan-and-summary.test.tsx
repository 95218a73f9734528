// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../src/api/client'
import { MyLoanScreen } from '../../../src/features/application/my-loan-screen'
import { SummaryScreen, signErrorKey } from '../../../src/features/application/summary-screen'
import { applicationFor, Harness, offerOf, scriptedApi } from './harness'

vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children, className }: { to: string; children: ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
}))

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const LOAN = '/private/client/loan/active'
const ACTUAL = '/private/client/application/actual'
const money = (amount: number) => ({ amount })

function figure(name: string) {
  return document.querySelector(`[data-figure="${name}"] dd`)?.textContent
}

/** GET /private/client/loan/active as the issue 6 server answers it. */
function loanWith({ dueDays = 9, penalty }: { dueDays?: number; penalty?: number } = {}) {
  return {
    id: 9,
    status: 4,
    createdAtDate: '2026-11-01',
    principal: money(500_000),
    amountDue: {
      amount: 525_000 + (penalty ?? 0),
      parts: {
        principal: money(500_000),
        interest: money(21_000),
        fees: money(4_000),
        ...(penalty ? { penalty: money(penalty) } : {}),
      },
    },
    dueDate: '2026-12-01',
    repaymentInvoice: { dueDate: '2026-12-01', dueDays, amount: money(525_000 + (penalty ?? 0)) },
  }
}

describe('<MyLoanScreen>', () => {
  it('shows the principal, the amount due with its parts, the due date and the days left', async () => {
    const { api, get } = scriptedApi({ get: { [LOAN]: loanWith() } })
    render(
      <Harness api={api}>
        <MyLoanScreen />
      </Harness>,
    )
    await waitFor(() => expect(figure('amount-due')).toBe('₱5 250.00'))
    expect(get).toHaveBeenCalledWith(LOAN, expect.anything())
    expect(figure('principal')).toBe('₱5 000.00')
    expect(figure('due-date')).toBe('Dec 01, 2026')
    expect(figure('days-left')).toBe('9 days')
    expect(figure('part-principal')).toBe('₱5 000.00')
    expect(figure('part-interest')).toBe('₱210.00')
    expect(figure('part-fees')).toBe('₱40.00')
    // No penalty, no penalty line.
    expect(document.querySelector('[data-figure="part-penalty"]')).toBeNull()
    expect(screen.getByRole('link', { name: 'How to repay' }).getAttribute('href')).toBe('/repay')
  })

  it.each([
    [1, '1 day'],
    [0, 'Due today'],
    [-1, '1 day overdue'],
    [-4, '4 days overdue'],
  ])('dueDays %i reads %s; a penalty is listed when charged', async (dueDays, text) => {
    const { api } = scriptedApi({ get: { [LOAN]: loanWith({ dueDays, penalty: 3_000 }) } })
    render(
      <Harness api={api}>
        <MyLoanScreen />
      </Harness>,
    )
    await waitFor(() => expect(figure('days-left')).toBe(text))
    expect(figure('part-penalty')).toBe('₱30.00')
  })

  it('no active loan says so', async () => {
    const { api } = scriptedApi({ get: { [LOAN]: null } })
    render(
      <Harness api={api}>
        <MyLoanScreen />
      </Harness>,
    )
    expect((await screen.findByText('You have no active loan.')).getAttribute('role')).toBe('status')
  })

  it('an answer that does not match the loan contract is an error, not a guess', async () => {
    const { api } = scriptedApi({ get: { [LOAN]: { repaymentInvoice: { dueDays: 'soon' } } } })
    render(
      <Harness api={api}>
        <MyLoanScreen />
      </Harness>,
    )
    expect((await screen.findByRole('alert')).getAttribute('data-error-key')).toBe('error')
  })
})

describe('<SummaryScreen>', () => {
  const RENDER = '/private/client/render/document'
  function renderSummary(sign?: (path: string, body?: unknown) => unknown) {
    const post = (path: string, body?: unknown) =>
      path === RENDER
        ? {
            documents: [{ type: 'loan_agreement' }, { type: 'disclosure_statement' }],
            offer: offerOf(500_000, 21),
          }
        : sign?.(path, body)
    const scripted = scriptedApi({ get: { [ACTUAL]: applicationFor(2) }, post })
    const journey = vi.fn()
    render(
      <Harness api={scripted.api} journey={journey}>
        <SummaryScreen />
      </Harness>,
    )
    return { ...scripted, journey }
  }

  it('renders the documents for the approved offer and shows its total and due date', async () => {
    const { post } = renderSummary()
    await waitFor(() => expect(figure('total')).toBe('₱5 250.00'))
    expect(figure('due-date')).toBe('Dec 13, 2026')
    expect(post.mock.calls.filter(([path]) => path === RENDER)).toHaveLength(1)
  })

  it('reads and downloads the agreement and the disclosure statement as PDFs', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null)
    const { blob } = renderSummary()
    fireEvent.click(await screen.findByRole('button', { name: 'Read: Loan agreement (PDF)' }))
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1))
    expect(String(open.mock.calls[0]?.[0])).toMatch(/^blob:/)
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    fireEvent.click(
      screen.getByRole('button', { name: 'Download: Truth in Lending disclosure statement (PDF)' }),
    )
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1))
    expect(blob.mock.calls.map(([path]) => path)).toEqual([
      '/private/client/document/download/loan_agreement',
      '/private/client/document/download/disclosure_statement',
    ])
  })

  it('a failed download says so with its error key', async () => {
    const { blob } = renderSummary()
    blob.mockRejectedValueOnce(new ApiError(404, '/web/x', 'documentNotFound', 'Not found', []))
    fireEvent.click(await screen.findByRole('button', { name: 'Download: Loan agreement (PDF)' }))
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-error-key')).toBe('documentNotFound')
    expect(alert.textContent).toContain('could not be downloaded')
  })

  it('a code that is not 3 digits is refused on the spot, with the spec message key', async () => {
    const { post } = renderSummary()
    const code = await screen.findByLabelText('Code from the SMS')
    fireEvent.change(code, { target: { value: '12' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign the agreement' }))
    const error = await screen.findByRole('alert')
    expect(error.getAttribute('data-error-key')).toBe('error-verification-code')
    expect(code.getAttribute('aria-invalid')).toBe('true')
    expect(post.mock.calls.filter(([path]) => path !== RENDER)).toEqual([])
  })

  it('asks for the code: the agreement call without a code, then offers a new one', async () => {
    const { post } = renderSummary(() => ({ sent: true }))
    fireEvent.click(await screen.findByRole('button', { name: 'Send me the code' }))
    expect(
      (await screen.findByText('We sent a 3-digit code to your mobile phone.')).getAttribute('role'),
    ).toBe('status')
    expect(post.mock.calls.filter(([path]) => path !== RENDER)).toEqual([
      ['/private/client/application/agreement/42', {}],
    ])
    expect(screen.getByRole('button', { name: 'Send a new code' })).toBeTruthy()
  })

  it('signs with POST /application/agreement/{id} and the code, then asks the journey to refresh', async () => {
    const { post, journey } = renderSummary(() => ({ signed: true }))
    fireEvent.change(await screen.findByLabelText('Code from the SMS'), { target: { value: '123' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign the agreement' }))
    await waitFor(() => expect(journey).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(post.mock.calls.filter(([path]) => path !== RENDER)).toEqual([
      ['/private/client/application/agreement/42', { code: '123' }],
    ])
    expect(screen.getByRole('status').textContent).toBe('Signed. We are sending your money.')
  })

  it('a wrong code from the server shows error-verification-code on the field', async () => {
    const { journey } = renderSummary(() => {
      throw new ApiError(422, '/web/x', 'codeIncorrect', 'Phone verification not passed', [])
    })
    fireEvent.change(await screen.findByLabelText('Code from the SMS'), { target: { value: '999' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign the agreement' }))
    const error = await screen.findByRole('alert')
    expect(error.getAttribute('data-error-key')).toBe('error-verification-code')
    expect(error.textContent).toBe('The code is not correct. Check the SMS and try again.')
    expect(journey).not.toHaveBeenCalled()
  })

  it('maps the spec code answers onto message keys', () => {
    const api = (code: string, message: string) => new ApiError(422, '/web/x', code, message, [])
    expect(signErrorKey(api('codeNotSent', 'Code not found by given identity'))).toBe(
      'error-verification-code-unsent',
    )
    expect(signErrorKey(api('codeIncorrect', 'Phone verification not passed'))).toBe(
      'error-verification-code',
    )
    expect(signErrorKey(api('validationError', 'x'))).toBe('error-verification-code')
    expect(signErrorKey(api('applicationNotSigning', 'x'))).toBe('applicationNotSigning')
  })
})
