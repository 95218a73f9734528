// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { addYears, manilaToday } from '../../../domain/journey/fields'
import { BROWSER_CAPABILITIES_KEY } from '../../../src/app/browser-capabilities'
import { applyMask } from '../../../src/features/registration/document-number-mask'
import { DocumentsForm } from '../../../src/features/registration/documents-form'
import { expectErrorKey, renderWithApp, scriptedApi, submit, type, violation } from './harness'

afterEach(cleanup)
// Each test detects the browser afresh (the detection is kept for a day: src/app/browser-capabilities.ts).
afterEach(() => window.localStorage.removeItem(BROWSER_CAPABILITIES_KEY))

/** A phone's browser: a file input that can open the camera (`capture`). */
function asPhone() {
  Object.defineProperty(HTMLInputElement.prototype, 'capture', {
    value: '',
    configurable: true,
    writable: true,
  })
  onTestFinished(() => {
    Reflect.deleteProperty(HTMLInputElement.prototype, 'capture')
  })
}

const config = { maxImageAge: 30, maxAttempts: 3, maxFileSize: 1000, attempt: 1 }
const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`
const inFiveYears = addYears(manilaToday(new Date()), 5)

const chooseType = (value: string) =>
  fireEvent.change(screen.getByLabelText(/id type/i), { target: { value } })

function photo(name: string, { ageMs = 0, size = 100, mime = 'image/jpeg' } = {}) {
  return new File([new Uint8Array(size)], name, { type: mime, lastModified: Date.now() - ageMs })
}
const pick = (label: RegExp, file: File) =>
  fireEvent.change(screen.getByLabelText(label), { target: { files: [file] } })

describe('document number masks', () => {
  it('formats each type as the spec says', () => {
    expect(applyMask('99-9999999-9', '3412345678')).toBe('34-1234567-8')
    expect(applyMask('a9999999a', 'p1234567a')).toBe('P1234567A')
    expect(applyMask('9999-9999-9999-9999', '1234x5678')).toBe('1234-5678')
  })
})

describe('<DocumentsForm>', () => {
  it('checks number length and the two expiry messages', async () => {
    const { api, calls } = scriptedApi({ 'GET /private/client/flow/document-upload-config': config })
    renderWithApp(api, <DocumentsForm />)
    chooseType('SSS')
    expect(screen.queryByLabelText(/expiry date/i)).toBeNull()
    type(/id number/i, '34123')
    expect((screen.getByLabelText(/id number/i) as HTMLInputElement).value).toBe('34-123')
    submit()
    await expectErrorKey(/id number/i, 'error-id-number-length')
    chooseType('PP')
    type(/id number/i, 'P1234567A')
    type(/expiry date/i, '0101')
    submit()
    await expectErrorKey(/expiry date/i, 'Invalid format of expiration date')
    type(/expiry date/i, usDate(addYears(manilaToday(new Date()), 11)))
    submit()
    await expectErrorKey(/expiry date/i, 'Invalid expiration date. It should be within the next 10 years.')
    expect(screen.getByText('Invalid expiration date. It should be within the next 10 years.')).toBeTruthy()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
  })

  it('refuses an old or large photo before uploading, and shows the attempt counter', async () => {
    asPhone()
    const { api, calls } = scriptedApi({ 'GET /private/client/flow/document-upload-config': config })
    renderWithApp(api, <DocumentsForm />)
    await screen.findByText('Upload attempt 1 of 3')
    const front = /front of the id/i
    expect(screen.getByLabelText(front).getAttribute('accept')).toBe('image/*')
    expect(screen.getByLabelText(front).getAttribute('capture')).toBe('environment')
    pick(front, photo('old.jpg', { ageMs: 60_000 }))
    await expectErrorKey(front, 'error-file-age')
    pick(front, photo('big.jpg', { size: 5000 }))
    await expectErrorKey(front, 'error-file-size')
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
  })

  it('offers a file picker without camera capture where the browser cannot capture (a desktop)', async () => {
    const { api } = scriptedApi({ 'GET /private/client/flow/document-upload-config': config })
    renderWithApp(api, <DocumentsForm />)
    await screen.findByText('Upload attempt 1 of 3')
    expect(screen.getByLabelText(/front of the id/i).getAttribute('accept')).toBe('image/*')
    expect(screen.getByLabelText(/front of the id/i).hasAttribute('capture')).toBe(false)
  })

  it('uploads the front with its side and capture time, then finishes with the ISO expiry', async () => {
    const { api, calls } = scriptedApi({
      'GET /private/client/flow/document-upload-config': config,
      'POST /private/client/id-document/upload': { type: 'front', attempt: 1 },
      'POST /private/client/id-document/finish': { flow: {} },
    })
    const { journey } = renderWithApp(api, <DocumentsForm />)
    chooseType('PP')
    type(/id number/i, 'p1234567a')
    type(/expiry date/i, usDate(inFiveYears))
    pick(/front of the id/i, photo('front.jpg'))
    await screen.findByText('Uploaded')
    const upload = calls.find((c) => c.path === '/private/client/id-document/upload')?.body as FormData
    expect(upload.get('type')).toBe('front')
    expect(Date.now() - Date.parse(String(upload.get('capturedAt')))).toBeLessThan(5_000)
    submit()
    await waitFor(() => expect(journey.actor.send).toHaveBeenCalledWith({ type: 'FLOW.REFRESH' }))
    expect(calls.find((c) => c.path === '/private/client/id-document/finish')?.body).toEqual({
      documentType: 'PP',
      documentNumber: 'P1234567A',
      expiryDate: inFiveYears,
    })
  })

  it('asks for the front photo, and puts a server violation on the number', async () => {
    const { api } = scriptedApi({
      'GET /private/client/flow/document-upload-config': config,
      'POST /private/client/id-document/upload': { type: 'front', attempt: 1 },
      'POST /private/client/id-document/finish': () => {
        throw violation('/private/client/id-document/finish', {
          propertyPath: 'documentNumber',
          message: 'error-wrong-format',
        })
      },
    })
    renderWithApp(api, <DocumentsForm />)
    chooseType('NATIONAL_ID')
    type(/id number/i, '1234567890123456')
    submit()
    await expectErrorKey(/front of the id/i, 'error-required')
    pick(/front of the id/i, photo('front.png', { mime: 'image/png' }))
    await screen.findByText('Uploaded')
    submit()
    await expectErrorKey(/id number/i, 'error-wrong-format')
  })
})
