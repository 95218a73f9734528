// @vitest-environment happy-dom
/**
 * Issue 13, item 9 on the payment page: after registration the server refuses a payout change with
 * 422 payoutCodeRequired; the page then asks for the SMS code (send, countdown from the server's nextCodeAt),
 * and sends the same change again with it.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/api/client'
import { PaymentForm } from '../../../src/features/registration/payment-form'
import { expectErrorKey, renderWithApp, scriptedApi, submit, type } from './harness'

afterEach(cleanup)

const entry = (id: number, selected: boolean, accountNumber = `00123456789${id}`) => ({
  id,
  type: 'bank_transfer',
  bankId: 3,
  bankName: 'BDO Unibank',
  accountNumber,
  provider: null,
  selected,
})
const codeRequired = (path: string) =>
  new ApiError(422, `/web${path}`, 'payoutCodeRequired', 'Needs the code', [
    { propertyPath: 'code', message: 'payoutCodeRequired' },
  ])
const wrongCode = (path: string) =>
  new ApiError(422, `/web${path}`, 'codeIncorrect', 'Phone verification not passed', [
    { propertyPath: 'code', message: 'Phone verification not passed' },
  ])

describe('<PaymentForm> after registration', () => {
  it('selecting another account asks for the SMS code, counts down from the server, and sends the code', async () => {
    const nextCodeAt = new Date(Date.now() + 60_000).toISOString()
    let tries = 0
    const { api, calls } = scriptedApi({
      'GET /private/client/disbursement-type': [entry(1, true), entry(2, false)],
      'POST /private/client/disbursement-type/send-code': { sent: true, nextCodeAt },
      'PUT /private/client/disbursement-type/select/2': (body: { code?: string } | undefined) => {
        tries++
        if (!body?.code) throw codeRequired('/private/client/disbursement-type/select/2')
        if (body.code !== '123') throw wrongCode('/private/client/disbursement-type/select/2')
        return { entries: [entry(1, false), entry(2, true)] }
      },
    })
    renderWithApp(api, <PaymentForm />)
    fireEvent.click(await screen.findByRole('button', { name: /use this account.*7892/i }))
    const heading = await screen.findByRole('heading', { name: 'Confirm the new payout account' })
    expect(heading).toBeTruthy()
    expect(screen.getByText('Bank transfer · BDO Unibank · 001234567892')).toBeTruthy()
    // The form for a new account is replaced by the code step while it is open.
    expect(screen.queryByRole('button', { name: /save payout account/i })).toBeNull()

    fireEvent.click(screen.getByRole('button', { name: 'Send me the code' }))
    await screen.findByText('We sent the code to your mobile number.')
    const again = await screen.findByRole('button', { name: /send a new code/i })
    expect((again as HTMLButtonElement).disabled).toBe(true)
    const wait = document.getElementById(again.getAttribute('aria-describedby') ?? '')
    expect(Number(wait?.getAttribute('data-seconds-left'))).toBeGreaterThan(50)

    type('Code from the SMS', '999')
    submit('Confirm the change')
    await expectErrorKey('Code from the SMS', 'Phone verification not passed')
    expect(screen.getByText('That code is not right. Check the SMS and try again.')).toBeTruthy()

    type('Code from the SMS', '123')
    submit('Confirm the change')
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Confirm the new payout account' })).toBeNull(),
    )
    expect(tries).toBe(3)
    // The first try has no code: the body the contract declares, empty.
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      {},
      { code: '999' },
      { code: '123' },
    ])
  })

  it('a new account refused for the code is sent again, same body, with the code; Cancel leaves it', async () => {
    const { api, calls } = scriptedApi({
      'GET /private/client/disbursement-type': [entry(1, true)],
      'POST /private/client/disbursement-type/send-code': { sent: true },
      'POST /private/client/disbursement-type': (body: { code?: string }) => {
        if (!body.code) throw codeRequired('/private/client/disbursement-type')
        return { entry: entry(5, true) }
      },
    })
    renderWithApp(api, <PaymentForm />)
    fireEvent.click(await screen.findByLabelText('Cash pickup'))
    fireEvent.click(screen.getByLabelText('M Lhuillier'))
    submit(/save payout account/i)
    await screen.findByText('Cash pickup · M Lhuillier')
    submit('Cancel')
    await screen.findByRole('button', { name: /save payout account/i })

    fireEvent.click(screen.getByLabelText('Cash pickup'))
    fireEvent.click(screen.getByLabelText('Cebuana Lhuillier'))
    submit(/save payout account/i)
    await screen.findByLabelText('Code from the SMS')
    type('Code from the SMS', '456')
    submit('Confirm the change')
    await screen.findByRole('button', { name: /save payout account/i })
    const posts = calls.filter((c) => c.method === 'POST' && c.path === '/private/client/disbursement-type')
    expect(posts.map((c) => c.body)).toEqual([
      { type: 'cash_pickup', provider: 'm_lhuillier' },
      { type: 'cash_pickup', provider: 'cebuana' },
      { type: 'cash_pickup', provider: 'cebuana', code: '456' },
    ])
  })
})
