// @vitest-environment happy-dom
/**
 * Issue 22 item 5 on the employment step: the optional work phone (the spec's generic phone rule) and the tax id
 * typed through its mask (spec section 5, "tax id: masks only"), sent with PUT /complete-step-two.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { EmploymentForm } from '../../../src/features/registration/employment-form'
import { expectErrorKey, renderWithApp, scriptedApi, submit, type } from './harness'

afterEach(cleanup)

describe('<EmploymentForm> work phone and TIN', () => {
  it('masks the TIN as typed, checks the work phone, and sends both', async () => {
    const { api, calls } = scriptedApi({ 'PUT /private/client/complete-step-two': { flow: {} } })
    renderWithApp(api, <EmploymentForm />)
    fireEvent.change(screen.getByLabelText(/employment type/i), { target: { value: 'employed_private' } })
    type(/company or business name/i, 'Ayala Land Inc.')
    type(/monthly income/i, '28000')
    type(/monthly expenses/i, '12000')
    type(/work phone/i, '8123')
    type(/tax identification number/i, '123456789000')
    const tin = screen.getByLabelText(/tax identification number/i) as HTMLInputElement
    expect(tin.value).toBe('123-456-789-000')
    submit()
    await expectErrorKey(/work phone/i, 'error-incorrect-phone')
    expect(calls).toEqual([])
    type(/work phone/i, '(02) 8123 4567')
    submit()
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]?.body).toMatchObject({ employerPhone: '(02) 8123 4567', taxId: '123456789000' })
  })
})
