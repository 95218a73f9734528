// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/api/client'
import { DetailsForm, DetailsPage } from '../../../src/features/registration/details-form'
import { expectErrorKey, renderWithApp, scriptedApi, submit, type, violation } from './harness'

afterEach(cleanup)

function fillValid() {
  type(/^first name/i, 'Maria')
  type(/^last name/i, 'Santos')
  type(/date of birth/i, '03151990')
  fireEvent.click(screen.getByLabelText('Female'))
  fireEvent.change(screen.getByLabelText(/civil status/i), { target: { value: 'single' } })
  type(/e-mail/i, 'Maria@Example.com')
}

describe('<DetailsForm>', () => {
  it('shows the spec message keys on the fields when empty or wrong', async () => {
    const { api, calls } = scriptedApi({})
    renderWithApp(api, <DetailsForm />)
    type(/^first name/i, 'M4ria')
    type(/date of birth/i, '01012020')
    type(/e-mail/i, 'maria@example')
    submit()
    await expectErrorKey(/^first name/i, 'error-person-name')
    await expectErrorKey(/^last name/i, 'error-required')
    await expectErrorKey(/date of birth/i, 'error-age')
    await expectErrorKey(/e-mail/i, 'error-mail')
    await expectErrorKey(/civil status/i, 'error-required')
    expect(screen.getByText(/between 20 and 70/)).toBeTruthy()
    expect(calls).toEqual([])
  })

  it('masks the birth date as MM/DD/YYYY and sends YYYY-MM-DD to PUT /private/client, then refreshes the journey', async () => {
    const { api, calls } = scriptedApi({
      'PUT /private/client': { flow: { step: 'work_info', status: 'active' } },
    })
    const { journey, auth } = renderWithApp(api, <DetailsForm />)
    fillValid()
    expect((screen.getByLabelText(/date of birth/i) as HTMLInputElement).value).toBe('03/15/1990')
    submit()
    await waitFor(() => expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    // The guards read the first name from the session's user: it is reloaded, or the client stays on details.
    expect(auth.send).toHaveBeenCalledWith({ type: 'USER.RELOAD' })
    expect(calls).toEqual([
      {
        method: 'PUT',
        path: '/private/client',
        body: {
          firstName: 'Maria',
          lastName: 'Santos',
          birthDate: '1990-03-15',
          gender: 'female',
          civilStatus: 'single',
          email: 'maria@example.com',
        },
        query: undefined,
      },
    ])
  })

  it('puts a server violation on the field of the same name', async () => {
    const { api } = scriptedApi({
      'PUT /private/client': () => {
        throw violation('/private/client', { propertyPath: 'email', message: 'email-error-taken' })
      },
    })
    const { journey } = renderWithApp(api, <DetailsForm />)
    fillValid()
    submit()
    await expectErrorKey(/e-mail/i, 'email-error-taken')
    expect(screen.getByText(/already used by another account/)).toBeTruthy()
    expect(journey.actor.send).not.toHaveBeenCalled()
  })
})

describe('<DetailsPage>', () => {
  it('fills in the e-mail the client signed up with', async () => {
    const { api } = scriptedApi({
      'GET /private/client': { firstName: null, email: 'maria@example.com' },
      'GET /private/client/registration': { details: null, employment: null },
    })
    renderWithApp(api, <DetailsPage />)
    expect(((await screen.findByLabelText(/e-mail/i)) as HTMLInputElement).value).toBe('maria@example.com')
  })

  it('lets the journey move the client when the step was already done elsewhere (409)', async () => {
    const { api } = scriptedApi({
      'GET /private/client': { email: 'maria@example.com' },
      'GET /private/client/registration': { details: null, employment: null },
      'PUT /private/client': () => {
        throw new ApiError(409, '/web/private/client', 'journeyStepMismatch', 'Not the current step', [])
      },
    })
    const { journey } = renderWithApp(api, <DetailsPage />)
    await screen.findByLabelText(/e-mail/i)
    fillValid()
    submit()
    await waitFor(() => expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(screen.getByRole('alert').getAttribute('data-error-key')).toBe('journeyStepMismatch')
  })

  it('confirms details entered by staff unchanged, and sends corrections as a normal details call', async () => {
    const staff = {
      firstName: 'Maria',
      middleName: null,
      lastName: 'Santos',
      birthDate: '1990-03-15',
      gender: 'female',
      civilStatus: 'married',
      enteredBy: 'back_office',
      confirmed: false,
    }
    const { api, calls } = scriptedApi({
      'GET /private/client': { firstName: 'Maria', email: 'maria@example.com' },
      'GET /private/client/registration': { details: staff, employment: null },
      'PUT /private/client/complete-back-office-client': { flow: {} },
    })
    const { journey } = renderWithApp(api, <DetailsPage />)
    expect(((await screen.findByLabelText(/date of birth/i)) as HTMLInputElement).value).toBe('03/15/1990')
    expect(screen.getByText(/our staff entered these details/i)).toBeTruthy()
    submit()
    await waitFor(() => expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.path)).toEqual([
      '/private/client/complete-back-office-client',
    ])
  })
})
