// @vitest-environment happy-dom
/**
 * The browser side of a real captcha (docs/decisions/0018): when the server says it verifies with reCAPTCHA or
 * Turnstile, a form's token comes from that provider's script for the form's action, and the QA override of the
 * sandbox no longer applies; with the sandbox captcha (or no answer) the sandbox token stays.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Environment } from '../../domain/environment'
import { fetchDeployment } from '../../src/app/deployment'
import { captchaToken, SANDBOX_CAPTCHA_KEY } from '../../src/features/auth/captcha'
import { providerToken } from '../../src/features/auth/captcha-provider'
import { withCall } from '../support/fake-api'

type TestWindow = Window & { grecaptcha?: unknown; turnstile?: unknown }
const win = window as TestWindow

afterEach(() => {
  delete win.grecaptcha
  delete win.turnstile
  localStorage.clear()
  vi.restoreAllMocks()
})

async function serverSays(captcha: Environment['captcha'] | 'fails') {
  const api = withCall({
    get: async () => {
      if (captcha === 'fails') throw new Error('offline')
      return { sandbox: false, sandboxMode: false, sandboxed: [], captcha } satisfies Environment
    },
  })
  await fetchDeployment(api)
}

describe('captcha tokens in the browser', () => {
  it('the sandbox captcha keeps the sandbox token and its QA override', async () => {
    await serverSays({ provider: 'sandbox', siteKey: null })
    expect(await providerToken('login')).toBeNull()
    expect(await captchaToken('login')).toMatch(/^sandbox-login-/)
    localStorage.setItem(SANDBOX_CAPTCHA_KEY, 'sandbox-risky')
    expect(await captchaToken('login')).toBe('sandbox-risky')
  })

  it('no answer from the server is the sandbox token too (the server still decides)', async () => {
    await serverSays('fails')
    expect(await captchaToken('signup')).toMatch(/^sandbox-signup-/)
  })

  it('reCAPTCHA v3: the token of grecaptcha.execute for the site key and the form action, no QA override', async () => {
    await serverSays({ provider: 'recaptcha', siteKey: 'site-key-1' })
    const execute = vi.fn(async (_key: string, options: { action: string }) => `rc-${options.action}`)
    win.grecaptcha = { ready: (callback: () => void) => callback(), execute }
    localStorage.setItem(SANDBOX_CAPTCHA_KEY, 'sandbox-risky')
    expect(await captchaToken('user_login')).toBe('rc-user_login')
    expect(execute).toHaveBeenCalledWith('site-key-1', { action: 'user_login' })
  })

  it('loads the provider script once when it is not there; a script that fails gives an empty token', async () => {
    await serverSays({ provider: 'recaptcha', siteKey: 'k&1' })
    const appended: HTMLScriptElement[] = []
    vi.spyOn(document.head, 'append').mockImplementation((...nodes) => {
      for (const node of nodes) appended.push(node as HTMLScriptElement)
    })
    const token = providerToken('login')
    await vi.waitFor(() => expect(appended).toHaveLength(1))
    expect(appended[0]!.src).toBe('https://www.google.com/recaptcha/api.js?render=k%261')
    appended[0]!.onerror?.(new Event('error'))
    expect(await token).toBe('')
  })

  it('Turnstile: an execute-mode widget for the action, removed once it answered', async () => {
    await serverSays({ provider: 'turnstile', siteKey: 'ts-key' })
    let options: Record<string, unknown> = {}
    const remove = vi.fn()
    win.turnstile = {
      render: (_container: HTMLElement, given: Record<string, unknown>) => {
        options = given
        return 'widget-1'
      },
      execute: () => (options.callback as (token: string) => void)(`ts-${options.action}`),
      reset: () => {},
      remove,
    }
    expect(await captchaToken('signup')).toBe('ts-signup')
    expect(options).toMatchObject({ sitekey: 'ts-key', action: 'signup', execution: 'execute' })
    expect(remove).toHaveBeenCalledWith('widget-1')
    expect(document.querySelector('.captcha-challenge')).toBeNull()
  })
})
