/**
 * The real captcha adapter against a local fake siteverify endpoint (docs/decisions/0018): what it posts, how a
 * provider score lands on Hiram's scale, action and hostname checks, and failing closed, distinctly, when the
 * provider cannot be asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  assertHuman,
  CAPTCHA_MIN_SCORE,
  CAPTCHA_SAFE_SCORE,
  type CaptchaProvider,
} from '../../server/providers/captcha'
import {
  CaptchaUnavailableError,
  createSiteverifyCaptcha,
  toHiramScale,
} from '../../server/providers/captcha-siteverify'
import { type HttpAnswer, type RecordedPost, startHttpFake } from './fakes'

/**
 * The fake answers by token: `score-0.35` scores 0.35 (reCAPTCHA, action `login`), `action-signup` was minted for
 * sign-up, `bad` fails, `slow` answers late, `elsewhere` was solved on another site.
 */
function siteverify(post: RecordedPost): HttpAnswer {
  const { response: token, secret } = post.form
  if (secret !== 'top-secret') return { json: { success: false, 'error-codes': ['invalid-input-secret'] } }
  if (token === 'bad') return { json: { success: false, 'error-codes': ['invalid-input-response'] } }
  if (token === 'slow') return { delayMs: 1000, json: { success: true, score: 0.9, action: 'login' } }
  if (token === 'http-500') return { status: 500, text: 'oops' }
  if (token === 'not-json') return { text: '<html>' }
  if (token === 'turnstile') return { json: { success: true, action: 'login', hostname: 'hiram.ph' } }
  const score = Number(token?.replace('score-', ''))
  const action = 'login'
  const hostname = 'hiram.ph'
  if (token?.startsWith('action-'))
    return { json: { success: true, score: 0.9, action: token.slice(7), hostname } }
  if (token === 'elsewhere') return { json: { success: true, score: 0.9, action, hostname: 'evil.example' } }
  return { json: { success: true, score, action, hostname } }
}

let fake: Awaited<ReturnType<typeof startHttpFake>>
let recaptcha: CaptchaProvider
beforeAll(async () => {
  fake = await startHttpFake(siteverify)
  recaptcha = createSiteverifyCaptcha({
    kind: 'recaptcha',
    secret: 'top-secret',
    verifyUrl: `${fake.url}/recaptcha/api/siteverify`,
    minScore: 0.3,
    safeScore: 0.8,
    hostnames: ['hiram.ph'],
  })
})
afterAll(() => fake?.close())

describe('siteverify request', () => {
  it('posts secret, response and remoteip form-encoded to the verify URL', async () => {
    await recaptcha.score('score-0.9', 'login', '203.0.113.7')
    const post = fake.posts.at(-1)!
    expect(post.path).toBe('/recaptcha/api/siteverify')
    expect(post.contentType).toBe('application/x-www-form-urlencoded')
    expect(post.form).toEqual({ secret: 'top-secret', response: 'score-0.9', remoteip: '203.0.113.7' })
  })

  it('leaves remoteip out when the address is not known, and never asks for a missing token', async () => {
    const before = fake.posts.length
    await recaptcha.score('score-0.9', 'login', 'unknown')
    expect(fake.posts.at(-1)!.form).not.toHaveProperty('remoteip')
    expect(await recaptcha.score(undefined, 'login')).toBe(0)
    expect(await recaptcha.score('', 'login')).toBe(0)
    expect(fake.posts.length).toBe(before + 1)
  })
})

describe('scores on Hiram scale (deployment thresholds 0.3 and 0.8)', () => {
  it('below the configured minimum is refused', async () => {
    expect(await recaptcha.score('score-0.29', 'login')).toBeLessThan(CAPTCHA_MIN_SCORE)
    await expect(assertHuman(recaptcha, 'score-0.1', 'login')).rejects.toMatchObject({
      kind: 'invalid',
      code: 'captchaFailed',
    })
  })

  it('between minimum and safe is accepted but risky (a login asks for a code)', async () => {
    for (const token of ['score-0.3', 'score-0.5', 'score-0.79']) {
      const score = await assertHuman(recaptcha, token, 'login')
      expect(score).toBeGreaterThanOrEqual(CAPTCHA_MIN_SCORE)
      expect(score).toBeLessThan(CAPTCHA_SAFE_SCORE)
    }
  })

  it('at or above the safe score is human', async () => {
    expect(await recaptcha.score('score-0.8', 'login')).toBeGreaterThanOrEqual(CAPTCHA_SAFE_SCORE)
    expect(await recaptcha.score('score-1', 'login')).toBe(1)
  })

  it('the mapping keeps order and the default thresholds are the identity at their edges', () => {
    const scores = [0, 0.1, 0.3, 0.5, 0.7, 0.8, 0.95, 1]
    const mapped = scores.map((s) => toHiramScale(s, 0.3, 0.8))
    expect([...mapped].sort((a, b) => a - b)).toEqual(mapped)
    expect(toHiramScale(0.5, 0.5, 0.7)).toBeCloseTo(0.5)
    expect(toHiramScale(0.7, 0.5, 0.7)).toBeCloseTo(0.7)
    expect(toHiramScale(0.6, 0.5, 0.7)).toBeCloseTo(0.6)
  })

  it('refuses inconsistent thresholds at construction', () => {
    expect(() =>
      createSiteverifyCaptcha({ kind: 'recaptcha', secret: 's', minScore: 0.8, safeScore: 0.5 }),
    ).toThrow(/CAPTCHA_MIN_SCORE/)
  })
})

describe('refusals', () => {
  it('a token the provider refuses scores 0', async () => {
    expect(await recaptcha.score('bad', 'login')).toBe(0)
  })

  it('a token minted for another action is refused (a login token replayed at sign-up)', async () => {
    expect(await recaptcha.score('action-login', 'signup')).toBe(0)
    expect(await recaptcha.score('action-signup', 'signup')).toBeGreaterThanOrEqual(CAPTCHA_SAFE_SCORE)
  })

  it('a token solved on another hostname is refused when hostnames are configured', async () => {
    expect(await recaptcha.score('elsewhere', 'login')).toBe(0)
  })
})

describe('Turnstile (no score)', () => {
  it('a success is fully human', async () => {
    const turnstile = createSiteverifyCaptcha({
      kind: 'turnstile',
      secret: 'top-secret',
      verifyUrl: `${fake.url}/turnstile/v0/siteverify`,
    })
    expect(turnstile.name).toBe('turnstile')
    expect(await turnstile.score('turnstile', 'login')).toBe(1)
    expect(await turnstile.score('bad', 'login')).toBe(0)
  })
})

describe('fails closed, and says the provider is unavailable', () => {
  const unavailable = { kind: 'unavailable', code: 'captchaUnavailable' }

  it('on a 5xx or an unreadable answer', async () => {
    await expect(recaptcha.score('http-500', 'login')).rejects.toMatchObject({
      ...unavailable,
      reason: 'http_status',
    })
    await expect(recaptcha.score('not-json', 'login')).rejects.toMatchObject({
      ...unavailable,
      reason: 'unreadable_answer',
    })
  })

  it('when the provider refuses our secret (a configuration fault, not a bot)', async () => {
    const wrong = createSiteverifyCaptcha({ kind: 'recaptcha', secret: 'stale', verifyUrl: `${fake.url}/v` })
    await expect(wrong.score('score-0.9', 'login')).rejects.toMatchObject({
      ...unavailable,
      reason: 'provider_refused_us',
    })
  })

  it('on a timeout', async () => {
    const impatient = createSiteverifyCaptcha({
      kind: 'recaptcha',
      secret: 'top-secret',
      verifyUrl: `${fake.url}/v`,
      timeoutMs: 100,
    })
    await expect(impatient.score('slow', 'login')).rejects.toMatchObject({
      ...unavailable,
      reason: 'timeout',
    })
  })

  it('when nothing listens', async () => {
    const closed = await startHttpFake(() => ({}))
    await closed.close()
    const gone = createSiteverifyCaptcha({
      kind: 'recaptcha',
      secret: 'top-secret',
      verifyUrl: `${closed.url}/v`,
    })
    const error = await gone.score('score-0.9', 'login').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CaptchaUnavailableError)
    expect(error).toMatchObject({ ...unavailable, reason: 'unreachable' })
  })
})
