/** Small pure pieces of the browser session: the runtime refresh setting and server violations on a form. */
import { describe, expect, it } from 'vitest'
import { REFRESH_INTERVAL_MS } from '../../machines/auth.machine'
import {
  AUTH_REFRESH_SETTING,
  authRefreshInterval,
  MIN_AUTH_REFRESH_MS,
} from '../../src/app/runtime-settings'
import { applyServerErrors } from '../../src/ui/forms/violations'

const storage = (value: string | null) => ({
  getItem: (key: string) => (key === AUTH_REFRESH_SETTING ? value : null),
})

describe('authRefreshInterval', () => {
  it('is the spec default without a setting or with nonsense', () => {
    for (const value of [null, '', 'abc', '-5', '0', 'Infinity'])
      expect(authRefreshInterval(storage(value))).toBe(REFRESH_INTERVAL_MS)
    expect(authRefreshInterval(undefined)).toBe(REFRESH_INTERVAL_MS)
  })

  it('can only shorten the interval, and not below a second', () => {
    expect(authRefreshInterval(storage('2000'))).toBe(2000)
    expect(authRefreshInterval(storage('10'))).toBe(MIN_AUTH_REFRESH_MS)
    expect(authRefreshInterval(storage('99999999'))).toBe(REFRESH_INTERVAL_MS)
  })
})

describe('applyServerErrors', () => {
  const failure = (violations: { propertyPath: string; message: string }[], code = 'validationError') => ({
    status: 400,
    code,
    message: 'x',
    violations,
  })

  it('puts violations on the fields of the same name and reports none left over', () => {
    const set: [string, string][] = []
    const left = applyServerErrors(
      failure([
        { propertyPath: 'mobilePhone.number', message: 'phone-error-taken' },
        { propertyPath: 'email', message: 'email-error-taken' },
      ]),
      ['mobilePhone.number', 'email', 'password'],
      (field, error) => set.push([field, error.message ?? '']),
    )
    expect(set).toEqual([
      ['mobilePhone.number', 'phone-error-taken'],
      ['email', 'email-error-taken'],
    ])
    expect(left).toBeNull()
  })

  it('answers the first violation without a field, else the error code, else generic', () => {
    const ignore = () => {}
    expect(
      applyServerErrors(
        failure([{ propertyPath: 'captchaToken', message: 'error-captcha' }]),
        ['email'],
        ignore,
      ),
    ).toBe('error-captcha')
    expect(applyServerErrors(failure([], 'codeMinuteLimit'), ['email'], ignore)).toBe('codeMinuteLimit')
    expect(applyServerErrors(new Error('offline'), ['email'], ignore)).toBe('generic')
  })
})
