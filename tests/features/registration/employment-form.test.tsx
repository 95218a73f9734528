// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { EmploymentForm, EmploymentPage } from '../../../src/features/registration/employment-form'
import { expectErrorKey, renderWithApp, scriptedApi, submit, type, violation } from './harness'

afterEach(cleanup)

const chooseType = (value: string) =>
  fireEvent.change(screen.getByLabelText(/employment type/i), { target: { value } })

describe('<EmploymentForm>', () => {
  it('refuses a leading zero, a short finance amount and a missing company', async () => {
    const { api, calls } = scriptedApi({})
    renderWithApp(api, <EmploymentForm />)
    chooseType('employed_private')
    type(/monthly income/i, '0500')
    type(/monthly expenses/i, '120')
    submit()
    await expectErrorKey(/company/i, 'error-required')
    await expectErrorKey(/monthly income/i, 'error-invalid-finance')
    await expectErrorKey(/monthly expenses/i, 'error-invalid-finance')
    expect(calls).toEqual([])
  })

  it('hides the company for a student and sends pesos as the text the server schema reads to PUT /complete-step-two', async () => {
    const { api, calls } = scriptedApi({ 'PUT /private/client/complete-step-two': { flow: {} } })
    const { journey } = renderWithApp(api, <EmploymentForm />)
    chooseType('employed_private')
    expect(screen.getByLabelText(/company/i)).toBeTruthy()
    chooseType('student')
    expect(screen.queryByLabelText(/company/i)).toBeNull()
    type(/monthly income/i, '8000')
    type(/monthly expenses/i, '4000')
    submit()
    await waitFor(() => expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      path: '/private/client/complete-step-two',
      body: { employmentType: 'student', monthlyIncome: '8000', monthlyExpenses: '4000' },
    })
    expect((calls[0]?.body as Record<string, unknown>).companyName).toBeUndefined()
  })

  it('puts a server violation on the company field', async () => {
    const { api } = scriptedApi({
      'PUT /private/client/complete-step-two': () => {
        throw violation('/private/client/complete-step-two', {
          propertyPath: 'companyName',
          message: 'error-wrong-format',
        })
      },
    })
    renderWithApp(api, <EmploymentForm />)
    chooseType('self_employed')
    type(/company/i, 'Sari-sari Store')
    type(/monthly income/i, '30000')
    type(/monthly expenses/i, '12000')
    submit()
    await expectErrorKey(/company/i, 'error-wrong-format')
  })

  it('is prefilled with what the client stored on this step before', async () => {
    const { api } = scriptedApi({
      'GET /private/client/registration': {
        details: null,
        employment: {
          employmentType: 'self_employed',
          companyName: 'Sari-sari Store',
          monthlyIncome: '30000',
          monthlyExpenses: '12000',
        },
      },
    })
    renderWithApp(api, <EmploymentPage />)
    expect(((await screen.findByLabelText(/company/i)) as HTMLInputElement).value).toBe('Sari-sari Store')
    expect((screen.getByLabelText(/monthly income/i) as HTMLInputElement).value).toBe('30000')
    expect((screen.getByLabelText(/employment type/i) as HTMLSelectElement).value).toBe('self_employed')
  })
})
