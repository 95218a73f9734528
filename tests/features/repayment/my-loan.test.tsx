// @vitest-environment happy-dom
/**
 * /profile/my-loan with servicing (issue 16 item 7): the loan number and payment reference, what is outstanding
 * by part (penalties only when charged), a credit when the client overpaid, Pay in full and Pay another amount,
 * the payment history with each payment's allocation, the statement of account and its PDF, and the figures
 * changing by themselves, with a toast, when a payment posts.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MyLoanScreen } from '../../../src/features/application/my-loan-screen'
import { routedApi } from '../../support/fake-api'
import { activeLoan, Harness, LOAN, PAYMENTS, pageOf, paymentOf, type SessionKind } from './harness'

vi.mock('@tanstack/react-router', () => ({
  Link: ({
    to,
    search,
    children,
    className,
  }: {
    to: string
    search?: Record<string, string>
    children: ReactNode
    className?: string
  }) => (
    <a href={search ? `${to}?${new URLSearchParams(search)}` : to} className={className}>
      {children}
    </a>
  ),
}))

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const STATEMENT = 'GET /private/client/loan/9/statement'
const DOWNLOAD = 'GET /private/client/loan/9/statement/download'

/** The statement after a disbursement, its fees, interest booked and one payment at 7-Eleven. */
function statement() {
  const entry = (id: number, kind: string, part: string, amount: number, outstandingAfter: number) => ({
    id,
    date: id < 4 ? '2026-11-01' : '2026-11-20',
    kind,
    part,
    amount,
    memo: null,
    paymentId: id >= 5 ? 31 : null,
    outstandingAfter,
    creditAfter: 0,
  })
  return {
    loanId: 9,
    loanNumber: 'L00000009',
    paymentReference: '1234567897',
    status: 4,
    state: 'active',
    principal: 500_000,
    startDate: '2026-11-01',
    dueDate: '2026-12-01',
    asOf: '2026-11-22',
    entries: [
      entry(1, 'disbursement', 'principal', 500_000, 500_000),
      entry(2, 'fee', 'fees', 2_500, 502_500),
      entry(3, 'fee', 'fees', 1_500, 504_000),
      entry(4, 'interest_accrual', 'interest', 13_300, 517_300),
      entry(5, 'allocation', 'fees', -4_000, 513_300),
      entry(6, 'allocation', 'interest', -13_300, 500_000),
      entry(7, 'allocation', 'principal', -207_700, 292_300),
    ],
    balances: { principal: 292_300, interest: 0, fees: 0, penalties: 0, credit: 0 },
    payoff: 300_000,
  }
}

function renderLoan({
  loan = activeLoan() as unknown,
  payments = [] as unknown[],
  session = 'client' as SessionKind,
  pollMs,
}: {
  loan?: unknown
  payments?: unknown[]
  session?: SessionKind
  pollMs?: number
} = {}) {
  const state = { loan, payments }
  const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' })
  const fake = routedApi({
    [LOAN]: () => state.loan,
    [PAYMENTS]: () => pageOf(state.payments),
    [STATEMENT]: statement(),
    [DOWNLOAD]: pdf,
  })
  render(
    <Harness api={fake.api} session={session}>
      <MyLoanScreen pollMs={pollMs} />
    </Harness>,
  )
  return { ...fake, state }
}

const figure = (name: string) => document.querySelector(`[data-figure="${name}"] dd`)?.textContent

describe('<MyLoanScreen> servicing', () => {
  it('shows the loan number, the payment reference and what is owed today by part', async () => {
    renderLoan()
    await waitFor(() => expect(figure('amount-due')).toBe('₱5 250.00'))
    expect(figure('loan-number')).toBe('L00000009')
    expect(figure('payment-reference')).toBe('1234567897')
    expect(figure('principal')).toBe('₱5 000.00')
    expect(figure('part-principal')).toBe('₱5 000.00')
    expect(figure('part-interest')).toBe('₱210.00')
    expect(figure('part-fees')).toBe('₱40.00')
    // Nothing charged, no penalty line; nothing overpaid, no credit.
    expect(document.querySelector('[data-figure="part-penalty"]')).toBeNull()
    expect(document.querySelector('[data-figure="credit"]')).toBeNull()
    expect(figure('due-date')).toBe('Dec 01, 2026')
    expect(figure('days-left')).toBe('9 days')
  })

  it('penalties when charged, overdue days, and a credit when the client overpaid', async () => {
    renderLoan({
      loan: activeLoan({
        parts: { principal: 500_000, interest: 21_000, fees: 4_000, penalties: 7_500 },
        repaymentInvoice: { dueDate: '2026-12-01', dueDays: -3, amount: { amount: 532_500 } },
        credit: { amount: 12_345 },
      }),
    })
    await waitFor(() => expect(figure('part-penalty')).toBe('₱75.00'))
    expect(figure('amount-due')).toBe('₱5 325.00')
    expect(figure('days-left')).toBe('3 days overdue')
    expect(figure('credit')).toBe('₱123.45')
    expect(screen.getByText(/We refund the credit to your payout account/)).toBeTruthy()
  })

  it('Pay in full and Pay another amount lead to the repayment page; How to repay stays', async () => {
    renderLoan()
    const actions = await screen.findByRole('navigation', { name: 'Pay your loan' })
    expect(within(actions).getByRole('link', { name: 'Pay in full' }).getAttribute('href')).toBe(
      '/profile/repayment',
    )
    expect(within(actions).getByRole('link', { name: 'Pay another amount' }).getAttribute('href')).toBe(
      '/profile/repayment?amount=custom',
    )
    expect(within(actions).getByRole('link', { name: 'How to repay' }).getAttribute('href')).toBe('/repay')
  })

  it('a single-link session (my loan only) gets the repay pages, not the profile repayment page', async () => {
    renderLoan({ session: 'singleLink' })
    const actions = await screen.findByRole('navigation', { name: 'Pay your loan' })
    expect(within(actions).queryByRole('link', { name: 'Pay in full' })).toBeNull()
    expect(within(actions).getByRole('link', { name: 'How to repay' })).toBeTruthy()
  })

  it('lists the payments: date, amount, channel and how each was applied', async () => {
    renderLoan({
      payments: [
        paymentOf(32, 300_000, { principal: 292_300, credit: 7_700 }),
        {
          ...paymentOf(31, 225_000, { fees: 4_000, interest: 13_300, principal: 207_700 }),
          channel: 'gcash',
        },
        { ...paymentOf(30, 10_000), status: 'reversed' },
      ],
    })
    const table = await screen.findByRole('table', { name: 'Your payments' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Nov 20, 2026', '₱3 000.00', '7-Eleven (CLiQQ)', 'Principal ₱2 923.00 · Credit ₱77.00'],
      ['Nov 20, 2026', '₱2 250.00', 'GCash', 'Fees ₱40.00 · Interest ₱133.00 · Principal ₱2 077.00'],
      ['Nov 20, 2026', '₱100.00', '7-Eleven (CLiQQ)', 'Reversed'],
    ])
  })

  it('no payments yet says so', async () => {
    renderLoan()
    expect(await screen.findByText('No payments yet.')).toBeTruthy()
  })

  it('shows the statement of account as a table, with the balance after each entry', async () => {
    renderLoan()
    const table = await screen.findByRole('table', { name: 'Statement of account entries' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(7)
    const cells = (i: number) =>
      within(rows[i] as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent)
    expect(cells(0)).toEqual(['Nov 01, 2026', 'Money paid out', '₱5 000.00', '₱5 000.00', '₱0.00'])
    expect(cells(1)).toEqual(['Nov 01, 2026', 'Fee: fees', '₱25.00', '₱5 025.00', '₱0.00'])
    expect(cells(6)).toEqual([
      'Nov 20, 2026',
      'Payment applied: principal',
      '-₱2 077.00',
      '₱2 923.00',
      '₱0.00',
    ])
    expect(screen.getByText('As of Nov 22, 2026.')).toBeTruthy()
  })

  it('downloads the statement as a PDF', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    const { calls } = renderLoan()
    fireEvent.click(await screen.findByRole('button', { name: 'Download statement (PDF)' }))
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1))
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain(DOWNLOAD)
    const link = click.mock.contexts[0] as HTMLAnchorElement
    expect(link.download).toBe('statement-L00000009.pdf')
    expect(link.href).toMatch(/^blob:/)
  })

  it('updates by itself when a payment posts: a toast, the new parts, the history', async () => {
    const { state } = renderLoan({ pollMs: 50 })
    await waitFor(() => expect(figure('amount-due')).toBe('₱5 250.00'))
    await new Promise((resolve) => setTimeout(resolve, 120))
    // A partial payment of ₱2 250: fees, then interest, then principal.
    state.payments = [paymentOf(31, 225_000, { fees: 4_000, interest: 21_000, principal: 200_000 })]
    state.loan = activeLoan({ parts: { principal: 300_000, interest: 0, fees: 0, penalties: 0 } })
    const toast = await screen.findByText('Payment of ₱2 250.00 received')
    expect(toast.closest('[role="status"]')).toBeTruthy()
    await waitFor(() => expect(figure('part-principal')).toBe('₱3 000.00'))
    expect(figure('part-interest')).toBe('₱0.00')
    expect(figure('part-fees')).toBe('₱0.00')
    expect(figure('amount-due')).toBe('₱3 000.00')
    expect(await screen.findByRole('table', { name: 'Your payments' })).toBeTruthy()
  })
})
