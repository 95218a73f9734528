// @vitest-environment happy-dom
/**
 * /profile/my-loan with servicing (issue 16 item 7): the loan number and payment reference, what is outstanding
 * by part (penalties only when charged), a credit when the client overpaid, Pay in full and Pay another amount,
 * the payment history with each payment's allocation, the statement of account and its PDF, and the figures
 * changing by themselves, with a toast, when a payment posts.
 *
 * Extensions and payment schedules (issue 17 item 5): the extensions offered (draft, chosen and waiting for its
 * fee, refused) and in effect, how many were used; a schedule special offer accepted in steps (review, send the
 * code, sign) against mocked calls; and, on a schedule, its instalments (one overdue) and what to pay now.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../src/api/client'
import { MyLoanScreen } from '../../../src/features/application/my-loan-screen'
import { type FakeCall, routedApi } from '../../support/fake-api'
import { cheap, cheapAgain, chosen, expensive, inEffect, maxCount, refused } from '../extension/fixtures'
import { activeLoan, Harness, LOAN, PAYMENTS, pageOf, paymentOf, type SessionKind } from './harness'
import {
  MONTHLY_ID,
  monthlyOffer,
  offerSummaries,
  scheduleDocuments,
  scheduleFirstPaid,
  scheduleInForce,
} from './schedule-fixtures'

vi.mock('@tanstack/react-router', () => ({
  Link: ({
    to,
    params,
    search,
    children,
    className,
  }: {
    to: string
    params?: Record<string, string>
    search?: Record<string, string>
    children: ReactNode
    className?: string
  }) => {
    // `/profile/rollover/{-$id}` with `{ id: '12' }` is `/profile/rollover/12`.
    const path = to.replace(
      /\{-\$(\w+)\}|\$(\w+)/g,
      (_, optional, required) => params?.[optional ?? required] ?? '',
    )
    return (
      <a href={search ? `${path}?${new URLSearchParams(search)}` : path} className={className}>
        {children}
      </a>
    )
  },
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
  routes = {},
  statementAnswer = statement() as unknown,
}: {
  loan?: unknown
  payments?: unknown[]
  session?: SessionKind
  pollMs?: number
  /** More calls the page may make, by "METHOD /path". */
  routes?: Record<string, unknown | ((call: FakeCall) => unknown)>
  statementAnswer?: unknown
} = {}) {
  const state = { loan, payments }
  const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' })
  const fake = routedApi({
    [LOAN]: () => state.loan,
    [PAYMENTS]: () => pageOf(state.payments),
    [STATEMENT]: statementAnswer,
    [DOWNLOAD]: pdf,
    ...routes,
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
    await waitFor(() => expect(figure('amount-due')).toBe('₱5,250.00'))
    expect(figure('loan-number')).toBe('L00000009')
    expect(figure('payment-reference')).toBe('1234567897')
    expect(figure('principal')).toBe('₱5,000.00')
    expect(figure('part-principal')).toBe('₱5,000.00')
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
    expect(figure('amount-due')).toBe('₱5,325.00')
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
      ['Nov 20, 2026', '₱3,000.00', '7-Eleven (CLiQQ)', 'Principal ₱2,923.00 · Credit ₱77.00'],
      ['Nov 20, 2026', '₱2,250.00', 'GCash', 'Fees ₱40.00 · Interest ₱133.00 · Principal ₱2,077.00'],
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
    expect(cells(0)).toEqual(['Nov 01, 2026', 'Money paid out', '₱5,000.00', '₱5,000.00', '₱0.00'])
    expect(cells(1)).toEqual(['Nov 01, 2026', 'Fee: fees', '₱25.00', '₱5,025.00', '₱0.00'])
    expect(cells(6)).toEqual([
      'Nov 20, 2026',
      'Payment applied: principal',
      '-₱2,077.00',
      '₱2,923.00',
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
    await waitFor(() => expect(figure('amount-due')).toBe('₱5,250.00'))
    await new Promise((resolve) => setTimeout(resolve, 120))
    // A partial payment of ₱2 250: fees, then interest, then principal.
    state.payments = [paymentOf(31, 225_000, { fees: 4_000, interest: 21_000, principal: 200_000 })]
    state.loan = activeLoan({ parts: { principal: 300_000, interest: 0, fees: 0, penalties: 0 } })
    const toast = await screen.findByText('Payment of ₱2,250.00 received')
    expect(toast.closest('[role="status"]')).toBeTruthy()
    await waitFor(() => expect(figure('part-principal')).toBe('₱3,000.00'))
    expect(figure('part-interest')).toBe('₱0.00')
    expect(figure('part-fees')).toBe('₱0.00')
    expect(figure('amount-due')).toBe('₱3,000.00')
    expect(await screen.findByRole('table', { name: 'Your payments' })).toBeTruthy()
  })
})

// ---------------------------------------------------------------------------------------------------------
// Extensions and payment schedules (issue 17 item 5)

const SCHEDULE = 'GET /private/client/loan/active/payment-schedule'
const OFFER = `GET /private/client/loan/active/payment-schedule/special-offer/submit/${MONTHLY_ID}`
const SUBMIT = `POST /private/client/loan/active/payment-schedule/special-offer/submit/${MONTHLY_ID}`
const amendmentDownload = (docId: number) => `GET /private/client/loan/9/amendment-document/${docId}/download`

const extensionsBlock = () => screen.findByRole('region', { name: 'Extend your due date' })
const cardOf = (rolloverId: number) =>
  document.querySelector(`[data-rollover="${rolloverId}"]`) as HTMLElement
/** A cell's text with its no-break spaces (kept on one line on a phone) read as spaces. */
const spaced = (element: HTMLElement | undefined) => element?.textContent?.replace(/\u00a0/g, ' ')
const figureIn = (root: HTMLElement, name: string) =>
  root.querySelector(`[data-figure="${name}"] dd`)?.textContent

describe('<MyLoanScreen> extensions', () => {
  it('lists the extensions on offer, the one waiting for its fee, those in effect, and how many were used', async () => {
    renderLoan({
      loan: activeLoan({
        plan: 'on_terms',
        extensions: { taken: 1, max: 3 },
        dueDate: '2026-12-08',
        // The 7-day extension took effect; it is offered again and chosen; the 30-day one is a draft.
        rollovers: [inEffect(cheap), chosen(cheapAgain), expensive()],
      }),
    })
    const block = await extensionsBlock()
    expect(figureIn(block, 'extensions-used')).toBe('1 of 3')

    const inEffectList = within(block).getByRole('region', { name: 'Extensions in effect' })
    expect(within(inEffectList).getByRole('listitem').textContent).toBe(
      '7 more days for ₱350.00: your due date moved to Dec 08, 2026.',
    )

    const offered = within(block).getByRole('region', { name: 'Extensions you can choose' })
    // Cheapest first.
    expect(
      within(offered)
        .getAllByRole('heading', { level: 4 })
        .map((h) => h.textContent),
    ).toEqual(['Short extension: 7 more days', 'Long extension: 30 more days'])

    const draft = cardOf(12)
    expect(draft.dataset.invoice).toBe('draft')
    expect(figureIn(draft, 'fee')).toBe('₱1,500.00')
    expect(figureIn(draft, 'new-due-date')).toBe('Dec 31, 2026')
    expect(figureIn(draft, 'legal-room-after')).toBe('₱2,500.00')
    expect(within(draft).getByRole('link', { name: 'Extend by 30 days' }).getAttribute('href')).toBe(
      '/profile/rollover/12',
    )

    const waiting = cardOf(13)
    expect(waiting.dataset.invoice).toBe('unpaid')
    expect(
      within(waiting).getByText('Chosen: waiting for its fee of ₱350.00 until Nov 25, 2026.'),
    ).toBeTruthy()
    expect(
      within(waiting).getByRole('link', { name: 'Continue your 7-day extension' }).getAttribute('href'),
    ).toBe('/profile/rollover/13')
    expect(figureIn(waiting, 'legal-room-after')).toBe('₱3,650.00')
  })

  it('a refused extension says why and has no link', async () => {
    renderLoan({
      loan: activeLoan({
        plan: 'on_terms',
        extensions: { taken: 3, max: 3 },
        rollovers: [refused(cheap), refused(expensive)],
      }),
    })
    const block = await extensionsBlock()
    expect(figureIn(block, 'extensions-used')).toBe('3 of 3')
    expect(within(block).queryAllByRole('link')).toEqual([])
    for (const id of [11, 12]) {
      expect(within(cardOf(id)).getByText(`Not available now: ${maxCount.message}`)).toBeTruthy()
      expect(cardOf(id).querySelector('[data-refusal]')?.getAttribute('data-refusal')).toBe('maxCount')
    }
  })

  it('a single-link session sees the extensions but is asked to log in to take one', async () => {
    renderLoan({ session: 'singleLink', loan: activeLoan({ rollovers: [cheap(), expensive()] }) })
    const block = await extensionsBlock()
    expect(within(block).queryAllByRole('link')).toEqual([])
    expect(within(block).getByText('Log in to your profile to extend your loan.')).toBeTruthy()
  })

  it('no rollovers, no extensions block', async () => {
    renderLoan()
    await waitFor(() => expect(figure('amount-due')).toBe('₱5,250.00'))
    expect(screen.queryByRole('region', { name: 'Extend your due date' })).toBeNull()
    expect(screen.queryByRole('region', { name: 'Split what you owe' })).toBeNull()
  })
})

/** The server's code request answer: the code is sent and the documents rendered. */
const codeSent = {
  sent: true,
  nextCodeAt: new Date(Date.now() + 60_000).toISOString(),
  codeExpiresAt: new Date(Date.now() + 300_000).toISOString(),
  documents: scheduleDocuments,
}

function renderOffers({
  offer = monthlyOffer(),
  refuseCode,
}: {
  offer?: ReturnType<typeof monthlyOffer>
  /** The answer to the code sent with the signature, when it is refused. */
  refuseCode?: ApiError
} = {}) {
  const rendered = renderLoan({
    loan: activeLoan({ plan: 'on_terms', specialOffers: offerSummaries() }),
    routes: {
      [OFFER]: offer,
      [SUBMIT]: (call: FakeCall) => {
        const { code } = call.body as { code?: string }
        if (code === undefined) return codeSent
        if (refuseCode) throw refuseCode
        // Signed: the loan is on the schedule from now on.
        rendered.state.loan = activeLoan({ plan: 'scheduled', specialOffers: [], dueDate: '2027-01-21' })
        return scheduleInForce()
      },
      [SCHEDULE]: scheduleInForce(),
      [amendmentDownload(601)]: new Blob(['%PDF-1.7'], { type: 'application/pdf' }),
    },
  })
  return rendered
}

const offersPanel = () => screen.findByRole('region', { name: 'Split what you owe' })

describe('<MyLoanScreen> payment-schedule special offers', () => {
  it('"Split what you owe" shows each plan: instalments, the first payment and the total', async () => {
    renderOffers()
    const panel = await offersPanel()
    const monthly = panel.querySelector('[data-type="monthly"]') as HTMLElement
    const semi = panel.querySelector('[data-type="semi_monthly"]') as HTMLElement
    expect(within(monthly).getByRole('heading', { level: 3 }).textContent).toBe('Monthly instalments')
    expect(figureIn(monthly, 'instalments')).toBe('2')
    expect(figureIn(monthly, 'first-payment')).toBe('₱2,782.50 on Dec 22, 2026')
    expect(figureIn(monthly, 'total')).toBe('₱5,565.00')
    expect(figureIn(semi, 'instalments')).toBe('4')
    expect(figureIn(semi, 'first-payment')).toBe('₱1,391.25 on Dec 07, 2026')
    expect(within(panel).getByRole('button', { name: 'Review: Instalments twice a month' })).toBeTruthy()
  })

  it('offers the decision does not make available today are not shown', async () => {
    renderLoan({ loan: activeLoan({ plan: 'on_terms', specialOffers: offerSummaries(false) }) })
    await waitFor(() => expect(figure('amount-due')).toBe('₱5,250.00'))
    expect(screen.queryByRole('region', { name: 'Split what you owe' })).toBeNull()
  })

  it('accepting: review, send the code, sign; My loan reloads and shows the schedule', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    const { calls } = renderOffers()
    const panel = await offersPanel()
    fireEvent.click(within(panel).getByRole('button', { name: 'Review: Monthly instalments' }))

    // Review: the figures, every instalment, and no documents yet.
    const review = await within(panel).findByRole('heading', { name: 'Review: Monthly instalments' })
    await waitFor(() => expect(document.activeElement).toBe(review))
    expect(figureIn(panel, 'owed')).toBe('₱5,250.00')
    expect(figureIn(panel, 'interest')).toBe('₱315.00')
    expect(figureIn(panel, 'total')).toBe('₱5,565.00')
    expect(figureIn(panel, 'days')).toBe('60 days')
    const table = within(panel).getByRole('table', { name: 'Instalments of this payment schedule' })
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((cell) => spaced(cell)),
        ),
    ).toEqual([
      ['1', 'Dec 22, 2026', '₱2,782.50', '₱157.50'],
      ['2', 'Jan 21, 2027', '₱2,782.50', '₱157.50'],
    ])
    fireEvent.click(within(panel).getByRole('button', { name: 'Continue to sign' }))

    // Sign: the code request renders the documents and sends the code.
    await within(panel).findByRole('heading', { name: 'Sign the payment schedule' })
    fireEvent.click(within(panel).getByRole('button', { name: 'Prepare my documents and send the code' }))
    await within(panel).findByText(
      'Your documents are ready and we sent a 3-digit code to your mobile phone.',
    )
    expect(calls.filter((c) => `${c.method} ${c.path}` === SUBMIT).map((c) => c.body)).toEqual([{}])
    fireEvent.click(
      await within(panel).findByRole('button', { name: 'Download: Payment schedule agreement (PDF)' }),
    )
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1))
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('schedule_agreement-601.pdf')
    expect(
      within(panel).getByRole('button', { name: 'Read: Truth in Lending disclosure statement (PDF)' }),
    ).toBeTruthy()

    fireEvent.change(within(panel).getByLabelText('Code from the SMS'), { target: { value: '123' } })
    fireEvent.click(within(panel).getByRole('button', { name: 'Accept the payment schedule' }))

    // Done: the news, then the schedule in place of the offers.
    expect(
      await screen.findByText('Your payment schedule is agreed. Pay each instalment by its due date.'),
    ).toBeTruthy()
    expect(calls.filter((c) => `${c.method} ${c.path}` === SUBMIT).map((c) => c.body)).toEqual([
      {},
      { code: '123' },
    ])
    expect(await screen.findByRole('table', { name: 'Your instalments' })).toBeTruthy()
    expect(screen.queryByRole('region', { name: 'Split what you owe' })).toBeNull()
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain(SCHEDULE)
  })

  it('a wrong code is said on the code field and the client stays on the sign step', async () => {
    renderOffers({
      refuseCode: new ApiError(422, '/web/x', 'codeIncorrect', 'Phone verification not passed', []),
    })
    const panel = await offersPanel()
    fireEvent.click(within(panel).getByRole('button', { name: 'Review: Monthly instalments' }))
    fireEvent.click(await within(panel).findByRole('button', { name: 'Continue to sign' }))
    fireEvent.click(
      await within(panel).findByRole('button', { name: 'Prepare my documents and send the code' }),
    )
    fireEvent.change(within(panel).getByLabelText('Code from the SMS'), { target: { value: '999' } })
    fireEvent.click(within(panel).getByRole('button', { name: 'Accept the payment schedule' }))
    const error = await within(panel).findByText('The code is not correct. Check the SMS and try again.')
    expect(error.getAttribute('data-error-key')).toBe('codeIncorrect')
    const input = within(panel).getByLabelText('Code from the SMS')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(input))
    expect(within(panel).getByRole('heading', { name: 'Sign the payment schedule' })).toBeTruthy()
  })

  it('an offer refused today says why and cannot be signed; Not now returns to the offers', async () => {
    renderOffers({
      offer: monthlyOffer({
        available: false,
        reason: 'The schedule would break the legal cap.',
        interest: { amount: 20_000 },
        documents: scheduleDocuments,
      }),
    })
    const panel = await offersPanel()
    fireEvent.click(within(panel).getByRole('button', { name: 'Review: Monthly instalments' }))
    const alert = await within(panel).findByRole('alert')
    expect(alert.textContent).toContain('This payment schedule cannot be accepted today.')
    expect(alert.textContent).toContain('The schedule would break the legal cap.')
    expect(within(panel).queryByRole('button', { name: 'Continue to sign' })).toBeNull()
    // Documents rendered before are listed; the interest lowered by the cap says from what.
    expect(
      within(panel).getByRole('button', { name: 'Download: Payment schedule agreement (PDF)' }),
    ).toBeTruthy()
    expect(within(panel).getByText(/Lowered from ₱315.00/)).toBeTruthy()
    fireEvent.click(within(panel).getByRole('button', { name: 'Not now' }))
    expect(await within(panel).findByRole('button', { name: 'Review: Monthly instalments' })).toBeTruthy()
  })

  it('a single-link session sees the offers but is asked to log in to accept one', async () => {
    renderLoan({
      session: 'singleLink',
      loan: activeLoan({ plan: 'on_terms', specialOffers: offerSummaries() }),
    })
    const panel = await offersPanel()
    expect(within(panel).queryAllByRole('button')).toEqual([])
    expect(within(panel).getByText('Log in to your profile to accept a payment schedule.')).toBeTruthy()
  })
})

describe('<MyLoanScreen> on a payment schedule', () => {
  const scheduled = () => activeLoan({ plan: 'scheduled', dueDate: '2027-01-21', rollovers: [cheap()] })

  it('lists the instalments, an unpaid one past its due date overdue, and what to pay now', async () => {
    renderLoan({ loan: scheduled(), routes: { [SCHEDULE]: scheduleInForce() } })
    const table = await screen.findByRole('table', { name: 'Your instalments' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => spaced(cell)),
      ),
    ).toEqual([
      ['1', 'Dec 22, 2026', '₱2,782.50', '₱0.00', 'To pay 3 days overdue'],
      ['2', 'Jan 21, 2027', '₱2,782.50', '₱0.00', 'To pay'],
    ])
    expect(rows.map((row) => row.hasAttribute('data-overdue'))).toEqual([true, false])
    expect(figure('to-pay-now')).toBe('₱2,782.50')
    expect(figure('schedule-type')).toBe('Monthly instalments')
    const pay = screen.getByRole('link', { name: 'Pay ₱2,782.50 now' })
    expect(pay.getAttribute('href')).toBe('/profile/repayment?purpose=instalment')
    // On a schedule there are no extensions to choose nor offers to accept.
    expect(screen.queryByRole('region', { name: 'Extend your due date' })).toBeNull()
  })

  it('a paid instalment is paid and never overdue; one day overdue reads singular', async () => {
    const firstPaid = scheduleFirstPaid()
    const second = firstPaid.payments[1] as (typeof firstPaid.payments)[number]
    renderLoan({
      loan: scheduled(),
      routes: {
        [SCHEDULE]: {
          ...firstPaid,
          payments: [firstPaid.payments[0], { ...second, dueDays: 1, overdue: true }],
        },
      },
    })
    const table = await screen.findByRole('table', { name: 'Your instalments' })
    const statuses = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => spaced(within(row).getAllByRole('cell')[4]))
    expect(statuses).toEqual(['Paid', 'To pay 1 day overdue'])
  })

  it('a single-link session sees what to pay now without the profile repayment link', async () => {
    renderLoan({ session: 'singleLink', loan: scheduled(), routes: { [SCHEDULE]: scheduleInForce() } })
    await screen.findByRole('table', { name: 'Your instalments' })
    expect(figure('to-pay-now')).toBe('₱2,782.50')
    expect(screen.queryByRole('link', { name: /Pay ₱/ })).toBeNull()
  })

  it('the statement names the extension fee and the schedule interest', async () => {
    const base = statement()
    const entry = (id: number, kind: string, part: string, amount: number, outstandingAfter: number) => ({
      id,
      date: '2026-11-24',
      kind,
      part,
      amount,
      memo: null,
      paymentId: null,
      outstandingAfter,
      creditAfter: 0,
    })
    renderLoan({
      loan: scheduled(),
      routes: { [SCHEDULE]: scheduleInForce() },
      statementAnswer: {
        ...base,
        entries: [
          entry(8, 'extension_fee', 'fees', 35_000, 327_300),
          entry(9, 'schedule_interest', 'interest', 15_750, 343_050),
        ],
      },
    })
    const table = await screen.findByRole('table', { name: 'Statement of account entries' })
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[1]?.textContent),
    ).toEqual(['Extension fee', 'Payment schedule interest'])
  })
})
