// @vitest-environment happy-dom
/**
 * Issue 22 item 5, the browser's side of the spec's error catalogue (section 8): an unknown API call type is
 * refused before any request; an unknown routing middleware (a guard effect the app does not know) is the error
 * page's 500 'Unknown middleware'; a one-time password not sent shows error-otp-code-unsent; and the anonymous terms
 * document, a binary answer of a POST, is sent with its own method and body.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type AnyContract, defineContract } from '../../domain/contract/define'
import { getAnonymousDocument } from '../../domain/contract/documents'
import type { GuardEffect } from '../../domain/journey/routing'
import { ApiError, assertCallType, createApiClient, UnknownCallTypeError } from '../../src/api/client'
import { perform, UnknownMiddlewareError } from '../../src/app/journey-routing'
import { signErrorKey } from '../../src/features/application/summary-screen'
import { otpError } from '../../src/features/auth/single-link-page'
import { errorDetail } from '../../src/ui/errors/generic-error-page'

let sent: { method: string; path: string; body: string }[] = []

beforeEach(() => {
  sent = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(new URL(input, location.href), init)
      sent.push({ method: request.method, path: new URL(request.url).pathname, body: await request.text() })
      return new Response(new Uint8Array([37, 80, 68, 70]), {
        status: 200,
        headers: { 'content-type': 'application/pdf' },
      })
    }),
  )
})
afterEach(() => vi.unstubAllGlobals())

const hooks = {
  getToken: () => null,
  setToken: () => {},
  onServerFailure: () => {},
  onUnauthorized: () => {},
}

describe('unknown API call type', () => {
  it('refuses a method or an answer kind no route has, before sending anything', async () => {
    const api = createApiClient(hooks)
    const head = {
      method: 'head',
      path: '/public/x',
      summary: '',
      tags: [],
      access: 'public',
    } as unknown as AnyContract
    await expect(api.call(head)).rejects.toThrow(new UnknownCallTypeError('head'))
    await expect(api.call(head)).rejects.toThrow('Unknown API call type: head')
    const stream = defineContract({
      method: 'get',
      path: '/public/x',
      summary: '',
      tags: [],
      access: 'public',
      answer: 'stream' as 'binary',
    })
    await expect(api.call(stream)).rejects.toThrow('Unknown API call type: stream')
    expect(sent).toEqual([])
    expect(() => assertCallType({ method: 'patch', answer: 'json' })).not.toThrow()
  })

  it('sends a binary answer with its own method and body (the anonymous terms are a POST)', async () => {
    const api = createApiClient(hooks)
    const pdf = await api.call(getAnonymousDocument, { body: { id: 'terms_and_conditions_anonymous' } })
    expect(pdf.size).toBe(4)
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/web/public/client/document',
        body: '{"id":"terms_and_conditions_anonymous"}',
      },
    ])
  })
})

describe('unknown routing middleware', () => {
  it("a guard effect the app does not know is the error page's 500 'Unknown middleware'", () => {
    const handled: string[] = []
    perform({ logout: () => handled.push('logout') }, { type: 'logout' })
    // A known effect without a handler is ignored, as before.
    perform({}, { type: 'setProgress30' })
    expect(handled).toEqual(['logout'])
    const unknown = { type: 'openPopup' } as unknown as GuardEffect
    expect(() => perform({}, unknown)).toThrow(UnknownMiddlewareError)
    let thrown: unknown
    try {
      perform({}, unknown)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ status: 500, message: 'Unknown middleware', middleware: 'openPopup' })
    expect(errorDetail(thrown)).toBe('500 Unknown middleware')
    expect(errorDetail(new UnknownCallTypeError('head'))).toBe('Unknown API call type: head')
    expect(errorDetail(new Error('boom'))).toBeNull()
  })
})

describe('error-otp-code-unsent', () => {
  it("a one-time password not sent shows the OTP's own selector: signing code and lead code", () => {
    const unsent = new ApiError(422, '/web/x', 'codeNotSent', 'Code not found by given identity', [
      { propertyPath: 'code', message: 'Code not found by given identity' },
    ])
    expect(signErrorKey(unsent)).toBe('error-otp-code-unsent')
    const mapped = otpError(unsent) as ApiError
    expect(mapped.violations).toEqual([{ propertyPath: 'code', message: 'error-otp-code-unsent' }])
    expect(mapped.message).toBe('error-otp-code-unsent')
    const wrong = new ApiError(422, '/web/x', 'codeIncorrect', 'Phone verification not passed', [])
    expect(otpError(wrong)).toBe(wrong)
  })
})
