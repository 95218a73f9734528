// @vitest-environment happy-dom
/**
 * The back office's debt desk (/admin/debts, issue 18 items 3 and 4) against a fake API: the overdue loans with a
 * box each for those that can be sold, a sale to the chosen agency with its refusals listed, a write-off with a
 * reason, and the payments to forward.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { DefaultCandidate } from '../../../domain/contract/debt-answers'
import { DebtDesk } from '../../../src/features/admin/debt-sales'
import { routedApi } from '../../support/fake-api'
import { Harness } from '../application/harness'

afterEach(cleanup)

const page = <T,>(items: T[]) => ({
  items,
  page: 1,
  perPage: 100,
  total: items.length,
  count: items.length,
  totalPages: 1,
})
const candidate = (loanId: number, overrides: Partial<DefaultCandidate> = {}): DefaultCandidate => ({
  loanId,
  loanNumber: `L${String(loanId).padStart(8, '0')}`,
  clientId: loanId + 100,
  state: 'active.on_terms.overdue',
  status: 4,
  dueDate: '2026-12-01',
  overdueSince: '2026-12-02',
  outstanding: 5_500_00,
  sellable: true,
  ...overrides,
})
const agency = {
  id: 1,
  name: 'Bantay Collections Inc. (sandbox)',
  phone: '+63 2 8000 0000',
  email: 'payments@bantay.example',
  paymentInstructions: 'Pay at Bayad.',
  active: true,
}

function desk(extra: Record<string, unknown> = {}) {
  return routedApi({
    'GET /private/back-office/debt-sales/candidates': page([
      candidate(12),
      candidate(13),
      candidate(14, { state: 'on_hold.on_terms', sellable: false }),
    ]),
    'GET /private/back-office/collection-agencies': page([agency]),
    'GET /private/back-office/debt-sales': page([]),
    'GET /private/back-office/debt-forwards': page([]),
    ...extra,
  })
}

describe('<DebtDesk>', () => {
  it('proposes selling the ticked loans to the chosen agency', async () => {
    const fake = desk({
      // Maker-checker (issue 19 item 5): a proposal, sold once a second user approves it.
      'POST /private/back-office/debt-sales': {
        id: 32,
        kind: 'debt.sell',
        subject: '1',
        payload: { agencyId: 1, loanIds: [12, 13] },
        note: '',
        status: 'pending',
        proposedBy: { id: 3, name: 'Ana Admin' },
        proposedAt: '2026-11-25T06:05:00.000Z',
        decidedBy: null,
        decidedAt: null,
        reason: null,
        result: null,
      },
    })
    render(
      <Harness api={fake.api}>
        <DebtDesk />
      </Harness>,
    )
    const first = await screen.findByRole('checkbox', { name: 'Select L00000012' })
    // A held loan can be written off, not sold: no box.
    expect(screen.queryByRole('checkbox', { name: 'Select L00000014' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Sell the selected loans' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Select at least one loan.')
    fireEvent.click(first)
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select L00000013' }))
    await waitFor(() => expect(screen.getByRole('option', { name: agency.name })).toBeTruthy())
    fireEvent.change(screen.getByLabelText('Collection agency'), { target: { value: '1' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sell the selected loans' }))
    await screen.findByText('Sale of 2 loan(s) proposed (proposal 32): waiting for a second approval.')
    const sale = fake.calls.find((c) => c.method === 'POST')!
    expect(sale.body).toEqual({ agencyId: 1, loanIds: [12, 13] })
  })

  it('proposes writing a loan off with its reason', async () => {
    const fake = desk({
      'POST /private/back-office/loan/14/write-off': {
        id: 33,
        kind: 'loans.write-off',
        subject: '14',
        payload: { loanId: 14, reason: 'Fraud confirmed' },
        note: 'Fraud confirmed',
        status: 'pending',
        proposedBy: { id: 3, name: 'Ana Admin' },
        proposedAt: '2026-11-25T06:05:00.000Z',
        decidedBy: null,
        decidedAt: null,
        reason: null,
        result: null,
      },
    })
    render(
      <Harness api={fake.api}>
        <DebtDesk />
      </Harness>,
    )
    fireEvent.change(screen.getByLabelText('Loan number or id'), { target: { value: 'L00000014' } })
    fireEvent.change(screen.getByLabelText(/^Reason/), { target: { value: 'Fraud confirmed' } })
    fireEvent.click(screen.getByRole('button', { name: 'Write off' }))
    await screen.findByText(
      'Write-off of loan L00000014 proposed (proposal 33): waiting for a second approval.',
    )
    expect(fake.calls.find((c) => c.method === 'POST')!.body).toEqual({ reason: 'Fraud confirmed' })
  })
})
