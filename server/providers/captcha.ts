/**
 * Captcha (v3-style: a score from 0 to 1, no puzzle). The sandbox provider, the default, scores any token 0.9
 * except two documented tokens, so QA can exercise both outcomes from the browser: `sandbox-fail` (0.1, refused)
 * and `sandbox-risky` (0.6, accepted but a login then asks for a second factor). A missing token scores 0: real
 * browsers always send one.
 */

import { DomainError } from '../../domain/errors'
import { messageKeys } from '../../domain/identity'

export interface CaptchaProvider {
  /** `sandbox` for the sandbox provider; anything else is a real one (server/providers/from-env.ts). */
  readonly name: string
  /** The public key the browser's script needs (real providers); served by GET /web/public/environment. */
  readonly siteKey?: string
  /** On Hiram's scale (the thresholds below); `remoteIp`, when known, is passed on to the provider. */
  score(token: string | undefined, action: string, remoteIp?: string): Promise<number>
}

/** Below this the request is refused. */
export const CAPTCHA_MIN_SCORE = 0.5
/** Below this (and at or above the minimum) a login is risky and needs a second factor. */
export const CAPTCHA_SAFE_SCORE = 0.7
export const SANDBOX_CAPTCHA_FAIL_TOKEN = 'sandbox-fail'
export const SANDBOX_CAPTCHA_RISKY_TOKEN = 'sandbox-risky'

export const sandboxCaptcha: CaptchaProvider = {
  name: 'sandbox',
  async score(token) {
    if (!token) return 0
    if (token === SANDBOX_CAPTCHA_FAIL_TOKEN) return 0.1
    return token === SANDBOX_CAPTCHA_RISKY_TOKEN ? 0.6 : 0.9
  },
}

/** Refuses a request whose captcha scores below the minimum; returns the score for risk decisions. */
export async function assertHuman(
  provider: CaptchaProvider,
  token: string | undefined,
  action: string,
  remoteIp?: string,
) {
  const score = await provider.score(token, action, remoteIp)
  if (score < CAPTCHA_MIN_SCORE) {
    throw new DomainError(
      'invalid',
      'captchaFailed',
      'The security check failed. Please reload the page and try again.',
      [{ propertyPath: 'captchaToken', message: messageKeys.captcha }],
    )
  }
  return score
}
