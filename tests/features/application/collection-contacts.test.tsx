// @vitest-environment happy-dom
/**
 * "Talk to our collections team" on My loan (issue 18, item 2): an overdue client sees the debt-collection
 * contacts (dc phone, dc1 e-mail) as tel: and mailto: links under their own heading; a client who is not
 * overdue sees no such block and the contacts are not even fetched.
 */
import { cleanup, render, screen, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MyLoanScreen } from '../../../src/features/application/my-loan-screen'
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

const LOAN = '/private/client/loan/active'
const CONTACTS = '/public/contact'
const money = (amount: number) => ({ amount })
const hours = 'Mon to Sun, 8:00 AM to 8:00 PM'
const contacts = [
  { key: 'cc', kind: 'tel', link: 'tel:+639171234567', display: '0917 123 4567', hours: 'Mon to Sat' },
  { key: 'cc1', kind: 'email', link: 'mailto:care@hiram.ph', display: 'care@hiram.ph', hours: 'Mon to Sat' },
  { key: 'dc', kind: 'tel', link: 'tel:+639187654321', display: '0918 765 4321', hours },
  { key: 'dc1', kind: 'email', link: 'mailto:collections@hiram.ph', display: 'collections@hiram.ph', hours },
]

function loanWith(dueDays: number, standing?: 'current' | 'overdue') {
  return {
    id: 9,
    applicationId: 42,
    status: 4,
    createdAt: '2026-11-01T02:00:00.000Z',
    createdAtDate: '2026-11-01',
    principal: money(500_000),
    amountDue: {
      amount: 525_000,
      parts: { principal: money(500_000), interest: money(21_000), fees: money(4_000) },
    },
    feeLines: { processingFee: 2_500 },
    term: { value: 30, unit: 'day' },
    dueDate: '2026-12-01',
    finalClosingDate: '2027-11-01',
    repaymentInvoice: { dueDate: '2026-12-01', dueDays, amount: money(525_000) },
    rollovers: [],
    ...(standing ? { standing, overdueDays: standing === 'overdue' ? Math.max(1, -dueDays) : 0 } : {}),
  }
}

function renderWith(loan: unknown, contactAnswer: () => unknown = () => ({ items: contacts })) {
  const page = vi.fn(async (path: string) => {
    if (path === CONTACTS) return contactAnswer()
    throw new Error(`unexpected page ${path}`)
  })
  const get = vi.fn(async (path: string) => {
    if (path === LOAN) return loan
    throw new Error(`unexpected GET ${path}`)
  })
  const api = withCall({ get, page })
  render(
    <Harness api={api} services={{ auth: fakeAuth('client') }}>
      <MyLoanScreen />
    </Harness>,
  )
  return { page, get }
}

describe('<CollectionContacts> on My loan', () => {
  it('an overdue loan shows the collections team with tel: and mailto: links, its hours and a polite word', async () => {
    renderWith(loanWith(-4, 'overdue'))
    const block = await screen.findByRole('region', { name: 'Talk to our collections team' })
    expect(
      within(block).getByRole('heading', { level: 2, name: 'Talk to our collections team' }),
    ).toBeTruthy()
    const phone = await within(block).findByRole('link', { name: '0918 765 4321' })
    expect(phone.getAttribute('href')).toBe('tel:+639187654321')
    expect(within(block).getByRole('link', { name: 'collections@hiram.ph' }).getAttribute('href')).toBe(
      'mailto:collections@hiram.ph',
    )
    // Only the collection entries, not customer care's.
    expect(within(block).queryByRole('link', { name: '0917 123 4567' })).toBeNull()
    expect(within(block).getByText(hours)).toBeTruthy()
    expect(block.textContent).toMatch(/extension, a payment schedule/)
    expect(block.textContent).not.toMatch(/legal|police|family|employer/i)
  })

  it('without the standing (an older server), dueDays < 0 is overdue', async () => {
    renderWith(loanWith(-1))
    expect(await screen.findByRole('region', { name: 'Talk to our collections team' })).toBeTruthy()
  })

  it.each([
    ['current by standing', loanWith(5, 'current')],
    ['due today', loanWith(0)],
    ['days left', loanWith(3)],
    // The server's standing wins over the sign: a schedule's instalments are paid though the loan's date passed.
    ['current standing with a past due date', loanWith(-2, 'current')],
  ])('%s: no collections block, and the contacts are not fetched', async (_name, loan) => {
    const { page } = renderWith(loan)
    await screen.findByText('Amount due today')
    expect(screen.queryByRole('region', { name: 'Talk to our collections team' })).toBeNull()
    expect(page.mock.calls.filter(([path]) => path === CONTACTS)).toEqual([])
  })

  it('contacts that cannot be loaded: the block still shows, and says where to find them', async () => {
    renderWith(loanWith(-3, 'overdue'), () => {
      throw new Error('down')
    })
    const block = await screen.findByRole('region', { name: 'Talk to our collections team' })
    expect(await within(block).findByText(/could not be loaded/)).toBeTruthy()
  })
})
