// @vitest-environment happy-dom
/**
 * My loan's overdue notice (issue 18): the days overdue, the penalty terms in force in words (the configured
 * grace days and daily rate, the legal ceilings), the penalty charged so far, and that nothing more is charged
 * once the legal room is 0. A loan that is not overdue shows none of it.
 */
import { cleanup, render, screen, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MyLoanScreen } from '../../../src/features/application/my-loan-screen'
import { percentOfPpm } from '../../../src/features/application/overdue-notice'
import { withCall } from '../../support/fake-api'
import { fakeAuth } from '../repayment/harness'
import { Harness } from './harness'

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

const money = (amount: number) => ({ amount })

function loan(overrides: Record<string, unknown>) {
  return {
    id: 9,
    applicationId: 42,
    status: 4,
    createdAt: '2026-11-01T02:00:00.000Z',
    createdAtDate: '2026-11-01',
    principal: money(500_000),
    amountDue: {
      amount: 527_400,
      parts: {
        principal: money(500_000),
        interest: money(21_000),
        fees: money(4_000),
        penalties: money(2_400),
      },
    },
    feeLines: { processingFee: 2_500 },
    term: { value: 30, unit: 'day' },
    dueDate: '2026-12-01',
    finalClosingDate: '2027-11-01',
    repaymentInvoice: { dueDate: '2026-12-01', dueDays: -6, amount: money(527_400) },
    rollovers: [],
    legalRoom: money(100_000),
    standing: 'overdue',
    overdueDays: 6,
    penaltyTerms: { enabled: true, graceDays: 3, ratePpmPerDay: 1_500 },
    ...overrides,
  }
}

function renderWith(answer: unknown) {
  const get = vi.fn(async (path: string) => {
    if (path === '/private/client/loan/active') return answer
    throw new Error(`unexpected GET ${path}`)
  })
  const page = vi.fn(async () => ({ items: [] }))
  render(
    <Harness api={withCall({ get, page })} services={{ auth: fakeAuth('client') }}>
      <MyLoanScreen />
    </Harness>,
  )
}

describe('<OverdueNotice> on My loan', () => {
  it('says how long, the penalty terms in force and the penalty so far', async () => {
    renderWith(loan({}))
    const notice = await screen.findByRole('region', { name: 'Your payment is overdue' })
    expect(notice.textContent).toMatch(/overdue for 6 days/)
    expect(within(notice).getByTestId('penalty-terms').textContent).toBe(
      'A late-payment penalty of 0.15% a day of the overdue amount is charged from the 4th day past due. Penalties never exceed 5% a month, and all costs of your loan together never exceed the amount you borrowed.',
    )
    expect(notice.textContent).toMatch(/Penalties charged so far: ₱24\.00/)
    expect(notice.textContent).not.toMatch(/no more penalties/)
    expect(notice.textContent).not.toMatch(/legal action|police|family|employer/i)
  })

  it('once the legal room is used up, says no more penalties will be charged', async () => {
    renderWith(loan({ legalRoom: money(0), overdueDays: 1 }))
    const notice = await screen.findByRole('region', { name: 'Your payment is overdue' })
    expect(notice.textContent).toMatch(/overdue for 1 day\./)
    expect(notice.textContent).toMatch(/no more penalties will be charged/)
  })

  it('without grace days, penalties from the first day past due; none configured, no terms line', async () => {
    renderWith(loan({ penaltyTerms: { enabled: true, graceDays: 0, ratePpmPerDay: 1_666 } }))
    const notice = await screen.findByRole('region', { name: 'Your payment is overdue' })
    expect(within(notice).getByTestId('penalty-terms').textContent).toMatch(
      /0\.1666% a day .* for each day past due/,
    )
    cleanup()
    renderWith(loan({ penaltyTerms: { enabled: false, graceDays: 3, ratePpmPerDay: 1_500 } }))
    const off = await screen.findByRole('region', { name: 'Your payment is overdue' })
    expect(within(off).queryByTestId('penalty-terms')).toBeNull()
  })

  it('a current loan shows no notice', async () => {
    renderWith(
      loan({
        standing: 'current',
        overdueDays: 0,
        repaymentInvoice: { dueDate: '2026-12-01', dueDays: 3, amount: money(1) },
      }),
    )
    await screen.findByText('Amount due today')
    expect(screen.queryByRole('region', { name: 'Your payment is overdue' })).toBeNull()
    expect(percentOfPpm(1_500)).toBe('0.15%')
  })
})
