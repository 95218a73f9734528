// @vitest-environment happy-dom
/**
 * The API client sends the browser's device id as `x-device-id` on every call, not only on login: the server
 * recognises the owner's trusted device by it on password recovery and the other pre-login code requests
 * (server/services/identity limits), and a header a caller sets itself is kept.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createApiClient } from '../../src/api/client'
import { createAppServices } from '../../src/app/services'
import { DEVICE_ID_KEY } from '../../src/features/auth/device'

let sent: { method: string; path: string; headers: Headers }[] = []

beforeEach(() => {
  sent = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(new URL(input, location.href), init)
      sent.push({ method: request.method, path: new URL(request.url).pathname, headers: request.headers })
      return new Response(JSON.stringify({ success: true, data: { ok: true }, response: { status: 200 } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
})

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

const hooks = (getDeviceId?: () => string | null) => ({
  getToken: () => null,
  setToken: () => {},
  onServerFailure: () => {},
  onUnauthorized: () => {},
  getDeviceId,
})

describe('API client device header', () => {
  it('attaches x-device-id to every method, public and private, uploads and downloads included', async () => {
    const api = createApiClient(hooks(() => 'device-abc-12345'))
    await api.get('/public/offer')
    await api.post('/public/client/password/recovery', { login: '09171234567', captchaToken: 'ok' })
    await api.put('/private/client/change/phone', { code: '123' })
    await api.patch('/private/client/flow', {})
    await api.delete('/private/client/document/1')
    const form = new FormData()
    form.append('file', new Blob(['x']), 'a.jpg')
    await api.post('/private/client/document/upload', form)
    await api.blob('/private/client/loan/1/contract')
    await api.page('/private/client/loans')
    expect(sent).toHaveLength(8)
    for (const request of sent) expect(request.headers.get('x-device-id')).toBe('device-abc-12345')
  })

  it("keeps a caller's own x-device-id, and sends none when there is no device id", async () => {
    await createApiClient(hooks(() => 'device-abc-12345')).post(
      '/public/client/login',
      {},
      { headers: { 'x-device-id': 'explicit-device-1' } },
    )
    await createApiClient(hooks(() => null)).get('/public/offer')
    await createApiClient(hooks()).get('/public/offer')
    expect(sent.map((request) => request.headers.get('x-device-id'))).toEqual([
      'explicit-device-1',
      null,
      null,
    ])
  })

  it("the app's client sends the device id kept in local storage, the same on every call", async () => {
    localStorage.setItem(DEVICE_ID_KEY, 'stored-device-0001')
    const { api, auth } = createAppServices()
    try {
      await api.post('/public/client/password/recovery', { login: '09171234567' })
      await api.post('/public/client/sms-code', {})
      expect(sent.map((request) => request.headers.get('x-device-id'))).toEqual([
        'stored-device-0001',
        'stored-device-0001',
      ])
    } finally {
      auth.stop()
    }
  })

  it('a browser without a stored id gets one, kept for the next calls', async () => {
    const { api, auth } = createAppServices()
    try {
      await api.get('/public/offer')
      await api.get('/public/offer')
      const stored = localStorage.getItem(DEVICE_ID_KEY)
      expect(stored).toMatch(/^[\w-]{8,128}$/)
      expect(sent.map((request) => request.headers.get('x-device-id'))).toEqual([stored, stored])
    } finally {
      auth.stop()
    }
  })
})
