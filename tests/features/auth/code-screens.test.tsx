// @vitest-environment happy-dom
/**
 * The code screens with the shared code request (src/ui/forms/code-request.tsx): the server's wait is a
 * countdown and "Send a new code" comes back when it ends; a 429 says why; the change forms move on to the code
 * step counting down when asked again too soon; a pasted +63 number is masked to 09... and sent normalised.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../src/api/client'
import { ChangeEmailPage, ChangePhonePage } from '../../../src/features/auth/change-pages'
import { CodeStep } from '../../../src/features/auth/code-step'
import { SignUpForm } from '../../../src/features/auth/registration-page'
import { CodeRequest } from '../../../src/ui/forms/code-request'
import { Harness, scriptedApi } from '../application/harness'

vi.mock('@tanstack/react-router', () => ({
  Link: ({ to, children, className }: { to: string; children: ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
}))

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const NOW = Date.parse('2026-11-25T06:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()

/** A logged-in client's session, as much of the auth actor as the pages read. */
function fakeAuth() {
  const user = { id: 7, email: 'juan@example.ph', info: { mobilePhone: { number: '09170000000' } } }
  const snapshot = {
    value: 'loggedIn',
    context: { user, claims: { type: 'client', mfa: false } },
    matches: (state: string) => state === 'loggedIn',
  }
  return { getSnapshot: () => snapshot, subscribe: () => ({ unsubscribe() {} }), send: vi.fn() }
}

function Page({ api, children }: { api: ReturnType<typeof scriptedApi>['api']; children: ReactNode }) {
  return (
    <Harness api={api} services={{ auth: fakeAuth() }}>
      {children}
    </Harness>
  )
}

const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement

describe('<CodeRequest>', () => {
  it('a code sent by the step before: counts down to nextCodeAt, then offers a new code', async () => {
    vi.useFakeTimers({ now: NOW })
    const { api } = scriptedApi({})
    const request = vi.fn(async () => ({ nextCodeAt: iso(Date.now() + 60_000) }))
    render(
      <Page api={api}>
        <CodeRequest sent nextCodeAt={iso(NOW + 45_000)} request={request} />
      </Page>,
    )
    expect(button('Send a new code').disabled).toBe(true)
    expect(screen.getByText('You can ask for a new code in 45 s.')).toBeTruthy()
    // The countdown is the button's description, not a live region reading every second.
    expect(button('Send a new code').getAttribute('aria-describedby')).toBe(
      screen.getByText('You can ask for a new code in 45 s.').id,
    )
    await act(async () => {
      vi.advanceTimersByTime(44_999)
    })
    expect(screen.getByText('You can ask for a new code in 1 s.')).toBeTruthy()
    await act(async () => {
      vi.advanceTimersByTime(1)
    })
    expect(button('Send a new code').disabled).toBe(false)
    expect(screen.queryByText(/You can ask for a new code in/)).toBeNull()
    await act(async () => {
      fireEvent.click(button('Send a new code'))
    })
    expect(request).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('status').textContent).toBe('A new code is on its way.')
    expect(screen.getByText('You can ask for a new code in 60 s.')).toBeTruthy()
  })

  it('a 429 minute limit names the wait and counts down from Retry-After; the day limit says try tomorrow', async () => {
    vi.useFakeTimers({ now: NOW })
    const { api } = scriptedApi({})
    const request = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(429, '/web/x', 'codeMinuteLimit', 'wait', [], 20))
      .mockRejectedValueOnce(new ApiError(429, '/web/x', 'codeDayLimit', 'tomorrow', [], 40_000))
    render(
      <Page api={api}>
        <CodeRequest request={request} sendLabel="Send the code" />
      </Page>,
    )
    await act(async () => {
      fireEvent.click(button('Send the code'))
    })
    const wait = screen.getByRole('alert')
    expect(wait.getAttribute('data-error-key')).toBe('codeMinuteLimit')
    expect(wait.textContent).toContain('one code a minute')
    expect(screen.getByText('You can ask for a new code in 20 s.')).toBeTruthy()
    expect(button('Send the code').disabled).toBe(true)
    await act(async () => {
      vi.advanceTimersByTime(20_000)
    })
    expect(screen.queryByRole('alert')).toBeNull()
    await act(async () => {
      fireEvent.click(button('Send the code'))
    })
    const day = screen.getByRole('alert')
    expect(day.getAttribute('data-error-key')).toBe('codeDayLimit')
    expect(day.textContent).toContain('try again tomorrow')
    expect(button('Send the code').disabled).toBe(true)
    expect(screen.queryByText(/You can ask for a new code in/)).toBeNull()
  })

  it('a long wait (a per-address limit) reads in minutes', async () => {
    vi.useFakeTimers({ now: NOW })
    const { api } = scriptedApi({})
    const request = vi
      .fn()
      .mockRejectedValue(new ApiError(429, '/web/x', 'tooManyRequests', 'later', [], 1800))
    render(
      <Page api={api}>
        <CodeRequest request={request} />
      </Page>,
    )
    await act(async () => {
      fireEvent.click(button('Send me a code'))
    })
    expect(screen.getByText('You can ask for a new code in 30 min.')).toBeTruthy()
  })
})

describe('<CodeStep>', () => {
  it('enters the code and offers a new one once the wait is over', async () => {
    vi.useFakeTimers({ now: NOW })
    const { api } = scriptedApi({})
    const onSubmit = vi.fn(async () => {})
    render(
      <Page api={api}>
        <CodeStep
          submitLabel="Verify"
          onSubmit={onSubmit}
          onResend={async () => ({})}
          nextCodeAt={iso(NOW + 3000)}
        />
      </Page>,
    )
    expect(button('Send a new code').disabled).toBe(true)
    await act(async () => {
      vi.advanceTimersByTime(3000)
    })
    expect(button('Send a new code').disabled).toBe(false)
    vi.useRealTimers()
    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123' } })
    fireEvent.click(button('Verify'))
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('123'))
  })
})

describe('change pages', () => {
  it('a pasted +63 number becomes 09... in the field and is sent normalised', async () => {
    const { api, post } = scriptedApi({ post: () => ({ nextCodeAt: iso(Date.now() + 60_000) }) })
    render(
      <Page api={api}>
        <ChangePhonePage />
      </Page>,
    )
    const field = screen.getByLabelText('New mobile number') as HTMLInputElement
    // Longer than the 11 digits: a browser would have cut it at maxLength before anyone saw it.
    expect(field.maxLength).toBeGreaterThanOrEqual('+63 (0) 917 123 4567'.length)
    fireEvent.change(field, { target: { value: '+63 918 123 4567' } })
    expect(field.value).toBe('09181234567')
    fireEvent.click(button('Send the code'))
    await screen.findByText('We sent a 3-digit code to 0918 123 4567.')
    expect(post).toHaveBeenCalledWith('/private/client/change/phone/send-code', {
      mobilePhone: { number: '09181234567' },
    })
  })

  it('asked again too soon (429): the code step opens counting down, and says why', async () => {
    const { api } = scriptedApi({
      post: () => {
        throw new ApiError(429, '/web/x', 'codeMinuteLimit', 'wait', [], 25)
      },
    })
    render(
      <Page api={api}>
        <ChangeEmailPage />
      </Page>,
    )
    fireEvent.change(screen.getByLabelText('New e-mail'), { target: { value: 'new@example.ph' } })
    fireEvent.click(button('Send the code'))
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-error-key')).toBe('codeMinuteLimit')
    expect(screen.getByText(/^You can ask for a new code in 2[45] s\.$/)).toBeTruthy()
    expect(screen.getByLabelText('Verification code')).toBeTruthy()
  })
})

describe('sign-up', () => {
  it('takes a pasted 63 917... number and signs up with 09...', async () => {
    const { api, post } = scriptedApi({ post: () => ({ nextCodeAt: null }) })
    const onSignedUp = vi.fn()
    render(
      <Page api={api}>
        <SignUpForm onSignedUp={onSignedUp} />
      </Page>,
    )
    const field = screen.getByLabelText('Mobile number') as HTMLInputElement
    fireEvent.change(field, { target: { value: '63 917 123 4567' } })
    expect(field.value).toBe('09171234567')
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'juan@example.ph' } })
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abcd1234' } })
    fireEvent.change(screen.getByLabelText('Repeat the password'), { target: { value: 'abcd1234' } })
    for (const box of screen.getAllByRole('checkbox').slice(0, 2)) fireEvent.click(box)
    fireEvent.click(button('Create my account'))
    await waitFor(() => expect(onSignedUp).toHaveBeenCalled())
    expect(post.mock.calls[0]?.[1]).toMatchObject({ mobilePhone: { number: '09171234567' } })
    // The device-data option was left unticked: nothing of it is asked or recorded.
    expect(post.mock.calls.map((c) => c[0])).toEqual(['/public/client'])
  })

  /** Fills the form and ticks the two required consents. */
  function fillSignUp() {
    fireEvent.change(screen.getByLabelText('Mobile number'), { target: { value: '09171234567' } })
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'juan@example.ph' } })
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abcd1234' } })
    fireEvent.change(screen.getByLabelText('Repeat the password'), { target: { value: 'abcd1234' } })
    for (const box of screen.getAllByRole('checkbox').slice(0, 2)) fireEvent.click(box)
  }

  it('the device-data option, ticked: the profiling session is asked with the consent, then recorded for the new client', async () => {
    const { api, post, put } = scriptedApi({
      post: (path) =>
        path === '/public/util/hello-soda'
          ? { provider: 'sandbox', token: 'sbx', expiresAt: iso(NOW) }
          : { nextCodeAt: null },
      put: () => ({ granted: true, at: iso(NOW), version: '2026-11-28', currentVersion: '2026-11-28' }),
    })
    const onSignedUp = vi.fn()
    render(
      <Page api={api}>
        <SignUpForm onSignedUp={onSignedUp} />
      </Page>,
    )
    fillSignUp()
    const option = screen.getByRole('checkbox', { name: /Use my device and usage data/ }) as HTMLInputElement
    expect(option.checked).toBe(false)
    fireEvent.click(option)
    fireEvent.click(button('Create my account'))
    await waitFor(() => expect(onSignedUp).toHaveBeenCalled())
    expect(post.mock.calls.map((c) => c[0])).toEqual(['/public/util/hello-soda', '/public/client'])
    expect(post.mock.calls[0]?.[1]).toEqual({
      deviceId: expect.any(String),
      consent: { deviceData: true, version: expect.any(String) },
    })
    // The sign-up body carries nothing of it.
    expect(post.mock.calls[1]?.[1]).not.toHaveProperty('deviceData')
    expect(put.mock.calls.map((c) => [c[0], c[1]])).toEqual([
      ['/private/client/consents/device-data', { granted: true, version: expect.any(String) }],
    ])
  })

  it('a profiling or consent call that fails never fails the sign-up', async () => {
    const { api } = scriptedApi({
      post: (path) => {
        if (path === '/public/util/hello-soda')
          throw new ApiError(429, path, 'tooManyRequests', 'Too many', [])
        return { nextCodeAt: null }
      },
      put: (path) => {
        throw new ApiError(500, path, 'error', 'Down', [])
      },
    })
    const onSignedUp = vi.fn()
    render(
      <Page api={api}>
        <SignUpForm onSignedUp={onSignedUp} />
      </Page>,
    )
    fillSignUp()
    fireEvent.click(screen.getByRole('checkbox', { name: /Use my device and usage data/ }))
    fireEvent.click(button('Create my account'))
    await waitFor(() => expect(onSignedUp).toHaveBeenCalled())
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
