// @vitest-environment happy-dom
/**
 * The repay pages (issue 16 item 4): the channels come from the reference data (domain/payments/channels.ts);
 * a logged-in client reads their own payment reference and today's amount due, filled into the steps, and gets
 * "Pay now" on an e-wallet's page (a payment intention, then the gateway's checkout); a visitor, an admin or a
 * client without a loan reads the generic wording.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { paymentChannels } from '../../../domain/payments/channels'
import { BankTransferPage } from '../../../src/features/repay/bank-transfer-page'
import { ChannelPage } from '../../../src/features/repay/channel-page'
import { findChannel, introOf, repayChannels } from '../../../src/features/repay/channels'
import { RepayPage } from '../../../src/features/repay/repay-page'
import { routedApi } from '../../support/fake-api'
import { messages } from '../../support/messages'
import { activeLoan, Harness, INTENTION, LOAN, type SessionKind } from './harness'

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
    const path = to.replace(/\$(\w+)/g, (_, name: string) => params?.[name] ?? '')
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

const gcash = findChannel('ewallet', 'gcash')!
const sevenEleven = findChannel('payment-center', '7-eleven')!

function renderPage(
  page: ReactNode,
  { session = 'client' as SessionKind, loan = activeLoan() as unknown } = {},
) {
  const fake = routedApi({
    [LOAN]: loan,
    [INTENTION]: ({ body }: { body?: unknown }) => ({
      id: 5,
      purpose: 'full_repayment',
      loanId: 9,
      amount: 525_000,
      reference: '1234567897',
      virtualAccount: '88011234567897',
      channel: (body as { channel: string }).channel,
      instructions: null,
      checkoutUrl: '/sandbox/checkout/chg_abcdefgh12345678',
      expiresAt: '2026-11-22T15:59:59.999Z',
      status: 'open',
    }),
  })
  render(
    <Harness api={fake.api} session={session}>
      {page}
    </Harness>,
  )
  return fake
}

const figure = (name: string) => document.querySelector(`[data-figure="${name}"] dd`)?.textContent
const steps = () => [...document.querySelectorAll('.steps__item')].map((li) => li.textContent)

describe('the channels', () => {
  it('are the reference data’s e-wallets and payment centres, each with its intro', () => {
    expect(repayChannels.map((c) => `${c.kind}/${c.slug}`)).toEqual([
      'ewallet/gcash',
      'ewallet/maya',
      'ewallet/shopeepay',
      'ewallet/grabpay',
      'payment-center/7-eleven',
      'payment-center/cebuana-lhuillier',
      'payment-center/m-lhuillier',
      'payment-center/bayad-center',
      'payment-center/ecpay',
    ])
    for (const channel of paymentChannels.filter((c) => c.kind !== 'bank'))
      expect(introOf(messages.repay, channel.slug), channel.slug).not.toBe('')
    expect(Object.keys(messages.repay.channels).sort()).toEqual(repayChannels.map((c) => c.slug).sort())
  })

  it('the channels Hiram does not collect through have no page', () => {
    for (const slug of ['coins-ph', 'palawan-express', 'sm-bills-payment'])
      expect(findChannel('ewallet', slug) ?? findChannel('payment-center', slug)).toBeUndefined()
    expect(findChannel('payment-center', 'gcash')).toBeUndefined()
  })

  it('the pages say payment reference, never loan number', () => {
    expect(JSON.stringify(messages.repay)).not.toMatch(/loan number as|your loan number/i)
  })
})

describe('a visitor', () => {
  it('reads the generic steps and is asked to log in to pay now; nothing is asked of the API', async () => {
    const { calls } = renderPage(<ChannelPage channel={gcash} />, { session: 'visitor' })
    expect(screen.getByRole('heading', { level: 1, name: 'Repay with GCash' })).toBeTruthy()
    expect(steps()).toContain(
      'Or, in the GCash app, open Pay Bills, choose Loans and the biller Hiram Lending, and enter your payment reference (the 10 digits in My loan and in your payout SMS) and the amount (what you want to pay).',
    )
    const logIn = screen.getByRole('link', { name: 'Log in to pay now' })
    expect(logIn.getAttribute('href')).toBe('/login?redirect=%2Frepay%2Fewallets%2Fgcash')
    expect(screen.queryByRole('button', { name: 'Pay now' })).toBeNull()
    expect(document.querySelector('[data-figure="payment-reference"]')).toBeNull()
    expect(calls).toEqual([])
  })

  it('the bank transfer page explains the virtual account without one', () => {
    renderPage(<BankTransferPage />, { session: 'visitor' })
    expect(figure('account-number')).toBe('8801 followed by your 10-digit payment reference')
    expect(steps()[2]).toBe(
      'Send to your own virtual account (8801 and your payment reference), account name Hiram Lending Corporation.',
    )
  })
})

describe('a logged-in client with a loan', () => {
  it('reads their payment reference and amount due, filled into the steps', async () => {
    renderPage(<ChannelPage channel={sevenEleven} />)
    await waitFor(() => expect(figure('payment-reference')).toContain('1234567897'))
    expect(figure('amount-due')).toBe('₱5,250.00')
    expect(steps()).toContain('Give your payment reference 1234567897 and the amount ₱5,250.00.')
    // A payment centre has no checkout.
    expect(screen.queryByRole('button', { name: 'Pay now' })).toBeNull()
    expect(screen.getByRole('link', { name: 'Pay from your profile' }).getAttribute('href')).toBe(
      '/profile/repayment',
    )
  })

  it('Pay now on an e-wallet: a full-repayment intention for that channel, then the checkout link', async () => {
    const { calls } = renderPage(<ChannelPage channel={gcash} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Pay now' }))
    const link = await screen.findByRole('link', { name: 'Continue to GCash' })
    expect(link.getAttribute('href')).toBe('/sandbox/checkout/chg_abcdefgh12345678')
    expect(document.activeElement).toBe(link)
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { purpose: 'full_repayment', channel: 'gcash' },
    ])
  })

  it('the bank transfer page gives their own virtual account', async () => {
    renderPage(<BankTransferPage />)
    await waitFor(() => expect(figure('account-number')).toContain('88011234567897'))
    expect(steps()[2]).toBe(
      'Send to your own virtual account 88011234567897, account name Hiram Lending Corporation.',
    )
    expect(steps()[3]).toContain('₱5,250.00')
  })

  it('/repay shows their details first', async () => {
    renderPage(<RepayPage />)
    await waitFor(() => expect(figure('payment-reference')).toContain('1234567897'))
    expect(screen.getByRole('heading', { name: 'Your payment details' })).toBeTruthy()
  })
})

describe('other sessions', () => {
  it('a client without a loan reads the generic steps and that there is nothing to repay', async () => {
    renderPage(<ChannelPage channel={gcash} />, { loan: null })
    expect(await screen.findByText('You have no loan to repay right now.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Pay now' })).toBeNull()
    expect(steps().join(' ')).toContain('enter your payment reference (the 10 digits in My loan')
  })

  it('an admin is not a client: no loan calls (a 403 would log them out)', () => {
    const { calls } = renderPage(<ChannelPage channel={gcash} />, { session: 'admin' })
    expect(calls).toEqual([])
    expect(screen.queryByRole('button', { name: 'Pay now' })).toBeNull()
  })
})
