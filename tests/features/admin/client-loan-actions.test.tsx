// @vitest-environment happy-dom
/**
 * One loan's actions on the client's page (issue 19 item 5), against a fake API: an extension chosen on the
 * client's behalf, the code the client reads out entered and signed, the credit refunded after a confirmation;
 * each part shown only to the roles that may use it.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { createActor, createMachine } from 'xstate'
import type {
  BackOfficeExtensions,
  CreditRefund,
  LoanRefunds,
} from '../../../domain/contract/back-office-loans'
import type { Rollover } from '../../../domain/contract/servicing-answers'
import { ClientLoanActions } from '../../../src/features/admin/client-loan-actions'
import { routedApi } from '../../support/fake-api'
import { Harness } from '../application/harness'

afterEach(cleanup)

const rollover = (id: number, type: 'cheap' | 'expensive', overrides: Partial<Rollover> = {}): Rollover => ({
  id,
  loanId: 42,
  type,
  status: 'inactive',
  term: type === 'cheap' ? 7 : 14,
  fee: { amount: type === 'cheap' ? 45_000 : 80_000 },
  newDueDate: type === 'cheap' ? '2026-12-20' : '2026-12-27',
  legalRoom: { amount: 500_000 },
  legalRoomAfter: { amount: 455_000 },
  available: true,
  refusal: null,
  applicationId: null,
  signed: false,
  invoices: [{ id, status: 'draft', amount: { amount: 45_000 }, payableUntil: null, paidAt: null }],
  ...overrides,
})

const options: BackOfficeExtensions = {
  loanId: 42,
  clientId: 7,
  state: 'active',
  dueDate: '2026-12-13',
  extendable: true,
  refusal: null,
  options: [rollover(1, 'cheap'), rollover(2, 'expensive')],
}

const refund = (id: number, status: CreditRefund['status']): CreditRefund => ({
  id,
  loanId: 42,
  amount: 25_000,
  status,
  failureReason: status === 'failed' ? 'The receiving account was refused.' : null,
  providerRef: null,
  createdAt: '2026-11-24T01:30:00.000Z',
  completedAt: status === 'failed' ? '2026-11-24T01:31:00.000Z' : null,
})

const refunds: LoanRefunds = {
  loanId: 42,
  clientId: 7,
  state: 'paid',
  credit: 25_000,
  refundable: true,
  refusal: null,
  refunds: [refund(4, 'failed')],
}

const chosen = {
  sent: true,
  nextCodeAt: '2026-11-24T01:31:00.000Z',
  codeExpiresAt: '2026-11-24T01:40:00.000Z',
  rollover: rollover(1, 'cheap', { applicationId: 9, invoices: [] }),
  applicationId: 9,
  documents: [],
}

const signed = {
  id: 9,
  rolloverId: 1,
  loanId: 42,
  status: 'signed',
  documents: [],
  rollover: rollover(1, 'cheap', {
    signed: true,
    invoices: [
      { id: 1, status: 'unpaid', amount: { amount: 45_000 }, payableUntil: '2026-12-16', paidAt: null },
    ],
  }),
}

/** The auth actor as the admin app holds it: only the user's roles matter here. */
const authAs = (...roles: string[]) => createActor(createMachine({ context: { user: { roles } } })).start()

function renderAs(roles: string[]) {
  const fake = routedApi({
    'GET /private/back-office/loans/42/extensions': options,
    'POST /private/back-office/loans/42/extensions': chosen,
    'POST /private/back-office/loans/42/extensions/1/signature': signed,
    'GET /private/back-office/loans/42/refunds': refunds,
    'POST /private/back-office/loans/42/refunds': { ...refund(5, 'queued') },
  })
  render(
    <Harness api={fake.api} services={{ auth: authAs(...roles) }}>
      <ClientLoanActions clientId={7} loanId={42} />
    </Harness>,
  )
  return fake
}

describe('ClientLoanActions', () => {
  it('extends on the client’s behalf: choose, the code the client reads out, signed', async () => {
    const fake = renderAs(['collections'])
    const table = await screen.findByRole('table', { name: 'Extension options the client is offered today' })
    expect(within(table).getAllByRole('row')).toHaveLength(3)
    fireEvent.click(screen.getByRole('button', { name: 'Choose: Short extension' }))
    await screen.findByText(/We sent a signing code by SMS to the client’s phone/)
    expect(fake.calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/private/back-office/loans/42/extensions',
      body: { type: 'cheap' },
    })
    // A malformed code never leaves the form.
    fireEvent.change(screen.getByLabelText('Code the client reads out'), { target: { value: '12' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign the extension' }))
    await waitFor(() =>
      expect(screen.getByLabelText('Code the client reads out').getAttribute('aria-invalid')).toBe('true'),
    )
    fireEvent.change(screen.getByLabelText('Code the client reads out'), { target: { value: '123' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign the extension' }))
    await screen.findByText(/Extension signed by the client/)
    const signs = fake.calls.filter((c) => c.path.endsWith('/signature'))
    expect(signs).toHaveLength(1)
    expect(signs[0]!.body).toEqual({ code: '123' })
  })

  it('refunds the credit after a confirmation and lists the refunds', async () => {
    const fake = renderAs(['collections'])
    const list = await screen.findByRole('table', { name: 'Refunds of this loan, newest first' })
    expect(within(list).getByText('Failed')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Refund ₱250.00 to the payout account' }))
    expect(fake.calls.some((c) => c.method === 'POST' && c.path.endsWith('/refunds'))).toBe(false)
    fireEvent.click(screen.getByRole('button', { name: 'Yes, refund' }))
    await screen.findByText('Refund 5 of ₱250.00 queued; it is sent within a minute.')
    expect(fake.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/refunds'))).toHaveLength(1)
  })

  it('shows each part only to the roles that may use it', async () => {
    renderAs(['underwriter'])
    await screen.findByRole('table', { name: 'Refunds of this loan, newest first' })
    expect(screen.queryByRole('heading', { name: 'Extend on the client’s behalf' })).toBeNull()
    expect(screen.queryByRole('button', { name: /Refund ₱/ })).toBeNull()
    cleanup()
    renderAs(['support'])
    await screen.findByRole('table', { name: 'Extension options the client is offered today' })
    expect(screen.queryByRole('button', { name: /Refund ₱/ })).toBeNull()
  })
})
