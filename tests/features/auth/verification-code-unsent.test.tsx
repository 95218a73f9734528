// @vitest-environment happy-dom
/**
 * Spec section 8's selector error-verification-code-unsent: the server answers "Code not found by given identity"
 * (server/services/identity/codes.ts `assertCode`: no live code for the number, sent or expired) when a code is
 * sent to be checked. Through the real API client over a stubbed fetch, the phone verification step shows it on
 * the code field under that key (src/features/auth/error-text.ts), with its text.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createApiClient } from '../../../src/api/client'
import { VerifyPhone } from '../../../src/features/auth/registration-page'
import { messages } from '../../support/messages'
import { Harness } from '../application/harness'

vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children, className }: { to: string; children: ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
}))

let sent: { method: string; path: string; body: string }[] = []

beforeEach(() => {
  sent = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(new URL(input, location.href), init)
      sent.push({ method: request.method, path: new URL(request.url).pathname, body: await request.text() })
      // As the server answers a code it has no live code for (tests/api/identity-signup.test.ts).
      const message = 'Code not found by given identity'
      const body = {
        success: false,
        data: null,
        response: {
          status: 422,
          code: 'codeNotSent',
          message,
          violations: [{ propertyPath: 'code', message }],
        },
      }
      return new Response(JSON.stringify(body), {
        status: 422,
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

/** A client just signed up, phone not verified yet: as much of the auth actor as the step reads. */
function fakeAuth() {
  const user = { id: 7, email: 'ana@example.ph', info: { mobilePhone: { number: '09171234567' } } }
  const snapshot = {
    value: 'loggedIn',
    context: { user, claims: { type: 'client', mfa: false, sl: false } },
    matches: (state: string) => state === 'loggedIn',
  }
  return { getSnapshot: () => snapshot, subscribe: () => ({ unsubscribe() {} }), send: vi.fn() }
}

describe('error-verification-code-unsent', () => {
  it('a code the server has not sent (or that expired) shows the selector and its text on the code field', async () => {
    const auth = fakeAuth()
    const api = createApiClient({
      getToken: () => 'token',
      setToken: () => {},
      onServerFailure: () => {},
      onUnauthorized: () => {},
    })
    render(
      <Harness api={api} services={{ auth }}>
        <VerifyPhone />
      </Harness>,
    )
    fireEvent.change(screen.getByLabelText(/Verification code/), { target: { value: '123' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: messages.auth.verifyPhone.submit }))
    })
    expect(sent).toEqual([
      { method: 'POST', path: '/web/private/client/phone/verify-ts', body: '{"code":"123"}' },
    ])
    const error = await screen.findByText(messages.auth.errors['error-verification-code-unsent'])
    expect(error.getAttribute('data-error-key')).toBe('error-verification-code-unsent')
    expect(error.textContent).toBe('This code has expired or was not sent. Please ask for a new one.')
    // On the code field, not above the form; the session is left as it was.
    const field = screen.getByLabelText(/Verification code/)
    expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(field.getAttribute('aria-describedby')).toContain(error.id)
    expect(screen.queryByRole('alert')).toBeNull()
    expect(auth.send).not.toHaveBeenCalled()
  })
})
