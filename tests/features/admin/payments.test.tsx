// @vitest-environment happy-dom
/**
 * The back office's payments (/admin/payments, issue 16 item 8) and the sandbox tools of /admin/router (items 2
 * and 5), against a fake API that answers the contracts' calls as the server would (tests/support/fake-api.ts):
 * the list with its filters and pages, assigning an unmatched payment, reversing a posted one after a
 * confirmation, a payment posted by hand (one idempotency key per form), reconciliation, loan holds, and the
 * sandbox clock and payments.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Page } from '../../../domain/contract/define'
import { type BackOfficePayment, manilaDay, manilaTimestamp } from '../../../src/features/admin/admin-api'
import { centavosOfPesos, loanIdOf } from '../../../src/features/admin/payment-forms'
import { PaymentsDesk } from '../../../src/features/admin/payments'
import { SandboxTools } from '../../../src/features/admin/sandbox-tools'
import { type FakeCall, fakeApi } from '../../support/fake-api'
import { Harness } from '../application/harness'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const LIST = 'GET /private/back-office/payments'

const payment = (id: number, overrides: Partial<BackOfficePayment> = {}): BackOfficePayment => ({
  id,
  provider: 'sandbox',
  providerPaymentId: `pay_${id}`,
  reference: '1234567897',
  channel: 'seven_eleven',
  amount: 150_050,
  status: 'posted',
  source: 'webhook',
  loanId: 42,
  loanNumber: 'L00000042',
  clientId: 7,
  paidAt: '2026-11-24T01:30:00.000Z',
  receivedAt: '2026-11-24T01:30:00.000Z',
  postedAt: '2026-11-24T01:30:01.000Z',
  postedBy: null,
  reversedAt: null,
  reversedBy: null,
  reversalReason: null,
  note: null,
  ...overrides,
})

const pageOf = (items: BackOfficePayment[], page = 1, perPage = 50, total = items.length) =>
  ({
    items,
    page,
    perPage,
    total,
    count: items.length,
    totalPages: Math.ceil(total / perPage),
  }) satisfies Page<BackOfficePayment>

const failure = (status: number, code: string, message: string, violations: unknown[] = []) => ({
  status,
  code,
  message,
  violations,
})

type Route = (call: FakeCall) => unknown

/**
 * A back office with `rows` payments: the list answers the filters it can (status, reference, paging), the
 * actions change the rows, and `routes` overrides or adds answers ("METHOD /path").
 */
function backOffice(rows: BackOfficePayment[], routes: Record<string, Route> = {}) {
  let payments = [...rows]
  const fake = fakeApi((call) => {
    const key = `${call.method} ${call.path}`
    const route = routes[key]
    if (route) return route(call)
    if (key === LIST) {
      const q = call.query ?? {}
      const page = Number(q.page ?? 1)
      const perPage = Number(q.perPage ?? 50)
      const matching = payments.filter(
        (p) => (!q.status || p.status === q.status) && (!q.reference || p.reference === q.reference),
      )
      return pageOf(matching.slice((page - 1) * perPage, page * perPage), page, perPage, matching.length)
    }
    const assign = /^POST \/private\/back-office\/payments\/(\d+)\/assign$/.exec(key)
    if (assign) {
      const { loanId } = call.body as { loanId: number }
      payments = payments.map((p) =>
        p.id === Number(assign[1])
          ? { ...p, status: 'posted', loanId, loanNumber: `L${String(loanId).padStart(8, '0')}`, postedBy: 3 }
          : p,
      )
      return payments.find((p) => p.id === Number(assign[1]))
    }
    // Maker-checker (issue 19 item 5): the reversal is a proposal; the payment stays posted until approved.
    const reversal = /^POST \/private\/back-office\/payments\/(\d+)\/reversal$/.exec(key)
    if (reversal) {
      const { reason } = call.body as { reason: string }
      return {
        id: 31,
        kind: 'payments.reverse',
        subject: reversal[1]!,
        payload: { paymentId: Number(reversal[1]), reason },
        note: reason,
        status: 'pending',
        proposedBy: { id: 3, name: 'Ana Admin' },
        proposedAt: '2026-11-25T06:05:00.000Z',
        decidedBy: null,
        decidedAt: null,
        reason: null,
        result: null,
      }
    }
    throw new Error(`unexpected ${key}`)
  })
  const sent = (method: string, path: string) =>
    fake.calls.filter((c) => c.method === method && c.path === path)
  return { ...fake, sent, lists: () => fake.calls.filter((c) => `${c.method} ${c.path}` === LIST) }
}

function renderDesk(api: ReturnType<typeof backOffice>['api']) {
  render(
    <Harness api={api}>
      <PaymentsDesk />
    </Harness>,
  )
}

const type = (label: string | RegExp, value: string, within_: HTMLElement = document.body) =>
  fireEvent.change(within(within_).getByLabelText(label), { target: { value } })

const row = (id: number) => document.querySelector(`tr[data-payment="${id}"]`) as HTMLElement

describe('formats', () => {
  it('shows instants in Manila as MMM DD, YYYY h:mm a, days as MMM DD, YYYY', () => {
    expect(manilaTimestamp('2026-11-24T01:30:00.000Z')).toBe('Nov 24, 2026 9:30 AM')
    expect(manilaTimestamp('2026-11-24T16:05:00.000Z')).toBe('Nov 25, 2026 12:05 AM')
    expect(manilaTimestamp('2026-12-31T04:00:00.000Z')).toBe('Dec 31, 2026 12:00 PM')
    expect(manilaTimestamp('2026-03-01T10:59:00.000Z')).toBe('Mar 01, 2026 6:59 PM')
    expect(manilaDay('2026-12-01')).toBe('Dec 01, 2026')
  })

  it('reads pesos as centavos and a loan by its id or number', () => {
    expect(centavosOfPesos('1500')).toBe(150_000)
    expect(centavosOfPesos('1 500.5')).toBe(150_050)
    expect(centavosOfPesos('₱1,500.05')).toBe(150_005)
    expect(centavosOfPesos('15.005')).toBeNull()
    expect(centavosOfPesos('abc')).toBeNull()
    expect(loanIdOf('42')).toBe(42)
    expect(loanIdOf(' L00000042 ')).toBe(42)
    expect(loanIdOf('L')).toBeNull()
    expect(loanIdOf('042')).toBeNull()
  })
})

describe('the payments list', () => {
  it('shows each payment with its figures, in a named, captioned table', async () => {
    const { api } = backOffice([
      payment(9, {
        status: 'reversed',
        source: 'manual',
        postedBy: 3,
        reversedBy: 4,
        reversedAt: '2026-11-25T06:05:00.000Z',
        reversalReason: 'Bounced deposit',
        channel: 'cebuana',
      }),
      payment(8, { status: 'unmatched', loanId: null, loanNumber: null, postedAt: null, reference: '5555' }),
      payment(7),
    ])
    renderDesk(api)
    const table = await screen.findByRole('table', { name: 'Payments, newest first' })
    expect(screen.getByRole('region', { name: 'Payments (scrolls sideways)' })).toBeTruthy()
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent)
    expect(headers).toEqual([
      'Received',
      'Reference',
      'Channel',
      'Amount',
      'Status',
      'Loan',
      'Source',
      'Posted or reversed by',
      'Actions',
    ])
    const cells = (id: number) =>
      Array.from(row(id).querySelectorAll('td, th')).map((cell) => cell.textContent)
    expect(cells(7)).toEqual([
      'Nov 24, 2026 9:30 AM',
      '1234567897',
      '7-Eleven (CLiQQ)',
      '₱1,500.50',
      'Posted',
      'L00000042 (id 42)',
      'Gateway',
      'Posted automatically',
      'Reverse payment 7',
    ])
    expect(within(row(7)).getByRole('rowheader', { name: '1234567897' })).toBeTruthy()
    expect(cells(8).slice(4)).toEqual(['Unmatched', '—', 'Gateway', '—', 'Assign payment 8 to a loan'])
    expect(cells(9).slice(2, 9)).toEqual([
      'Cebuana Lhuillier',
      '₱1,500.50',
      'Reversed',
      'L00000042 (id 42)',
      'By hand',
      'Posted by user 3Reversed by user 4, Nov 25, 2026 2:05 PM: Bounced deposit',
      '—',
    ])
  })

  it('sends the filters as the query, from page 1, and refuses dates in the wrong order before asking', async () => {
    const fake = backOffice([payment(7), payment(8, { status: 'unmatched', reference: '5555' })])
    renderDesk(fake.api)
    await screen.findByRole('table')
    expect(fake.lists()[0]!.query).toEqual({ page: '1', perPage: '50' })

    const filters = screen.getByRole('form', { name: 'Find payments' })
    type('Received from', '2026-11-25', filters)
    type('Received to', '2026-11-24', filters)
    fireEvent.click(within(filters).getByRole('button', { name: 'Show payments' }))
    expect(await within(filters).findByText('The first date must not be after the second.')).toBeTruthy()
    expect(fake.lists()).toHaveLength(1)

    type('Received from', '2026-11-01', filters)
    fireEvent.change(within(filters).getByLabelText('Channel'), { target: { value: 'seven_eleven' } })
    fireEvent.change(within(filters).getByLabelText('Status'), { target: { value: 'unmatched' } })
    type('Payment reference', ' 5555 ', filters)
    fireEvent.click(within(filters).getByRole('button', { name: 'Show payments' }))
    await waitFor(() =>
      expect(fake.lists().at(-1)!.query).toEqual({
        from: '2026-11-01',
        to: '2026-11-24',
        channel: 'seven_eleven',
        status: 'unmatched',
        reference: '5555',
        page: '1',
        perPage: '50',
      }),
    )
    await waitFor(() => expect(row(7)).toBeNull())
    expect(row(8)).toBeTruthy()

    // The same filters again ask again (a payment may have arrived since).
    const before = fake.lists().length
    fireEvent.click(within(filters).getByRole('button', { name: 'Show payments' }))
    await waitFor(() => expect(fake.lists().length).toBe(before + 1))

    fireEvent.click(within(filters).getByRole('button', { name: 'Clear the filters' }))
    await waitFor(() => expect(fake.lists().at(-1)!.query).toEqual({ page: '1', perPage: '50' }))
    expect((within(filters).getByLabelText('Payment reference') as HTMLInputElement).value).toBe('')
  })

  it("puts the server's refusal of a filter on its field", async () => {
    const fake = backOffice([payment(7)], {
      [LIST]: (call) => {
        if (call.query?.reference)
          throw failure(400, 'validationError', 'Invalid input.', [
            { propertyPath: 'query.reference', message: 'A payment reference is digits.' },
          ])
        return pageOf([payment(7)])
      },
    })
    renderDesk(fake.api)
    await screen.findByRole('table')
    const filters = screen.getByRole('form', { name: 'Find payments' })
    type('Payment reference', '1234 5678', filters)
    fireEvent.click(within(filters).getByRole('button', { name: 'Show payments' }))
    expect(await within(filters).findByText('A payment reference is digits.')).toBeTruthy()
    expect(within(filters).getByLabelText('Payment reference').getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByRole('alert').textContent).toContain('This list could not be loaded.')
  })

  it('pages with previous and next, and by page size', async () => {
    const rows = Array.from({ length: 45 }, (_, i) => payment(45 - i))
    const fake = backOffice(rows)
    renderDesk(fake.api)
    await screen.findByRole('table')
    const paging = screen.getByRole('navigation', { name: 'Pages of payments' })
    expect(paging.textContent).toContain('Page 1 of 1 · 45 payments')
    fireEvent.change(within(paging).getByLabelText('Payments per page'), { target: { value: '20' } })
    await waitFor(() => expect(paging.textContent).toContain('Page 1 of 3 · 45 payments'))
    expect(fake.lists().at(-1)!.query).toEqual({ page: '1', perPage: '20' })
    const previous = within(paging).getByRole('button', { name: 'Previous page' }) as HTMLButtonElement
    const next = within(paging).getByRole('button', { name: 'Next page' }) as HTMLButtonElement
    expect(previous.disabled).toBe(true)
    fireEvent.click(next)
    fireEvent.click(next)
    await waitFor(() => expect(paging.textContent).toContain('Page 3 of 3'))
    expect(fake.lists().at(-1)!.query).toEqual({ page: '3', perPage: '20' })
    expect(next.disabled).toBe(true)
    expect(row(5)).toBeTruthy()
    expect(row(6)).toBeNull()
    fireEvent.click(previous)
    await waitFor(() => expect(paging.textContent).toContain('Page 2 of 3'))
    expect(row(6)).toBeTruthy()
  })

  it('says when the list fails, and tries again', async () => {
    let fail = true
    const fake = backOffice([payment(7)], {
      [LIST]: () => {
        if (fail) throw new TypeError('Failed to fetch')
        return pageOf([payment(7)])
      },
    })
    renderDesk(fake.api)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('This list could not be loaded.')
    fail = false
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('table')).toBeTruthy()
  })
})

describe('assigning an unmatched payment', () => {
  it('posts it to the loan named by id or number, with a reason, and refreshes the list', async () => {
    const fake = backOffice([payment(8, { status: 'unmatched', loanId: null, loanNumber: null })])
    renderDesk(fake.api)
    await screen.findByRole('table')
    const open = within(row(8)).getByRole('button', { name: 'Assign payment 8 to a loan' })
    fireEvent.click(open)
    expect(open.getAttribute('aria-expanded')).toBe('true')
    const panel = screen.getByRole('region', { name: 'Assign payment 8 to a loan' })
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Assign payment 8 to a loan'))
    expect(panel.textContent).toContain('₱1,500.50 received Nov 24, 2026 9:30 AM with reference 1234567897')

    // Both fields are required, checked before anything is sent.
    fireEvent.click(within(panel).getByRole('button', { name: 'Assign to the loan' }))
    expect(await within(panel).findByText('Required.')).toBeTruthy()
    expect(within(panel).getByText('Give a reason of at least 3 characters.')).toBeTruthy()
    type('Loan id or loan number', 'loan 42', panel)
    fireEvent.click(within(panel).getByRole('button', { name: 'Assign to the loan' }))
    expect(await within(panel).findByText('A loan id (digits) or a loan number (L and digits).')).toBeTruthy()
    expect(fake.sent('POST', '/private/back-office/payments/8/assign')).toEqual([])

    type('Loan id or loan number', 'L00000042', panel)
    type('Reason', '  Payer sent the receipt by e-mail. ', panel)
    const listsBefore = fake.lists().length
    fireEvent.click(within(panel).getByRole('button', { name: 'Assign to the loan' }))
    expect(await screen.findByText('Payment 8 assigned and posted to loan L00000042.')).toBeTruthy()
    expect(fake.sent('POST', '/private/back-office/payments/8/assign').map((c) => c.body)).toEqual([
      { loanId: 42, reason: 'Payer sent the receipt by e-mail.' },
    ])
    expect(fake.lists().length).toBeGreaterThan(listsBefore)
    await waitFor(() => expect(row(8).getAttribute('data-status')).toBe('posted'))
    expect(screen.queryByRole('region', { name: 'Assign payment 8 to a loan' })).toBeNull()
  })

  it("shows the server's refusals: a violation on its field, a conflict for the form", async () => {
    let answer: unknown = failure(400, 'validationError', 'Invalid input.', [
      { propertyPath: 'loanId', message: 'Must be a positive whole number.' },
    ])
    const fake = backOffice([payment(8, { status: 'unmatched', loanId: null, loanNumber: null })], {
      'POST /private/back-office/payments/8/assign': () => {
        throw answer
      },
    })
    renderDesk(fake.api)
    await screen.findByRole('table')
    fireEvent.click(within(row(8)).getByRole('button', { name: 'Assign payment 8 to a loan' }))
    const panel = screen.getByRole('region', { name: 'Assign payment 8 to a loan' })
    type('Loan id or loan number', '42', panel)
    type('Reason', 'Receipt checked', panel)
    fireEvent.click(within(panel).getByRole('button', { name: 'Assign to the loan' }))
    expect(await within(panel).findByText('Must be a positive whole number.')).toBeTruthy()
    expect(within(panel).getByLabelText('Loan id or loan number').getAttribute('aria-invalid')).toBe('true')

    answer = failure(409, 'paymentPosted', 'Only an unmatched payment can be assigned.')
    fireEvent.click(within(panel).getByRole('button', { name: 'Assign to the loan' }))
    const alert = await within(panel).findByRole('alert')
    expect(alert.textContent).toBe('Only an unmatched payment can be assigned.')

    fireEvent.click(within(panel).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('region', { name: 'Assign payment 8 to a loan' })).toBeNull()
  })
})

describe('reversing a posted payment', () => {
  it('asks for a reason, then for a confirmation, then proposes the reversal for a second approval', async () => {
    const fake = backOffice([payment(7)])
    renderDesk(fake.api)
    await screen.findByRole('table')
    fireEvent.click(within(row(7)).getByRole('button', { name: 'Reverse payment 7' }))
    const panel = screen.getByRole('region', { name: 'Reverse payment 7' })
    expect(panel.textContent).toContain('₱1,500.50 posted to loan L00000042')

    fireEvent.click(within(panel).getByRole('button', { name: 'Continue' }))
    expect(await within(panel).findByText('Give a reason of at least 3 characters.')).toBeTruthy()

    type('Reason for the reversal', 'Chargeback from the bank', panel)
    fireEvent.click(within(panel).getByRole('button', { name: 'Continue' }))
    const confirm = await within(panel).findByRole('group', { name: 'Reverse ₱1,500.50 of payment 7?' })
    const yes = within(confirm).getByRole('button', { name: 'Yes, reverse payment 7' })
    await waitFor(() => expect(document.activeElement).toBe(yes))
    // "No" goes back to the reason, nothing sent.
    fireEvent.click(within(confirm).getByRole('button', { name: 'No, keep it' }))
    expect(within(panel).queryByRole('group')).toBeNull()
    expect(fake.sent('POST', '/private/back-office/payments/7/reversal')).toEqual([])

    fireEvent.click(within(panel).getByRole('button', { name: 'Continue' }))
    fireEvent.click(await within(panel).findByRole('button', { name: 'Yes, reverse payment 7' }))
    expect(
      await screen.findByText('Reversal of payment 7 proposed (proposal 31): waiting for a second approval.'),
    ).toBeTruthy()
    expect(fake.sent('POST', '/private/back-office/payments/7/reversal').map((c) => c.body)).toEqual([
      { reason: 'Chargeback from the bank' },
    ])
    // Nothing reversed yet: a second user approves the proposal.
    expect(row(7).getAttribute('data-status')).toBe('posted')
  })

  it("shows a refused reversal as an alert, and the server's reason violation on the field", async () => {
    let answer: unknown = failure(409, 'paymentNotPosted', 'Only a posted payment can be reversed.')
    const fake = backOffice([payment(7)], {
      'POST /private/back-office/payments/7/reversal': () => {
        throw answer
      },
    })
    renderDesk(fake.api)
    await screen.findByRole('table')
    fireEvent.click(within(row(7)).getByRole('button', { name: 'Reverse payment 7' }))
    const panel = screen.getByRole('region', { name: 'Reverse payment 7' })
    type('Reason for the reversal', 'Chargeback', panel)
    fireEvent.click(within(panel).getByRole('button', { name: 'Continue' }))
    fireEvent.click(await within(panel).findByRole('button', { name: 'Yes, reverse payment 7' }))
    expect((await within(panel).findByRole('alert')).textContent).toBe(
      'Only a posted payment can be reversed.',
    )

    answer = failure(400, 'validationError', 'Invalid input.', [
      {
        propertyPath: 'reason',
        message: 'Must not contain control characters or broken (unpaired) surrogates.',
      },
    ])
    fireEvent.click(within(panel).getByRole('button', { name: 'Continue' }))
    fireEvent.click(await within(panel).findByRole('button', { name: 'Yes, reverse payment 7' }))
    expect(
      await within(panel).findByText('Must not contain control characters or broken (unpaired) surrogates.'),
    ).toBeTruthy()
    expect(within(panel).queryByRole('alert')).toBeNull()
  })
})

describe('posting a payment by hand', () => {
  const manualForm = () => screen.getByRole('form', { name: 'Post a payment by hand' })
  const fill = (form: HTMLElement) => {
    type('Payment reference', '1234567897', form)
    type('Amount in pesos', '1 500.50', form)
    fireEvent.change(within(form).getByLabelText('Channel'), { target: { value: 'cebuana' } })
    type('Note (optional)', 'Slip 0042, Cebuana Makati', form)
  }

  it('sends the amount in centavos with one idempotency key per form: a double submit posts once', async () => {
    const keys = ['key-first-0001', 'key-second-0002']
    vi.spyOn(crypto, 'randomUUID').mockImplementation(
      () => keys.shift() as `${string}-${string}-${string}-${string}-${string}`,
    )
    let fail = true
    let id = 20
    const fake = backOffice([], {
      'POST /private/back-office/payments': (call) => {
        if (fail) {
          fail = false
          throw new TypeError('Failed to fetch')
        }
        const body = call.body as { reference: string; amount: number; channel: string; note?: string }
        return payment(id++, { ...body, source: 'manual', postedBy: 3 })
      },
    })
    renderDesk(fake.api)
    await screen.findByText('No payment matches these filters.')
    const form = manualForm()
    // Nothing is sent while a field is wrong.
    fireEvent.click(within(form).getByRole('button', { name: 'Post the payment' }))
    expect(await within(form).findAllByText('Required.')).toHaveLength(2)
    expect(within(form).getByText('Choose a channel.')).toBeTruthy()
    type('Amount in pesos', '15.005', form)
    fireEvent.click(within(form).getByRole('button', { name: 'Post the payment' }))
    expect(
      await within(form).findByText(
        'An amount in pesos with at most 2 decimals, for example 1500 or 1 500.50.',
      ),
    ).toBeTruthy()
    expect(fake.sent('POST', '/private/back-office/payments')).toEqual([])

    fill(form)
    // The first attempt gets no answer; sending again sends the same key (the server posts it once).
    fireEvent.click(within(form).getByRole('button', { name: 'Post the payment' }))
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'The payment was not posted. Please try again.',
    )
    const button = within(form).getByRole('button', { name: 'Post the payment' })
    fireEvent.click(button)
    fireEvent.click(button)
    expect(await screen.findByText('Payment 20 of ₱1,500.50 posted to loan L00000042.')).toBeTruthy()
    const posts = fake.sent('POST', '/private/back-office/payments')
    expect(posts.map((c) => c.body)).toEqual([
      {
        reference: '1234567897',
        amount: 150_050,
        channel: 'cebuana',
        idempotencyKey: 'key-first-0001',
        note: 'Slip 0042, Cebuana Makati',
      },
      {
        reference: '1234567897',
        amount: 150_050,
        channel: 'cebuana',
        idempotencyKey: 'key-first-0001',
        note: 'Slip 0042, Cebuana Makati',
      },
    ])

    // Posted: a new, empty form with a new key for the next slip.
    await waitFor(() =>
      expect((within(manualForm()).getByLabelText('Payment reference') as HTMLInputElement).value).toBe(''),
    )
    fill(manualForm())
    type('Note (optional)', '', manualForm())
    fireEvent.click(within(manualForm()).getByRole('button', { name: 'Post the payment' }))
    expect(await screen.findByText('Payment 21 of ₱1,500.50 posted to loan L00000042.')).toBeTruthy()
    const last = fake.sent('POST', '/private/back-office/payments').at(-1)!.body
    expect(last).toEqual({
      reference: '1234567897',
      amount: 150_050,
      channel: 'cebuana',
      idempotencyKey: 'key-second-0002',
    })
    // The list was asked again after each post.
    expect(fake.lists().length).toBeGreaterThanOrEqual(3)
  })

  it("says when the payment was kept as unmatched, and puts the server's violations on the fields", async () => {
    let answer: (call: FakeCall) => unknown = () => {
      throw failure(400, 'validationError', 'Not a payment reference.', [
        {
          propertyPath: 'reference',
          message: 'Not a payment reference (10 digits with a valid check digit).',
        },
      ])
    }
    const fake = backOffice([], { 'POST /private/back-office/payments': (call) => answer(call) })
    renderDesk(fake.api)
    await screen.findByText('No payment matches these filters.')
    const form = manualForm()
    fill(form)
    fireEvent.click(within(form).getByRole('button', { name: 'Post the payment' }))
    expect(
      await within(form).findByText('Not a payment reference (10 digits with a valid check digit).'),
    ).toBeTruthy()
    expect(within(form).queryByRole('alert')).toBeNull()

    answer = () => payment(30, { status: 'unmatched', loanId: null, loanNumber: null, amount: 150_050 })
    fireEvent.click(within(form).getByRole('button', { name: 'Post the payment' }))
    expect(
      await screen.findByText(
        'Payment 30 of ₱1,500.50 kept as unmatched: the reference matches no loan to pay. Assign it to a loan in the list.',
      ),
    ).toBeTruthy()
  })
})

describe('reconciliation and loan actions', () => {
  it('reconciles now and says what it found', async () => {
    const fake = backOffice([], {
      'POST /private/back-office/payments/reconcile': () => ({ checked: 12, posted: 1 }),
    })
    renderDesk(fake.api)
    await screen.findByText('No payment matches these filters.')
    fireEvent.click(screen.getByRole('button', { name: 'Reconcile now' }))
    expect(await screen.findByText('12 gateway payments checked, 1 posted.')).toBeTruthy()
    expect(fake.sent('POST', '/private/back-office/payments/reconcile')[0]!.body).toBeUndefined()
  })

  it('holds, releases and cancels a loan with a reason, showing the state it is in', async () => {
    const states: Record<string, { state: string; status: number }> = {
      hold: { state: 'on_hold', status: 6 },
      release: { state: 'active', status: 4 },
    }
    const fake = fakeApi((call) => {
      if (`${call.method} ${call.path}` === LIST) return pageOf([])
      const match = /^POST \/private\/back-office\/loan\/(\d+)\/(hold|release|cancel)$/.exec(
        `${call.method} ${call.path}`,
      )
      if (!match) throw new Error(`unexpected ${call.method} ${call.path}`)
      if (match[1] === '999999')
        throw failure(400, 'validationError', 'Invalid input.', [
          { propertyPath: 'params.id', message: 'Must be a positive whole number.' },
        ])
      if (match[2] === 'cancel')
        throw failure(409, 'payoutInProgress', 'Only a loan whose payout failed can be cancelled.')
      return { loanId: Number(match[1]), ...states[match[2]!] }
    })
    renderDesk(fake.api)
    const section = screen.getByRole('region', { name: 'Hold, release or cancel a loan' })
    fireEvent.click(within(section).getByRole('button', { name: 'Hold the loan' }))
    expect(await within(section).findByText('Required.')).toBeTruthy()
    type('Loan id or loan number', 'L00000042', section)
    type('Reason', 'Dispute opened by the client', section)
    fireEvent.click(within(section).getByRole('button', { name: 'Hold the loan' }))
    expect(await within(section).findByText('Loan 42 is now on hold (status 6).')).toBeTruthy()
    fireEvent.click(within(section).getByRole('button', { name: 'Release the loan' }))
    expect(await within(section).findByText('Loan 42 is now active (status 4).')).toBeTruthy()
    expect(fake.calls.filter((c) => c.path.includes('/loan/')).map((c) => [c.path, c.body])).toEqual([
      ['/private/back-office/loan/42/hold', { reason: 'Dispute opened by the client' }],
      ['/private/back-office/loan/42/release', { reason: 'Dispute opened by the client' }],
    ])

    fireEvent.click(within(section).getByRole('button', { name: 'Cancel the loan' }))
    expect((await within(section).findByRole('alert')).textContent).toBe(
      'Only a loan whose payout failed can be cancelled.',
    )
    type('Loan id or loan number', '999999', section)
    fireEvent.click(within(section).getByRole('button', { name: 'Hold the loan' }))
    expect(await within(section).findByText('Must be a positive whole number.')).toBeTruthy()
    expect(within(section).getByLabelText('Loan id or loan number').getAttribute('aria-invalid')).toBe('true')
  })
})

describe('<SandboxTools>', () => {
  it('moves the business clock for the instance or one client and shows the days', async () => {
    const fake = fakeApi((call) => {
      if (`${call.method} ${call.path}` !== 'POST /private/back-office/sandbox/clock')
        throw new Error(`unexpected ${call.method} ${call.path}`)
      const body = call.body as { days: number; clientId?: number }
      if (body.days > 100)
        throw failure(400, 'validationError', 'Invalid input.', [
          { propertyPath: 'days', message: 'At most 400 days at a time.' },
        ])
      return {
        now: '2026-11-24T01:30:00.000Z',
        instanceOffsetDays: body.clientId ? 0 : body.days,
        clientOffsetDays: body.clientId ? body.days : null,
        today: body.clientId ? '2026-11-24' : '2026-12-01',
        clientToday: body.clientId ? '2026-12-24' : null,
        daysRun: body.days,
      }
    })
    render(
      <Harness api={fake.api}>
        <SandboxTools />
      </Harness>,
    )
    const form = screen.getByRole('form', { name: 'Move the business clock' })
    fireEvent.click(within(form).getByRole('button', { name: 'Move the clock' }))
    expect(await within(form).findByText('Required.')).toBeTruthy()
    type('Days forward', '401', form)
    fireEvent.click(within(form).getByRole('button', { name: 'Move the clock' }))
    expect(await within(form).findByText('A whole number of days from 0 to 400.')).toBeTruthy()
    expect(fake.calls).toEqual([])

    type('Days forward', '7', form)
    fireEvent.click(within(form).getByRole('button', { name: 'Move the clock' }))
    expect(await screen.findByText('Today for the instance: Dec 01, 2026 (7 days ahead).')).toBeTruthy()
    expect(screen.getByText('Servicing days run: 7.')).toBeTruthy()
    expect(fake.calls.at(-1)!.body).toEqual({ days: 7 })

    type('Days forward', '30', form)
    type('Client id (optional)', '12', form)
    fireEvent.click(within(form).getByRole('button', { name: 'Move the clock' }))
    expect(await screen.findByText('Today for client 12: Dec 24, 2026 (30 days ahead).')).toBeTruthy()
    expect(fake.calls.at(-1)!.body).toEqual({ days: 30, clientId: 12 })

    type('Days forward', '200', form)
    fireEvent.click(within(form).getByRole('button', { name: 'Move the clock' }))
    expect(await within(form).findByText('At most 400 days at a time.')).toBeTruthy()
  })

  it('makes a payment arrive at a channel, in centavos, and shows the delivery', async () => {
    const fake = fakeApi((call) => {
      if (`${call.method} ${call.path}` !== 'POST /private/back-office/sandbox/payments')
        throw new Error(`unexpected ${call.method} ${call.path}`)
      const { channel } = call.body as { channel: string }
      if (channel === 'gcash') throw failure(404, 'notFound', 'Route not found.')
      return { chargeId: 'chg_abc12345', eventId: 'evt_1', delivered: channel !== 'bayad', status: 200 }
    })
    render(
      <Harness api={fake.api}>
        <SandboxTools />
      </Harness>,
    )
    const form = screen.getByRole('form', { name: 'Make a payment arrive' })
    type('Payment reference', '1234567897', form)
    type('Amount in pesos', '250', form)
    fireEvent.change(within(form).getByLabelText('Channel'), { target: { value: 'seven_eleven' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Send the payment' }))
    expect(
      await screen.findByText('Delivered to our webhook (HTTP 200): event evt_1, charge chg_abc12345.'),
    ).toBeTruthy()
    expect(fake.calls[0]!.body).toEqual({ reference: '1234567897', amount: 25_000, channel: 'seven_eleven' })

    fireEvent.change(within(form).getByLabelText('Channel'), { target: { value: 'bayad' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Send the payment' }))
    expect(
      await screen.findByText(
        'Not delivered yet: the gateway retries with backoff. Event evt_1, charge chg_abc12345.',
      ),
    ).toBeTruthy()

    // Outside the sandbox the call does not exist: the server's words, announced.
    fireEvent.change(within(form).getByLabelText('Channel'), { target: { value: 'gcash' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Send the payment' }))
    expect((await within(form).findByRole('alert')).textContent).toBe('Route not found.')
  })
})
