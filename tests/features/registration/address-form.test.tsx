// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AddressForm } from '../../../src/features/registration/address-form'
import { expectErrorKey, renderWithApp, scriptedApi, submit, type, violation } from './harness'

afterEach(cleanup)

const geo = {
  'GET /public/address/region': [
    { id: '1300000000', title: 'National Capital Region (NCR)' },
    { id: '0700000000', title: 'Region VII (Central Visayas)' },
  ],
  'GET /public/address/region/1300000000/city': [{ id: '1380600000', title: 'City of Manila' }],
  'GET /public/address/region/0700000000/city': [{ id: '0702200000', title: 'Cebu' }],
  'GET /public/address/district': [{ id: '1380601000', title: 'Tondo I/II' }],
  'GET /public/address/ward': [{ id: '1380601001', title: 'Barangay 1' }],
}

async function choose(label: RegExp, value: string) {
  const select = screen.getByLabelText(label) as HTMLSelectElement
  await waitFor(() => {
    expect(select.disabled).toBe(false)
    expect([...select.options].map((o) => o.value)).toContain(value)
  })
  fireEvent.change(select, { target: { value } })
}

describe('<AddressForm>', () => {
  it('cascades region -> province/city -> city/municipality -> barangay and sends the codes', async () => {
    const { api, calls } = scriptedApi({ ...geo, 'PUT /private/client/complete-step-four': { flow: {} } })
    const { journey } = renderWithApp(api, <AddressForm />)
    expect((screen.getByLabelText(/province or city/i) as HTMLSelectElement).disabled).toBe(true)
    await choose(/^region/i, '1300000000')
    await choose(/province or city/i, '1380600000')
    await choose(/city or municipality/i, '1380601000')
    await choose(/barangay/i, '1380601001')
    type(/street/i, '123 Rizal Ave.')
    submit()
    await waitFor(() => expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(calls.find((c) => c.path === '/public/address/ward')?.query).toMatchObject({
      districtId: '1380601000',
    })
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/private/client/complete-step-four',
      body: {
        regionId: '1300000000',
        cityId: '1380600000',
        districtId: '1380601000',
        wardId: '1380601001',
        street: '123 Rizal Ave.',
      },
    })
  })

  it('clears the lower levels when a region changes, and shows the spec keys', async () => {
    const { api, calls } = scriptedApi(geo)
    renderWithApp(api, <AddressForm />)
    await choose(/^region/i, '1300000000')
    await choose(/province or city/i, '1380600000')
    await choose(/^region/i, '0700000000')
    expect((screen.getByLabelText(/province or city/i) as HTMLSelectElement).value).toBe('')
    type(/street/i, 'Rizal St. <b>')
    submit()
    await expectErrorKey(/province or city/i, 'error-required')
    await expectErrorKey(/barangay/i, 'error-required')
    await expectErrorKey(/street/i, 'error-invalid-address')
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)
  })

  it('puts a server violation on the barangay', async () => {
    const { api } = scriptedApi({
      ...geo,
      'PUT /private/client/complete-step-four': () => {
        throw violation('/private/client/complete-step-four', {
          propertyPath: 'wardId',
          message: 'error-invalid-address',
        })
      },
    })
    renderWithApp(api, <AddressForm />)
    await choose(/^region/i, '1300000000')
    await choose(/province or city/i, '1380600000')
    await choose(/city or municipality/i, '1380601000')
    await choose(/barangay/i, '1380601001')
    type(/street/i, '123 Rizal Ave.')
    submit()
    await expectErrorKey(/barangay/i, 'error-invalid-address')
  })
})

describe('<AddressForm> location and progress', () => {
  it('shows where the client is in the registration', () => {
    const { api } = scriptedApi(geo)
    renderWithApp(api, <AddressForm />)
    expect(screen.getByText('Step 4 of 8: Address')).toBeTruthy()
    const current = document.querySelector('[aria-current="step"]')
    expect(current?.textContent).toBe('Address')
  })

  it('sends the location only when the client asks to share it', async () => {
    const getCurrentPosition = vi.fn((ok: PositionCallback) =>
      ok({ coords: { latitude: 14.5995, longitude: 120.9842, accuracy: 30 } } as GeolocationPosition),
    )
    Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true })
    const { api, calls } = scriptedApi({ ...geo, 'POST /private/client/geo': { flow: {} } })
    renderWithApp(api, <AddressForm />)
    expect(calls.some((c) => c.path === '/private/client/geo')).toBe(false)
    fireEvent.click(screen.getByRole('button', { name: /share my location/i }))
    await screen.findByText(/your location was shared/i)
    expect(calls.find((c) => c.path === '/private/client/geo')?.body).toEqual({
      latitude: 14.5995,
      longitude: 120.9842,
      accuracy: 30,
    })
  })
})
