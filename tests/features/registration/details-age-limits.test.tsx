// @vitest-environment happy-dom
/**
 * Spec section 9: "Age limits default to 20 and 70 and can be overridden by the content system" (ADR 0048). The
 * details form checks the birth date against the limits it is given, and names them in its message; the page takes
 * them from the site content (GET /public/site-content), the defaults while it has none.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { addYears, manilaToday } from '../../../domain/journey/fields'
import { DetailsForm, DetailsPage } from '../../../src/features/registration/details-form'
import { siteContentQueryKey } from '../../../src/ui/layout/site-content'
import { errorKeyOf, expectErrorKey, renderWithApp, scriptedApi, submit, type } from './harness'

afterEach(cleanup)

/** MMDDYYYY as typed for someone exactly `years` old today (their birthday is today, in Manila). */
const typedBirthDate = (years: number) => {
  const [y, m, d] = addYears(manilaToday(new Date()), -years).split('-')
  return `${m}${d}${y}`
}

function fillValid(years: number) {
  type(/^first name/i, 'Maria')
  type(/^last name/i, 'Santos')
  type(/date of birth/i, typedBirthDate(years))
  fireEvent.click(screen.getByLabelText('Female'))
  fireEvent.change(screen.getByLabelText(/civil status/i), { target: { value: 'single' } })
  type(/e-mail/i, 'maria@example.com')
}

const saved = { 'PUT /private/client': { flow: { step: 'work_info', status: 'active' } } }

describe('the details form and the age limits of the content system', () => {
  it('uses the limits it is given: 18 passes under 18..60, 61 is refused with those limits named', async () => {
    const { api, calls } = scriptedApi(saved)
    const { journey } = renderWithApp(api, <DetailsForm ageLimits={{ min: 18, max: 60 }} />)
    fillValid(61)
    submit()
    await expectErrorKey(/date of birth/i, 'error-age')
    expect(screen.getByText('You must be between 18 and 60 years old.')).toBeTruthy()
    expect(calls).toEqual([])

    type(/date of birth/i, typedBirthDate(18))
    submit()
    await waitFor(() => expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(calls.map((c) => [c.method, c.path])).toEqual([['PUT', '/private/client']])
  })

  it('without limits given, the defaults (AGE_LIMITS, 20 and 70) apply', async () => {
    const { api, calls } = scriptedApi(saved)
    renderWithApp(api, <DetailsForm />)
    fillValid(19)
    submit()
    await expectErrorKey(/date of birth/i, 'error-age')
    expect(screen.getByText('You must be between 20 and 70 years old.')).toBeTruthy()
    expect(calls).toEqual([])
  })

  it('the page takes the limits from the site content', async () => {
    const { api, calls } = scriptedApi({
      ...saved,
      'GET /private/client': { firstName: null, email: 'maria@example.com' },
      'GET /private/client/registration': { details: null, employment: null },
      'GET /public/site-content': {
        today: '2026-11-28',
        banners: [],
        promoItems: [],
        apps: [],
        ageLimits: { min: 25, max: 40 },
      },
    })
    const { queryClient } = renderWithApp(api, <DetailsPage />)
    await screen.findByLabelText(/e-mail/i)
    await waitFor(() => expect(queryClient.getQueryData(siteContentQueryKey)).toBeTruthy())
    fillValid(22)
    submit()
    await expectErrorKey(/date of birth/i, 'error-age')
    expect(screen.getByText('You must be between 25 and 40 years old.')).toBeTruthy()
    type(/date of birth/i, typedBirthDate(40))
    submit()
    await waitFor(() => expect(errorKeyOf(/date of birth/i)).toBeNull())
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true))
  })
})
