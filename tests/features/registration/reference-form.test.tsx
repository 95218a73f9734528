// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ReferenceForm, ReferencePage } from '../../../src/features/registration/reference-form'
import { expectErrorKey, renderWithApp, scriptedApi, submit, type, violation } from './harness'

afterEach(cleanup)

const client = { info: { mobilePhone: { number: '09171234567' } } }

describe('<ReferenceForm>', () => {
  it("asks for two words and refuses the client's own number", async () => {
    const { api, calls } = scriptedApi({ 'GET /private/client': client })
    const { queryClient } = renderWithApp(api, <ReferenceForm />)
    await waitFor(() => expect(queryClient.getQueryData(['client', 'current'])).toEqual(client))
    type(/full name/i, 'Juan')
    type(/mobile number/i, '09171234567')
    submit()
    await expectErrorKey(/full name/i, 'error-full-name')
    await expectErrorKey(/relation/i, 'error-required')
    await expectErrorKey(/mobile number/i, 'phone-error-taken')
    type(/mobile number/i, '12345')
    await expectErrorKey(/mobile number/i, 'error-incorrect-phone')
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([])
  })

  it('sends the reference to PUT /complete-step-three', async () => {
    const { api, calls } = scriptedApi({
      'GET /private/client': client,
      'PUT /private/client/complete-step-three': { flow: {} },
    })
    const { journey } = renderWithApp(api, <ReferenceForm />)
    type(/full name/i, '  Juan   Dela Cruz ')
    fireEvent.change(screen.getByLabelText(/relation/i), { target: { value: 'sibling' } })
    type(/mobile number/i, '09181234567')
    submit()
    await waitFor(() => expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      method: 'PUT',
      path: '/private/client/complete-step-three',
      body: { fullName: 'Juan Dela Cruz', relation: 'sibling', phone: '09181234567' },
    })
  })

  it('puts a server violation on the phone field', async () => {
    const { api } = scriptedApi({
      'GET /private/client': client,
      'PUT /private/client/complete-step-three': () => {
        throw violation('/private/client/complete-step-three', {
          propertyPath: 'phone',
          message: 'phone-error-taken',
        })
      },
    })
    renderWithApp(api, <ReferenceForm />)
    type(/full name/i, 'Juan Dela Cruz')
    fireEvent.change(screen.getByLabelText(/relation/i), { target: { value: 'friend' } })
    type(/mobile number/i, '09181234567')
    submit()
    await expectErrorKey(/mobile number/i, 'phone-error-taken')
    expect(screen.getByText(/different number from your own/)).toBeTruthy()
  })

  it('is prefilled with the reference given before', async () => {
    const { api } = scriptedApi({
      'GET /private/client': client,
      'GET /private/client/registration': {
        details: null,
        employment: null,
        contacts: [
          { id: 1, kind: 'reference', fullName: 'Juan Dela Cruz', relation: 'sibling', phone: '09181234567' },
        ],
      },
    })
    renderWithApp(api, <ReferencePage />)
    expect(((await screen.findByLabelText(/full name/i)) as HTMLInputElement).value).toBe('Juan Dela Cruz')
    expect((screen.getByLabelText(/relation/i) as HTMLSelectElement).value).toBe('sibling')
  })
})
