// @vitest-environment happy-dom
/**
 * The API client sends the browser's device id as `x-device-id` on every call, not only on login: the server
 * recognises the owner's trusted device by it on password recovery and the other pre-login code requests
 * (server/services/identity limits), and a header a caller sets itself is kept.
 */
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type AnyContract, defineContract } from '../../domain/contract/define'
import { getEnvironment } from '../../domain/contract/environment'
import {
  changePhone,
  clientLogin,
  recoverPassword,
  sendPublicPhoneCode,
} from '../../domain/contract/identity'
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

/** An operation of each kind the client sends: the header must not depend on the method or the body. */
const probe = (method: AnyContract['method'], path: string, more: Partial<AnyContract> = {}) =>
  defineContract({ method, path, summary: 'probe', tags: [], access: 'public', ...more })

describe('API client device header', () => {
  it('attaches x-device-id to every method, public and private, uploads and downloads included', async () => {
    const api = createApiClient(hooks(() => 'device-abc-12345'))
    await api.call(getEnvironment)
    await api.call(recoverPassword, { body: { login: '09171234567', captchaToken: 'ok' } })
    await api.call(changePhone, { body: { mobilePhone: { number: '09171234567' }, code: '123' } })
    await api.call(probe('patch', '/private/client/flow', { body: v.unknown() }), { body: {} })
    await api.call(
      probe('delete', '/private/client/document/:id', { params: v.object({ id: v.string() }) }),
      {
        params: { id: 1 },
      },
    )
    const form = new FormData()
    form.append('file', new Blob(['x']), 'a.jpg')
    await api.call(probe('post', '/private/client/document/upload', { bodyType: 'multipart' }), {
      body: form,
    } as never)
    await api.call(probe('get', '/private/client/loan/1/contract', { answer: 'binary' }))
    await api.call(probe('get', '/private/client/loans', { paginated: true }))
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /web/public/environment',
      'POST /web/public/client/recover/password',
      'PUT /web/private/client/change/phone',
      'PATCH /web/private/client/flow',
      'DELETE /web/private/client/document/1',
      'POST /web/private/client/document/upload',
      'GET /web/private/client/loan/1/contract',
      'GET /web/private/client/loans',
    ])
    for (const request of sent) expect(request.headers.get('x-device-id')).toBe('device-abc-12345')
  })

  it("keeps a caller's own x-device-id, and sends none when there is no device id", async () => {
    await createApiClient(hooks(() => 'device-abc-12345')).call(
      clientLogin,
      { body: { login: '09171234567', password: 'secret123' } },
      { headers: { 'x-device-id': 'explicit-device-1' } },
    )
    await createApiClient(hooks(() => null)).call(getEnvironment)
    await createApiClient(hooks()).call(getEnvironment)
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
      await api.call(recoverPassword, { body: { login: '09171234567' } })
      await api.call(sendPublicPhoneCode, { body: { mobilePhone: { number: '09171234567' } } })
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
      await api.call(getEnvironment)
      await api.call(getEnvironment)
      const stored = localStorage.getItem(DEVICE_ID_KEY)
      expect(stored).toMatch(/^[\w-]{8,128}$/)
      expect(sent.map((request) => request.headers.get('x-device-id'))).toEqual([stored, stored])
    } finally {
      auth.stop()
    }
  })
})
