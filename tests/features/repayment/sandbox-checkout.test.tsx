// @vitest-environment happy-dom
/**
 * /sandbox/checkout/{id} (issue 16 item 5): the sandbox gateway's hosted page shows the merchant, amount,
 * reference and channel under a notice that no money moves; Pay and Fail payment post the outcome, and the page
 * then says what happened with a link back to Hiram (the charge's returnPath). An unknown id is the 404 page.
 */
import { isNotFound } from '@tanstack/react-router'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../src/api/client'
import { loadCheckout } from '../../../src/features/repayment/checkout-loader'
import { SandboxCheckoutPage, sitePath } from '../../../src/features/repayment/sandbox-checkout-page'
import { routedApi } from '../../support/fake-api'
import { Harness } from './harness'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const ID = 'chg_abcdefgh12345678'
const PATH = `/public/sandbox/checkout/${ID}`

const charge = (status = 'pending') => ({
  id: ID,
  merchant: 'Hiram',
  amount: 525_000,
  reference: '1234567897',
  channel: 'gcash',
  channelName: 'GCash',
  status,
  returnPath: '/profile/my-loan',
})

function fakeGateway(routes: Record<string, unknown> = {}) {
  return routedApi({
    [`GET ${PATH}`]: charge(),
    [`POST ${PATH}`]: ({ body }: { body?: unknown }) =>
      charge((body as { outcome: string }).outcome === 'pay' ? 'paid' : 'failed'),
    ...routes,
  })
}

/** The page as the route renders it: with the charge its loader read. */
async function renderCheckout(routes: Record<string, unknown> = {}) {
  const fake = fakeGateway(routes)
  const { checkout } = await loadCheckout(fake.api, ID)
  render(
    <Harness api={fake.api} session="visitor">
      <SandboxCheckoutPage checkout={checkout} />
    </Harness>,
  )
  return fake
}

const figure = (name: string) => document.querySelector(`[data-figure="${name}"] dd`)?.textContent

describe('<SandboxCheckoutPage>', () => {
  it('says it is a sandbox page, and shows merchant, amount, reference and channel', async () => {
    await renderCheckout()
    await waitFor(() => expect(figure('amount')).toBe('₱5,250.00'))
    const notice = screen.getByRole('note', { name: 'Sandbox: no money moves' })
    expect(notice.textContent).toContain('no money moves')
    expect(figure('merchant')).toBe('Hiram')
    expect(figure('reference')).toBe('1234567897')
    expect(figure('channel')).toBe('GCash')
    expect(figure('status')).toBe('Waiting for payment')
    expect(screen.getByRole('heading', { level: 1, name: 'Sandbox checkout' })).toBeTruthy()
  })

  it('Pay posts the outcome, says it worked and links back to Hiram', async () => {
    const { calls } = await renderCheckout()
    fireEvent.click(await screen.findByRole('button', { name: 'Pay' }))
    expect(await screen.findByText(/Payment successful/)).toBeTruthy()
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ outcome: 'pay' }])
    expect(figure('status')).toBe('Paid')
    expect(screen.getByRole('link', { name: 'Back to Hiram' }).getAttribute('href')).toBe('/profile/my-loan')
    expect(screen.queryByRole('button', { name: 'Pay' })).toBeNull()
  })

  it('Fail payment posts fail and says no money was taken', async () => {
    const { calls } = await renderCheckout()
    fireEvent.click(await screen.findByRole('button', { name: 'Fail payment' }))
    expect(await screen.findByText('The payment failed. No money was taken.')).toBeTruthy()
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ outcome: 'fail' }])
  })

  it('a charge already settled shows its outcome, without the buttons', async () => {
    await renderCheckout({ [`GET ${PATH}`]: charge('paid') })
    expect(await screen.findByText(/Payment successful/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Fail payment' })).toBeNull()
  })

  it('an id the gateway does not know is the 404 page; a malformed one is not even asked', async () => {
    const unknown = fakeGateway({
      [`GET ${PATH}`]: () => {
        throw new ApiError(404, `/web${PATH}`, 'checkoutNotFound', 'Not found', [])
      },
    })
    expect(isNotFound(await loadCheckout(unknown.api, ID).catch((e: unknown) => e))).toBe(true)
    const malformed = fakeGateway()
    expect(isNotFound(await loadCheckout(malformed.api, 'not-a-charge').catch((e: unknown) => e))).toBe(true)
    expect(malformed.calls).toEqual([])
  })

  it('another failure is not a 404: the app shows it as it shows any failure', async () => {
    const failing = fakeGateway({
      [`GET ${PATH}`]: () => {
        throw new ApiError(503, `/web${PATH}`, 'error', 'Unavailable', [])
      },
    })
    const error = await loadCheckout(failing.api, ID).catch((e: unknown) => e)
    expect(isNotFound(error)).toBe(false)
    expect((error as ApiError).status).toBe(503)
  })

  it('a refused outcome says so and keeps the buttons', async () => {
    await renderCheckout({
      [`POST ${PATH}`]: () => {
        throw new ApiError(409, `/web${PATH}`, 'checkoutSettled', 'Already settled', [])
      },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Pay' }))
    expect((await screen.findByRole('alert')).textContent).toContain('could not take this')
    expect(screen.getByRole('button', { name: 'Pay' })).toBeTruthy()
  })

  it('goes back only to a path of this site', () => {
    expect(sitePath('/profile/repayment')).toBe('/profile/repayment')
    expect(sitePath('//evil.example')).toBe('/')
    expect(sitePath('/\\evil.example')).toBe('/')
    expect(sitePath('https://evil.example')).toBe('/')
  })
})
