// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PricedOffer } from '../../../domain/contract/pricing-answers'
import { ApiError } from '../../../src/api/client'
import { MyLoanScreen } from '../../../src/features/application/my-loan-screen'
import { SummaryScreen, signErrorKey } from '../../../src/features/application/summary-screen'
import { fakeAuth } from '../repayment/harness'
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
    applicationId: 42,
    status: 4,
    createdAt: '2026-11-01T02:00:00.000Z',
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
    feeLines: { processingFee: 2_500, borrowersAdvantagePackageFee: 1_500 },
    term: { value: 30, unit: 'day' },
    dueDate: '2026-12-01',
    finalClosingDate: '2027-11-01',
    repaymentInvoice: { dueDate: '2026-12-01', dueDays, amount: money(525_000 + (penalty ?? 0)) },
    rollovers: [],
  }
}

describe('<MyLoanScreen>', () => {
  it('shows the principal, the amount due with its parts, the due date and the days left', async () => {
    const { api, get } = scriptedApi({ get: { [LOAN]: loanWith() } })
    render(
      <Harness api={api} services={{ auth: fakeAuth('client') }}>
        <MyLoanScreen />
      </Harness>,
    )
    await waitFor(() => expect(figure('amount-due')).toBe('₱5,250.00'))
    expect(get).toHaveBeenCalledWith(LOAN, expect.anything())
    expect(figure('principal')).toBe('₱5,000.00')
    expect(figure('due-date')).toBe('Dec 01, 2026')
    expect(figure('days-left')).toBe('9 days')
    expect(figure('part-principal')).toBe('₱5,000.00')
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
      <Harness api={api} services={{ auth: fakeAuth('client') }}>
        <MyLoanScreen />
      </Harness>,
    )
    await waitFor(() => expect(figure('days-left')).toBe(text))
    expect(figure('part-penalty')).toBe('₱30.00')
  })

  it('no active loan says so', async () => {
    const { api } = scriptedApi({ get: { [LOAN]: null } })
    render(
      <Harness api={api} services={{ auth: fakeAuth('client') }}>
        <MyLoanScreen />
      </Harness>,
    )
    expect((await screen.findByText('You have no active loan.')).getAttribute('role')).toBe('status')
  })

  it('an answer that does not match the loan contract is an error, not a guess', async () => {
    const { api } = scriptedApi({ get: { [LOAN]: { repaymentInvoice: { dueDays: 'soon' } } } })
    render(
      <Harness api={api} services={{ auth: fakeAuth('client') }}>
        <MyLoanScreen />
      </Harness>,
    )
    expect((await screen.findByRole('alert')).getAttribute('data-error-key')).toBe('error')
  })
})

describe('<SummaryScreen>', () => {
  const RENDER = '/private/client/render/document'
  /** The render answer as the server builds it (the disclosure figures come from the offer). */
  const documentOf = (type: string, name: string) => ({
    id: `0b7e3f0e-5a51-4c4e-9d7a-${type === 'loan_agreement' ? '000000000001' : '000000000002'}`,
    applicationId: 42,
    type,
    name,
    sha256: 'ab'.repeat(32),
    size: 4_096,
    renderedAt: '2026-11-01T02:00:00.000Z',
    signed: false,
    signedAt: null,
    url: `/web/private/client/document/download/${type}`,
  })
  const rendered = (offer = offerOf(500_000, 21)) => ({
    documents: [
      documentOf('loan_agreement', 'Loan agreement'),
      documentOf('disclosure_statement', 'Disclosure statement (Truth in Lending Act)'),
    ],
    offer,
  })
  function renderSummary(
    sign?: (path: string, body?: unknown) => unknown,
    { offer, application = applicationFor(2) }: { offer?: PricedOffer; application?: unknown } = {},
  ) {
    const post = (path: string, body?: unknown) => (path === RENDER ? rendered(offer) : sign?.(path, body))
    const scripted = scriptedApi({ get: { [ACTUAL]: application }, post })
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
    await waitFor(() => expect(figure('total')).toBe('₱5,250.00'))
    expect(figure('due-date')).toBe('Dec 13, 2026')
    expect(post.mock.calls.filter(([path]) => path === RENDER)).toHaveLength(1)
  })

  it('shows the Truth in Lending disclosure before signing: principal, interest, each fee, total, due date, rate', async () => {
    renderSummary()
    await waitFor(() => expect(figure('principal')).toBe('₱5,000.00'))
    expect(screen.getByLabelText('What your loan costs', { selector: 'dl' })).toBeTruthy()
    expect(figure('net-proceeds')).toBe('₱5,000.00')
    expect(figure('interest')).toBe('₱210.00')
    expect(screen.getByText('Interest for 21 days')).toBeTruthy()
    expect(figure('processing-fee')).toBe('₱25.00')
    expect(figure('package-fee')).toBe('₱15.00')
    // Fees the configuration does not charge are not listed.
    expect(document.querySelector('[data-figure="service-fee"]')).toBeNull()
    expect(figure('finance-charge')).toBe('₱250.00')
    expect(figure('total')).toBe('₱5,250.00')
    expect(figure('due-date')).toBe('Dec 13, 2026')
    // 250 / 5 000 × 30 / 21 = 7.14% a month; the offer's APR a year.
    expect(figure('effective-rate')).toBe('7.14% a month (100.00% a year)')
    // Everything is on screen before the code can be asked for.
    const disclosure = screen.getByRole('heading', { name: 'What your loan costs' })
    const send = screen.getByRole('button', { name: 'Send me the code' })
    expect(disclosure.compareDocumentPosition(send) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it('explains the optional package next to its line: what it is, that it is optional, its price', async () => {
    renderSummary()
    const box = await screen.findByRole('region', { name: "The borrower's advantage package is optional" })
    expect(box.getAttribute('data-package')).toBe('chosen')
    expect(box.textContent).toContain('You do not need it to get the loan')
    expect(box.textContent).toContain('it costs ₱15.00 for this loan')
    expect(screen.getByText("Borrower's advantage package (optional)")).toBeTruthy()
  })

  it('a client who did not choose the package reads that it costs nothing', async () => {
    const offer = { ...offerOf(500_000, 21), borrowers_advantage_package_fee: { amount: 0 } }
    offer.total = { amount: offer.total.amount - 1_500 }
    renderSummary(undefined, {
      offer,
      application: applicationFor(2, { borrowersAdvantagePackageFeeConsent: false }),
    })
    const box = await screen.findByRole('region', { name: "The borrower's advantage package is optional" })
    expect(box.getAttribute('data-package')).toBe('not-chosen')
    expect(box.textContent).toContain('You did not choose it')
    expect(figure('package-fee')).toBe('₱0.00')
    expect(figure('total')).toBe('₱5,235.00')
  })

  it('an interest discount is shown with the interest', async () => {
    const base = offerOf(500_000, 21)
    const offer = {
      ...base,
      interest: { amount: 16_800 },
      discount: { interest: { amount: 4_200 }, serviceFee: { amount: 0 } },
      total: { amount: base.total.amount - 4_200 },
    }
    renderSummary(undefined, { offer })
    await waitFor(() => expect(figure('interest')).toBe('₱168.00 (after a ₱42.00 discount)'))
  })

  it('a referral reward is named under the finance charges, already counted in the discount it made', async () => {
    const base = offerOf(500_000, 21)
    const offer = {
      ...base,
      interest: { amount: 20_000 },
      discount: { interest: { amount: 1_000 }, serviceFee: { amount: 0 } },
      total: { amount: base.total.amount - 1_000 },
      referralReward: { amount: 1_000 },
    }
    renderSummary(undefined, { offer })
    await waitFor(() => expect(figure('referral-reward')).toBe('−₱10.00'))
    expect(screen.getByText('Of the discounts above, your referral reward')).toBeTruthy()
    expect(figure('interest')).toBe('₱200.00 (after a ₱10.00 discount)')
    expect(figure('total')).toBe('₱5,240.00')
  })

  it('no referral reward, no such line', async () => {
    renderSummary()
    await waitFor(() => expect(figure('principal')).toBe('₱5,000.00'))
    expect(document.querySelector('[data-figure="referral-reward"]')).toBeNull()
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

  it('asks for the code: the agreement call without a code, then offers a new one after the countdown', async () => {
    const nextCodeAt = new Date(Date.now() + 60_000).toISOString()
    const { post } = renderSummary(() => ({ sent: true, nextCodeAt }))
    fireEvent.click(await screen.findByRole('button', { name: 'Send me the code' }))
    const sent = await screen.findByText('We sent a 3-digit code to your mobile phone.')
    expect(sent.closest('[role="status"]')).toBeTruthy()
    expect(post.mock.calls.filter(([path]) => path !== RENDER)).toEqual([
      ['/private/client/application/agreement/42', {}],
    ])
    const again = screen.getByRole('button', { name: 'Send a new code' }) as HTMLButtonElement
    expect(again.disabled).toBe(true)
    expect(screen.getByText(/^You can ask for a new code in (60|59) s\.$/)).toBeTruthy()
  })

  it('a signing code asked for within a minute of the sign-up SMS (429) counts down instead of "Something went wrong"', async () => {
    renderSummary(() => {
      throw new ApiError(429, '/web/x', 'codeMinuteLimit', 'Please wait a minute', [], 37)
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Send me the code' }))
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-error-key')).toBe('codeMinuteLimit')
    expect(alert.textContent).not.toContain('Something went wrong')
    expect(screen.getByText(/^You can ask for a new code in 3[67] s\.$/)).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Send me the code' }) as HTMLButtonElement).disabled).toBe(
      true,
    )
  })

  it('the day limit says so, and other failures keep their own text', async () => {
    renderSummary(() => {
      throw new ApiError(429, '/web/x', 'codeDayLimit', 'Too many codes today', [], 3600)
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Send me the code' }))
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-error-key')).toBe('codeDayLimit')
    expect(alert.textContent).toContain('try again tomorrow')
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
    expect(signErrorKey(api('codeNotSent', 'Code not found by given identity'))).toBe('error-otp-code-unsent')
    expect(signErrorKey(api('codeIncorrect', 'Phone verification not passed'))).toBe(
      'error-verification-code',
    )
    expect(signErrorKey(api('validationError', 'x'))).toBe('error-verification-code')
    expect(signErrorKey(api('applicationNotSigning', 'x'))).toBe('applicationNotSigning')
  })
})
