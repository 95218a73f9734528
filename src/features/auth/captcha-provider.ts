/**
 * Tokens from a real captcha provider (docs/decisions/0018). The server says which provider it verifies with and
 * the public site key (GET /web/public/environment, asked by the layout: src/app/deployment.ts); this loads that provider's script once, on the first form
 * that needs a token, and mints one per submission for the form's action:
 * - reCAPTCHA v3: `grecaptcha.execute(siteKey, { action })`, invisible, a score on the server;
 * - Turnstile: an explicit widget in execute mode, shown only if Cloudflare wants an interaction.
 * Null when the server runs the sandbox captcha (or cannot say): the caller then sends its sandbox token.
 */
import { knownDeployment } from '../../app/deployment'

interface Grecaptcha {
  ready(callback: () => void): void
  execute(siteKey: string, options: { action: string }): Promise<string>
}

interface Turnstile {
  render(container: HTMLElement, options: Record<string, unknown>): string | undefined
  execute(container: HTMLElement | string): void
  reset(widget: string): void
  remove(widget: string): void
}

type CaptchaWindow = Window & { grecaptcha?: Grecaptcha; turnstile?: Turnstile }

const SCRIPTS = {
  recaptcha: (siteKey: string) =>
    `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`,
  turnstile: () => 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
} as const

type RealProvider = keyof typeof SCRIPTS

const loading = new Map<string, Promise<void>>()

function loadScript(src: string): Promise<void> {
  let promise = loading.get(src)
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script')
      script.src = src
      script.async = true
      script.onload = () => resolve()
      script.onerror = () => {
        loading.delete(src)
        script.remove()
        reject(new Error('captcha script failed to load'))
      }
      document.head.append(script)
    })
    loading.set(src, promise)
  }
  return promise
}

async function recaptchaToken(win: CaptchaWindow, siteKey: string, action: string): Promise<string> {
  if (!win.grecaptcha) await loadScript(SCRIPTS.recaptcha(siteKey))
  const grecaptcha = win.grecaptcha
  if (!grecaptcha) throw new Error('reCAPTCHA did not start')
  await new Promise<void>((resolve) => grecaptcha.ready(resolve))
  return grecaptcha.execute(siteKey, { action })
}

async function turnstileToken(win: CaptchaWindow, siteKey: string, action: string): Promise<string> {
  if (!win.turnstile) await loadScript(SCRIPTS.turnstile())
  const turnstile = win.turnstile
  if (!turnstile) throw new Error('Turnstile did not start')
  const container = document.createElement('div')
  container.className = 'captcha-challenge'
  document.body.append(container)
  let widget: string | undefined
  try {
    return await new Promise<string>((resolve, reject) => {
      widget = turnstile.render(container, {
        sitekey: siteKey,
        action,
        execution: 'execute',
        appearance: 'interaction-only',
        callback: resolve,
        'error-callback': () => reject(new Error('Turnstile failed')),
        'timeout-callback': () => reject(new Error('Turnstile timed out')),
      })
      turnstile.execute(container)
    })
  } finally {
    if (widget) turnstile.remove(widget)
    container.remove()
  }
}

/**
 * A real provider's token for `action`, or null when the server uses the sandbox captcha. A provider script that
 * fails yields an empty token: the server refuses it with its usual captcha message, which the form shows.
 */
export async function providerToken(action: string, win: CaptchaWindow = window): Promise<string | null> {
  const captcha = (await knownDeployment())?.captcha
  if (!captcha?.siteKey || !(captcha.provider in SCRIPTS)) return null
  try {
    return captcha.provider === ('recaptcha' satisfies RealProvider)
      ? await recaptchaToken(win, captcha.siteKey, action)
      : await turnstileToken(win, captcha.siteKey, action)
  } catch {
    return ''
  }
}
