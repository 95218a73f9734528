/**
 * Real captcha: server-side verification of a browser token at a "siteverify" endpoint, the protocol shared by
 * Google reCAPTCHA v3 and Cloudflare Turnstile (POST `secret`, `response`, `remoteip` form-encoded; a JSON answer
 * with `success`, `action`, `hostname`, `error-codes` and, for reCAPTCHA, `score`).
 *
 * The provider's score is mapped onto Hiram's scale (captcha.ts: below CAPTCHA_MIN_SCORE refused, below
 * CAPTCHA_SAFE_SCORE a login is risky and asks for a code) through the deployment's own two thresholds, so the
 * routes keep one rule whatever the provider. Turnstile has no score: a success is fully human.
 *
 * Fails closed: a token the provider refuses scores 0 (the 400 `captchaFailed` answer), and a provider that
 * cannot be asked (network error, timeout, 5xx, unreadable answer, our own secret refused) throws
 * CaptchaUnavailableError, a distinct 503, so neither the user nor the logs mistake an outage for a bot.
 */
import type { Logger } from 'pino'
import { DomainError } from '../../domain/errors'
import { CAPTCHA_MIN_SCORE, CAPTCHA_SAFE_SCORE, type CaptchaProvider } from './captcha'

export type SiteverifyKind = 'recaptcha' | 'turnstile'

export const SITEVERIFY_URLS: Record<SiteverifyKind, string> = {
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
}

export interface SiteverifyOptions {
  kind: SiteverifyKind
  secret: string
  /** Public, for the browser's script. */
  siteKey?: string
  /** Defaults to the provider's public endpoint; tests point it at a local fake. */
  verifyUrl?: string
  /** Provider scores below this are refused (CAPTCHA_MIN_SCORE, default 0.5). */
  minScore?: number
  /** Provider scores below this (and at or above minScore) make a login ask for a code (default 0.7). */
  safeScore?: number
  /** When set, a token solved on another hostname is refused. */
  hostnames?: readonly string[]
  timeoutMs?: number
  logger?: Logger
  fetch?: typeof fetch
}

/** The provider could not be asked: not the user's fault, and not a pass either. */
export class CaptchaUnavailableError extends DomainError {
  constructor(readonly reason: string) {
    super(
      'unavailable',
      'captchaUnavailable',
      'The security check is not available just now. Please try again in a minute.',
    )
    this.name = 'CaptchaUnavailableError'
  }
}

interface SiteverifyAnswer {
  success?: unknown
  score?: unknown
  action?: unknown
  hostname?: unknown
  'error-codes'?: unknown
}

/** Error codes that mean our configuration is wrong, not the user's token. */
const OUR_FAULT = new Set(['missing-input-secret', 'invalid-input-secret', 'internal-error', 'bad-request'])

/**
 * A provider score (0..1) on Hiram's scale: [0, min) -> [0, 0.5), [min, safe) -> [0.5, 0.7), [safe, 1] -> [0.7, 1].
 * Order is kept, so the routes' thresholds mean "the deployment's minimum" and "the deployment's safe score".
 */
export function toHiramScale(score: number, minScore: number, safeScore: number): number {
  const s = Math.min(1, Math.max(0, score))
  if (s < minScore) return (s / minScore) * CAPTCHA_MIN_SCORE
  if (s < safeScore)
    return (
      CAPTCHA_MIN_SCORE + ((s - minScore) / (safeScore - minScore)) * (CAPTCHA_SAFE_SCORE - CAPTCHA_MIN_SCORE)
    )
  if (safeScore >= 1) return 1
  return CAPTCHA_SAFE_SCORE + ((s - safeScore) / (1 - safeScore)) * (1 - CAPTCHA_SAFE_SCORE)
}

export function createSiteverifyCaptcha(options: SiteverifyOptions): CaptchaProvider {
  const verifyUrl = options.verifyUrl ?? SITEVERIFY_URLS[options.kind]
  const minScore = options.minScore ?? CAPTCHA_MIN_SCORE
  const safeScore = options.safeScore ?? CAPTCHA_SAFE_SCORE
  if (!(minScore > 0 && minScore <= safeScore && safeScore <= 1))
    throw new Error('Captcha scores must satisfy 0 < CAPTCHA_MIN_SCORE <= CAPTCHA_SAFE_SCORE <= 1')
  const timeoutMs = options.timeoutMs ?? 5000
  const doFetch = options.fetch ?? fetch
  const log = options.logger

  const unavailable = (reason: string, extra: Record<string, unknown> = {}) => {
    log?.warn({ provider: options.kind, reason, ...extra }, 'captcha provider unavailable: request refused')
    return new CaptchaUnavailableError(reason)
  }
  const refused = (action: string, reason: string, extra: Record<string, unknown> = {}) => {
    log?.info({ provider: options.kind, action, reason, ...extra }, 'captcha refused')
    return 0
  }

  return {
    name: options.kind,
    siteKey: options.siteKey,
    async score(token, action, remoteIp) {
      // A missing token never reaches the provider: real browsers always send one.
      if (!token) return 0
      const form = new URLSearchParams({ secret: options.secret, response: token })
      if (remoteIp && remoteIp !== 'unknown') form.set('remoteip', remoteIp)
      let response: Response
      try {
        response = await doFetch(verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
          signal: AbortSignal.timeout(timeoutMs),
        })
      } catch (error) {
        const name = (error as Error)?.name
        throw unavailable(name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'unreachable')
      }
      if (!response.ok) {
        await response.body?.cancel()
        throw unavailable('http_status', { status: response.status })
      }
      let answer: SiteverifyAnswer
      try {
        answer = (await response.json()) as SiteverifyAnswer
      } catch {
        throw unavailable('unreadable_answer')
      }
      if (typeof answer !== 'object' || answer === null) throw unavailable('unreadable_answer')
      const errorCodes = Array.isArray(answer['error-codes']) ? answer['error-codes'].map(String) : []
      if (answer.success !== true) {
        if (errorCodes.some((code) => OUR_FAULT.has(code)))
          throw unavailable('provider_refused_us', { errorCodes })
        return refused(action, 'not_successful', { errorCodes })
      }
      // A token minted for another form (a login token replayed at sign-up) is not this form's proof.
      if (typeof answer.action === 'string' && answer.action !== '' && answer.action !== action)
        return refused(action, 'action_mismatch')
      if (options.hostnames?.length && !options.hostnames.includes(String(answer.hostname)))
        return refused(action, 'hostname_mismatch')
      if (options.kind === 'turnstile' && typeof answer.score !== 'number') return 1
      if (typeof answer.score !== 'number' || !Number.isFinite(answer.score))
        throw unavailable('unreadable_answer')
      return toHiramScale(answer.score, minScore, safeScore)
    },
  }
}
