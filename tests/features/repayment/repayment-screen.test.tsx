// @vitest-environment happy-dom
/**
 * /profile/repayment (issue 16 item 7): the form's rules (Pay in full or another amount between PHP 1 and today's
 * payoff, a channel), the payment intention it sends, the instructions it shows (the e-wallet's checkout link,
 * the bank transfer's virtual account), and the page updating itself with a toast when a payment posts.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import * as v from 'valibot'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { channelOf, fillStep } from '../../../domain/payments/channels'
import { ApiError } from '../../../src/api/client'
import { centavosOf, repaymentSchema } from '../../../src/features/repayment/repayment-form'
import { RepaymentScreen } from '../../../src/features/repayment/repayment-screen'
import { validateRepaymentSearch } from '../../../src/features/repayment/search'
import { type FakeCall, routedApi } from '../../support/fake-api'
import { activeLoan, Harness, INTENTION, LOAN, PAYMENTS, pageOf, paymentOf } from './harness'
import { scheduleInForce } from './schedule-fixtures'

const SCHEDULE = 'GET /private/client/loan/active/payment-schedule'

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

/** The intention the server answers for a body: the steps filled in as the server fills them. */
function intentionFor({ body }: FakeCall) {
  const { purpose, amount, channel } = body as { purpose: string; amount?: number; channel: 'gcash' }
  const chosen = channelOf(channel)
  // The server fills an instalment's amount with what to pay now (schedule-fixtures: ₱2,782.50).
  const total =
    purpose === 'full_repayment' ? 525_000 : purpose === 'instalment' ? 278_250 : (amount as number)
  return {
    id: 77,
    purpose,
    loanId: 9,
    amount: total,
    reference: '1234567897',
    virtualAccount: '88011234567897',
    channel,
    instructions: {
      code: chosen.code,
      name: chosen.name,
      kind: chosen.kind,
      posting: chosen.posting,
      steps: chosen.steps.map((step) =>
        fillStep(step, { reference: '1234567897', amount: 'PHP 5,250.00', virtualAccount: '88011234567897' }),
      ),
    },
    checkoutUrl: chosen.checkout ? '/sandbox/checkout/chg_abcdefgh12345678' : null,
    expiresAt: '2026-11-22T15:59:59.999Z',
    status: 'open',
  }
}

function renderPage({
  loan = activeLoan() as unknown,
  payments = [] as unknown[],
  intention = intentionFor as (call: FakeCall) => unknown,
  customAmount = false,
  instalment = false,
  schedule = null as unknown,
  pollMs,
}: {
  loan?: unknown
  payments?: unknown[]
  intention?: (call: FakeCall) => unknown
  customAmount?: boolean
  instalment?: boolean
  schedule?: unknown
  pollMs?: number
} = {}) {
  const state = { loan, payments }
  const fake = routedApi({
    [LOAN]: () => state.loan,
    [PAYMENTS]: () => pageOf(state.payments),
    [INTENTION]: intention,
    [SCHEDULE]: () => schedule,
  })
  render(
    <Harness api={fake.api}>
      <RepaymentScreen customAmount={customAmount} instalment={instalment} pollMs={pollMs} />
    </Harness>,
  )
  const intentions = () => fake.calls.filter((c) => c.method === 'POST').map((c) => c.body)
  return { ...fake, state, intentions }
}

const figure = (name: string) => document.querySelector(`[data-figure="${name}"] dd`)?.textContent
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Show me how to pay' }))

describe('<RepaymentScreen>', () => {
  it("shows the loan's number, payment reference and today's amount due", async () => {
    renderPage()
    await waitFor(() => expect(figure('amount-due')).toBe('₱5,250.00'))
    expect(figure('loan-number')).toBe('L00000009')
    expect(figure('payment-reference')).toBe('1234567897')
    expect(screen.getByRole('heading', { level: 1, name: 'Repay your loan' })).toBeTruthy()
  })

  it('Pay in full is the default; the payoff holds until 11:59 PM; a channel must be chosen', async () => {
    const { intentions } = renderPage()
    const full = (await screen.findByLabelText('Pay in full: ₱5,250.00')) as HTMLInputElement
    expect(full.checked).toBe(true)
    expect(screen.getByText(/holds until 11:59 PM today/)).toBeTruthy()
    expect(screen.queryByLabelText('Amount in pesos')).toBeNull()
    submit()
    const error = await screen.findByText('Choose how you want to pay.')
    expect(error.getAttribute('data-error-key')).toBe('error-channel-required')
    expect(intentions()).toEqual([])
  })

  it('every channel is a labelled radio, grouped by kind', async () => {
    renderPage()
    const group = await screen.findByRole('group', { name: 'How do you want to pay?' })
    for (const kind of ['Bank transfer', 'E-wallets', 'Payment centres'])
      expect(within(group).getByRole('group', { name: kind })).toBeTruthy()
    for (const name of ['GCash', 'Maya', 'ShopeePay', 'GrabPay', '7-Eleven (CLiQQ)', 'ECPay', 'Bayad Center'])
      expect(within(group).getByRole('radio', { name })).toBeTruthy()
    expect(within(group).getAllByRole('radio')).toHaveLength(10)
  })

  it('pays in full with GCash: the intention, then the link to the gateway checkout', async () => {
    const { intentions } = renderPage()
    fireEvent.click(await screen.findByRole('radio', { name: 'GCash' }))
    submit()
    const heading = await screen.findByRole('heading', { name: 'Pay ₱5,250.00 with GCash' })
    expect(intentions()).toEqual([{ purpose: 'full_repayment', channel: 'gcash' }])
    const link = screen.getByRole('link', { name: 'Continue to GCash' })
    expect(link.getAttribute('href')).toBe('/sandbox/checkout/chg_abcdefgh12345678')
    expect(document.activeElement).toBe(heading)
    expect(figure('payment-reference')).toBe('1234567897')
    // No virtual account for an e-wallet.
    expect(document.querySelector('[data-figure="virtual-account"]')).toBeNull()
    expect(screen.getByText(/enter your payment reference 1234567897/)).toBeTruthy()
    // Back to the form.
    fireEvent.click(screen.getByRole('button', { name: 'Choose another amount or channel' }))
    expect(await screen.findByRole('form', { name: 'Make a payment' })).toBeTruthy()
  })

  it('another amount in pesos: required, a number, at least ₱1, at most the payoff', async () => {
    const { intentions } = renderPage()
    fireEvent.click(await screen.findByRole('radio', { name: 'Another amount' }))
    fireEvent.click(screen.getByRole('radio', { name: '7-Eleven (CLiQQ)' }))
    const amount = screen.getByLabelText('Amount in pesos')
    const expectError = async (typed: string, key: string) => {
      fireEvent.change(amount, { target: { value: typed } })
      submit()
      await waitFor(() =>
        expect(document.querySelector('.field__error')?.getAttribute('data-error-key')).toBe(key),
      )
      expect(amount.getAttribute('aria-invalid')).toBe('true')
      return document.querySelector('.field__error')
    }
    await expectError('', 'error-amount-required')
    await expectError('12.345', 'error-amount-format')
    await expectError('abc', 'error-amount-format')
    await expectError('0.50', 'error-amount-min')
    const tooMuch = await expectError('5 250.01', 'error-amount-max')
    expect(tooMuch?.textContent).toContain('₱5,250.00')
    expect(intentions()).toEqual([])

    fireEvent.change(amount, { target: { value: '1,500.50' } })
    submit()
    await screen.findByRole('heading', { name: 'Pay ₱1,500.50 with 7-Eleven (CLiQQ)' })
    expect(intentions()).toEqual([{ purpose: 'custom_amount', amount: 150_050, channel: 'seven_eleven' }])
    // A counter: no checkout, the steps with the reference.
    expect(screen.queryByRole('link', { name: /Continue to/ })).toBeNull()
    expect(
      screen.getByText('Give your payment reference 1234567897 and the amount PHP 5,250.00.'),
    ).toBeTruthy()
    // Another amount holds no quote.
    expect(screen.queryByText('This amount holds until 11:59 PM today.')).toBeNull()
  })

  it('bank transfer: the client’s own virtual account', async () => {
    renderPage()
    fireEvent.click(await screen.findByRole('radio', { name: 'Bank transfer (InstaPay / PESONet)' }))
    submit()
    await screen.findByRole('heading', { name: 'Pay ₱5,250.00 with Bank transfer (InstaPay / PESONet)' })
    expect(figure('virtual-account')).toBe('88011234567897')
    expect(screen.getByText(/Send to your own virtual account 88011234567897/)).toBeTruthy()
  })

  it('"Pay another amount" (?amount=custom) starts on another amount with its field focused', async () => {
    renderPage({ customAmount: true })
    const amount = await screen.findByLabelText('Amount in pesos')
    expect((screen.getByRole('radio', { name: 'Another amount' }) as HTMLInputElement).checked).toBe(true)
    await waitFor(() => expect(document.activeElement).toBe(amount))
  })

  it('a loan on a schedule: what to pay now is offered and chosen; its intention names no amount', async () => {
    const { intentions, calls } = renderPage({
      loan: activeLoan({ plan: 'scheduled' }),
      schedule: scheduleInForce(),
    })
    const now = (await screen.findByRole('radio', { name: 'What to pay now: ₱2,782.50' })) as HTMLInputElement
    expect(now.checked).toBe(true)
    // Pay in full and another amount stay available.
    expect(screen.getByRole('radio', { name: 'Pay in full: ₱5,250.00' })).toBeTruthy()
    expect(screen.getByRole('radio', { name: 'Another amount' })).toBeTruthy()
    expect(screen.queryByLabelText('Amount in pesos')).toBeNull()
    fireEvent.click(screen.getByRole('radio', { name: 'GCash' }))
    submit()
    await screen.findByRole('heading', { name: 'Pay ₱2,782.50 with GCash' })
    expect(intentions()).toEqual([{ purpose: 'instalment', channel: 'gcash' }])
    expect(screen.getByRole('link', { name: 'Continue to GCash' })).toBeTruthy()
    expect(calls.some((c) => `${c.method} ${c.path}` === SCHEDULE)).toBe(true)
  })

  it('"Pay … now" on My loan (?purpose=instalment) starts on what to pay now', async () => {
    renderPage({ loan: activeLoan({ plan: 'scheduled' }), schedule: scheduleInForce(), instalment: true })
    const now = (await screen.findByRole('radio', { name: 'What to pay now: ₱2,782.50' })) as HTMLInputElement
    expect(now.checked).toBe(true)
  })

  it('a loan on its contract terms: no schedule asked for, no third choice', async () => {
    const { calls } = renderPage()
    await screen.findByRole('radio', { name: 'Pay in full: ₱5,250.00' })
    expect(screen.queryByRole('radio', { name: /What to pay now/ })).toBeNull()
    expect(calls.some((c) => `${c.method} ${c.path}` === SCHEDULE)).toBe(false)
  })

  it("a server violation lands on its field; another refusal is the form's error", async () => {
    let refusal: ApiError = new ApiError(422, '/web/x', 'validationError', 'Invalid', [
      { propertyPath: 'amount', message: 'The amount is too large.' },
    ])
    renderPage({
      intention: () => {
        throw refusal
      },
    })
    fireEvent.click(await screen.findByRole('radio', { name: 'Another amount' }))
    fireEvent.click(screen.getByRole('radio', { name: 'Maya' }))
    fireEvent.change(screen.getByLabelText('Amount in pesos'), { target: { value: '100' } })
    submit()
    expect(await screen.findByText('The amount is too large.')).toBeTruthy()
    refusal = new ApiError(409, '/web/x', 'loanNotActive', 'No active loan', [])
    submit()
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-error-key')).toBe('loanNotActive')
  })

  it('updates by itself when a payment posts: a toast, the new amount due', async () => {
    const { state } = renderPage({ pollMs: 50 })
    await waitFor(() => expect(figure('amount-due')).toBe('₱5,250.00'))
    // The watch's baseline is in; then a payment of ₱2,250 posts at 7-Eleven.
    await new Promise((resolve) => setTimeout(resolve, 120))
    state.payments = [paymentOf(31, 225_000, { fees: 4_000, interest: 21_000, principal: 200_000 })]
    state.loan = activeLoan({ parts: { principal: 300_000, interest: 0, fees: 0, penalties: 0 } })
    expect(await screen.findByText('Payment of ₱2,250.00 received')).toBeTruthy()
    await waitFor(() => expect(figure('amount-due')).toBe('₱3,000.00'))
    expect(screen.getByLabelText('Pay in full: ₱3,000.00')).toBeTruthy()
  })

  it('a loan repaid while the page is open: a thank-you and a way on, no form', async () => {
    const { state } = renderPage({ pollMs: 50 })
    await waitFor(() => expect(figure('amount-due')).toBe('₱5,250.00'))
    await new Promise((resolve) => setTimeout(resolve, 120))
    state.payments = [paymentOf(32, 525_000, { principal: 500_000, interest: 21_000, fees: 4_000 })]
    state.loan = null
    expect(await screen.findByText('Payment of ₱5,250.00 received')).toBeTruthy()
    expect(await screen.findByText('Your loan is fully paid. Thank you!')).toBeTruthy()
    expect(screen.queryByRole('form', { name: 'Make a payment' })).toBeNull()
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/profile/my-loan')
  })

  it('no loan: says so', async () => {
    renderPage({ loan: null })
    expect(await screen.findByText('You have no loan to repay right now.')).toBeTruthy()
  })
})

describe('the repayment schema', () => {
  const schema = repaymentSchema(525_000)
  const parse = (input: Record<string, string>) => v.safeParse(schema, input)

  it('is the intention body', () => {
    expect(parse({ what: 'full', amount: 'ignored', channel: 'gcash' }).output).toEqual({
      purpose: 'full_repayment',
      channel: 'gcash',
    })
    expect(parse({ what: 'custom', amount: '5 250', channel: 'ecpay' }).output).toEqual({
      purpose: 'custom_amount',
      amount: 525_000,
      channel: 'ecpay',
    })
    expect(parse({ what: 'custom', amount: '1', channel: 'bayad' }).success).toBe(true)
    expect(parse({ what: 'full', amount: '', channel: 'coins_ph' }).success).toBe(false)
  })

  it('reads pesos as people type them', () => {
    expect(centavosOf('1500')).toBe(150_000)
    expect(centavosOf('1 500.5')).toBe(150_050)
    expect(centavosOf('1,500.50')).toBe(150_050)
    expect(centavosOf('₱ 20')).toBe(2_000)
    expect(centavosOf('1,2,3')).toBeNull()
    expect(centavosOf('-5')).toBeNull()
    expect(centavosOf('1.005')).toBeNull()
  })

  it('?amount=custom only; anything else is ignored', () => {
    expect(validateRepaymentSearch({ amount: 'custom' })).toEqual({ amount: 'custom' })
    expect(validateRepaymentSearch({ amount: 'all' })).toEqual({})
    expect(validateRepaymentSearch({})).toEqual({})
    expect(validateRepaymentSearch({ purpose: 'instalment' })).toEqual({ purpose: 'instalment' })
    expect(validateRepaymentSearch({ purpose: 'instalment', amount: 'custom' })).toEqual({
      amount: 'custom',
      purpose: 'instalment',
    })
    expect(validateRepaymentSearch({ purpose: 'extension_fee' })).toEqual({})
  })
})
