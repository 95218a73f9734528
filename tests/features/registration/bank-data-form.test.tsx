// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/api/client'
import { BankDataForm } from '../../../src/features/registration/bank-data-form'
import { expectErrorKey, renderWithApp, scriptedApi, submit, type } from './harness'

afterEach(cleanup)

const sandboxBanks = [
  { code: 'sandbox-bdo', name: 'BDO Unibank (sandbox)' },
  { code: 'sandbox-bpi', name: 'BPI (sandbox)' },
]
const state = (failedLogins = 0) => ({ banks: sandboxBanks, bank: null, failedLogins, maxFailedLogins: 5 })
const link = () => submit(/link bank/i)

async function fill(login: string, password: string) {
  const bank = (await screen.findByLabelText(/^bank$/i)) as HTMLSelectElement
  fireEvent.change(bank, { target: { value: 'sandbox-bpi' } })
  type(/user name/i, login)
  type(/password/i, password)
}

describe('<BankDataForm>', () => {
  it('requires a bank and credentials, and explains the sandbox test data for sandbox banks', async () => {
    const { api, calls } = scriptedApi({ 'GET /private/client/kontomatik': state() })
    renderWithApp(api, <BankDataForm />)
    await screen.findByText(/sandbox test data/i)
    link()
    await expectErrorKey(/^bank$/i, 'error-required')
    await expectErrorKey(/user name/i, 'error-required')
    await expectErrorKey(/password/i, 'error-required')
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
  })

  it('links a bank and lets the journey move on', async () => {
    const { api, calls } = scriptedApi({
      'GET /private/client/kontomatik': state(),
      'POST /private/client/kontomatik/import': { bank: 'sandbox-bpi', summary: {}, flow: {} },
    })
    const { journey } = renderWithApp(api, <BankDataForm />)
    await fill('sandbox', 'sandbox')
    link()
    await waitFor(() => expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/private/client/kontomatik/import',
      body: { bank: 'sandbox-bpi', login: 'sandbox', password: 'sandbox' },
    })
  })

  it('shows InvalidCredentials on the password and the failed-login count; ServiceTemporarilyUnavailable as a form error', async () => {
    let failed = 0
    let unavailable = false
    const { api } = scriptedApi({
      'GET /private/client/kontomatik': () => state(failed),
      'POST /private/client/kontomatik/import': () => {
        if (unavailable)
          throw new ApiError(
            503,
            '/web/private/client/kontomatik/import',
            'ServiceTemporarilyUnavailable',
            '',
            [],
          )
        failed += 1
        throw new ApiError(422, '/web/private/client/kontomatik/import', 'InvalidCredentials', '', [
          { propertyPath: 'password', message: 'error-invalid-credentials' },
        ])
      },
    })
    const { journey } = renderWithApp(api, <BankDataForm />)
    await fill('juan', 'wrong')
    link()
    await expectErrorKey(/password/i, 'error-invalid-credentials')
    await screen.findByText('Failed sign-ins: 1 of 5')
    unavailable = true
    type(/password/i, 'again')
    link()
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-error-key')).toBe('ServiceTemporarilyUnavailable')
    expect(journey.actor.send).not.toHaveBeenCalled()
  })

  it('skips linking, and only offers skipping after too many failed logins', async () => {
    const { api, calls } = scriptedApi({
      'GET /private/client/kontomatik': state(5),
      'POST /private/client/kontomatik/skip': { flow: {} },
    })
    const { journey } = renderWithApp(api, <BankDataForm />)
    await screen.findByText(/too many failed sign-ins/i)
    expect(screen.queryByLabelText(/password/i)).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: /continue without linking/i }))
    await waitFor(() => expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(calls.some((c) => c.method === 'POST' && c.path === '/private/client/kontomatik/skip')).toBe(true)
  })
})
