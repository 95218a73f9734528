// @vitest-environment happy-dom
/**
 * /profile/debt-sold (issue 18, item 3): the agency that owns the debt now, its contacts and payment instructions,
 * the loan number, what was owed at the transfer, and the note that a payment made to Hiram is passed on.
 */
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SoldDebt } from '../../../domain/contract/debt-answers'
import { DebtSoldScreen } from '../../../src/features/application/debt-sold-screen'
import { withCall } from '../../support/fake-api'
import { Harness } from './harness'

afterEach(cleanup)

const sold: SoldDebt = {
  loanId: 12,
  loanNumber: 'L00000012',
  soldOn: '2026-12-30',
  amountAtSale: { amount: 5_912_34 },
  agency: {
    name: 'Bantay Collections Inc. (sandbox)',
    phone: '+63 2 8000 0000',
    email: 'payments@bantay-collections.example',
    paymentInstructions: 'Pay through InstaPay.\nOr at any Bayad center.',
  },
  paidToHiramAfterSale: { amount: 1_000_00 },
}

const pageOf = (items: SoldDebt[]) => ({
  items,
  page: 1,
  perPage: 50,
  total: items.length,
  count: items.length,
  totalPages: 1,
})
const figure = (name: string) => document.querySelector(`[data-figure="${name}"] dd`)?.textContent

describe('<DebtSoldScreen>', () => {
  it('names the agency, how to pay them, the loan and what was owed at the transfer', async () => {
    const page = vi.fn(async (_path: string) => pageOf([sold]))
    render(
      <Harness api={withCall({ page })}>
        <DebtSoldScreen />
      </Harness>,
    )
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Your loan was transferred')
    expect(await screen.findByRole('heading', { level: 2, name: 'Loan L00000012' })).toBeTruthy()
    expect(page.mock.calls[0]![0]).toBe('/private/client/loan/sold-debt')
    expect(figure('agency-name')).toBe('Bantay Collections Inc. (sandbox)')
    expect(figure('loan-number')).toBe('L00000012')
    expect(figure('sold-on')).toBe('Dec 30, 2026')
    expect(figure('amount-at-sale')).toBe('₱5,912.34')
    expect(figure('paid-to-hiram')).toBe('₱1,000.00')
    expect(screen.getByRole('link', { name: '+63 2 8000 0000' }).getAttribute('href')).toBe(
      'tel:+63280000000',
    )
    expect(screen.getByText('Or at any Bayad center.')).toBeTruthy()
    expect(screen.getByText(/pass it on to the agency/)).toBeTruthy()
  })

  it('says so when no sold loan is found', async () => {
    render(
      <Harness api={withCall({ page: vi.fn(async () => pageOf([])) })}>
        <DebtSoldScreen />
      </Harness>,
    )
    expect(await screen.findByText(/We found no sold loan/)).toBeTruthy()
  })
})
