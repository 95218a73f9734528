// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PaymentForm } from '../../../src/features/registration/payment-form'
import { expectErrorKey, renderWithApp, scriptedApi, submit, type, violation } from './harness'

afterEach(cleanup)

const banks = [
  { id: 3, code: 'bdo', name: 'BDO Unibank', parent: 'bank_account' },
  { id: 4, code: 'bpi', name: 'BPI', parent: 'bank_account' },
]
const wallets = [{ id: 9, code: 'gcash', name: 'GCash', parent: 'e-wallet' }]
const lists = {
  'GET /public/list': (_: unknown, options?: { query?: Record<string, unknown> }) =>
    options?.query?.parent === 'e-wallet' ? wallets : banks,
}
const entry = (id: number, selected: boolean) => ({
  id,
  type: 'bank_transfer',
  bankId: 3,
  bankName: 'BDO Unibank',
  accountNumber: `00123456789${id}`,
  provider: null,
  selected,
})

const save = () => submit(/save payout account/i)

async function chooseBank(name: string) {
  await waitFor(() => expect(screen.getByRole('option', { name })).toBeTruthy())
  fireEvent.change(screen.getByRole('combobox', { name: /^(bank|e-wallet)$/i }), {
    target: { value: (screen.getByRole('option', { name }) as HTMLOptionElement).value },
  })
}

describe('<PaymentForm>', () => {
  it('shows the spec errors per payout type before sending anything', async () => {
    const { api, calls } = scriptedApi({ 'GET /private/client/disbursement-type': [], ...lists })
    renderWithApp(api, <PaymentForm />)
    save()
    await waitFor(() => expect(screen.getByText('This field is required.')).toBeTruthy())
    fireEvent.click(screen.getByLabelText('Bank transfer'))
    await chooseBank('BDO Unibank')
    type(/account number/i, '12345')
    save()
    await expectErrorKey(/account number/i, 'Disbursement number is not valid.')
    fireEvent.click(screen.getByLabelText('E-wallet'))
    type(/e-wallet mobile number/i, '0917123')
    save()
    await expectErrorKey(/e-wallet mobile number/i, 'error-incorrect-ewallet')
    expect(calls.some((c) => c.method !== 'GET')).toBe(false)
  })

  it('sends a bank transfer with the bank id as a number and the digits of the account', async () => {
    const { api, calls } = scriptedApi({
      'GET /private/client/disbursement-type': [],
      ...lists,
      'POST /private/client/disbursement-type': { entry: entry(1, true) },
    })
    renderWithApp(api, <PaymentForm />)
    fireEvent.click(screen.getByLabelText('Bank transfer'))
    await chooseBank('BPI')
    type(/account number/i, '0012-3456-7890')
    save()
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true))
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/private/client/disbursement-type',
      body: { type: 'bank_transfer', bankId: 4, accountNumber: '001234567890' },
    })
  })

  it('sends cash pickup with its provider only', async () => {
    const { api, calls } = scriptedApi({
      'GET /private/client/disbursement-type': [],
      'POST /private/client/disbursement-type': { entry: {} },
    })
    renderWithApp(api, <PaymentForm />)
    fireEvent.click(screen.getByLabelText('Cash pickup'))
    fireEvent.click(screen.getByLabelText('M Lhuillier'))
    save()
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true))
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      type: 'cash_pickup',
      provider: 'm_lhuillier',
    })
  })

  it('puts uniqueCashCard from the server on the card number', async () => {
    const { api } = scriptedApi({
      'GET /private/client/disbursement-type': [],
      'POST /private/client/disbursement-type': () => {
        throw violation('/private/client/disbursement-type', {
          propertyPath: 'accountNumber',
          message: 'uniqueCashCard',
        })
      },
    })
    renderWithApp(api, <PaymentForm />)
    fireEvent.click(screen.getByLabelText('Cash card'))
    type(/cash card number/i, 'ABCD1234EFGH5678')
    save()
    await expectErrorKey(/cash card number/i, 'uniqueCashCard')
  })

  it('lists saved accounts, selects one, and finishes registration with PUT /finish', async () => {
    const { api, calls } = scriptedApi({
      'GET /private/client/disbursement-type': [entry(1, true), entry(2, false)],
      'PUT /private/client/disbursement-type/select/2': { entries: [entry(1, false), entry(2, true)] },
      'PUT /private/client/finish': { flow: { step: 'no_loan_page', status: 'active' } },
    })
    const { journey } = renderWithApp(api, <PaymentForm />)
    fireEvent.click(await screen.findByRole('button', { name: /use this account.*001234567892/i }))
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: /use this account.*001234567892/i })).toBeNull(),
    )
    fireEvent.click(screen.getByRole('button', { name: /finish registration/i }))
    await waitFor(() => expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.path)).toEqual([
      '/private/client/disbursement-type/select/2',
      '/private/client/finish',
    ])
  })
})
