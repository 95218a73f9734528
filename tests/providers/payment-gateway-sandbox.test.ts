/**
 * The sandbox payment gateway's signatures and retries (issue 16, item 5): `Hiram-Signature: t=<unix seconds>,
 * v1=<hex HMAC-SHA256 of "t.rawBody">`, checked in constant time within 5 minutes either way; malformed headers
 * refused; several v1 values (key rotation), any one matching; and the backoff of a failed delivery.
 */
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  createSandboxGateway,
  newChargeId,
  newEventId,
  parseSignature,
  randomAlphanumeric,
  retryDelayMs,
  SANDBOX_MAX_ATTEMPTS,
  SANDBOX_RETRY_DELAYS_MS,
  SIGNATURE_TOLERANCE_SECONDS,
  signatureFor,
  verifySignature,
} from '../../server/providers/payment-gateway-sandbox'

const SECRET = 'unit-test-sandbox-gateway-secret-0123456789'
const NOW = new Date('2026-03-02T04:05:06.789Z')
const T = Math.floor(NOW.getTime() / 1000)
const BODY = JSON.stringify({
  id: 'evt_1',
  type: 'payment.paid',
  data: { paymentId: 'chg_1', amount: 100_00 },
})

const hmac = (secret: string, t: number, body: string) =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
const seconds = (s: number) => new Date(NOW.getTime() + s * 1000)

describe('Hiram-Signature', () => {
  it('is t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.rawBody">', () => {
    expect(signatureFor(SECRET, BODY, NOW)).toBe(`t=${T},v1=${hmac(SECRET, T, BODY)}`)
  })

  it('a good signature passes, at the same instant and anywhere inside the 5-minute window, either way', () => {
    const header = signatureFor(SECRET, BODY, NOW)
    expect(verifySignature(SECRET, header, BODY, NOW)).toBe(true)
    expect(verifySignature(SECRET, header, BODY, seconds(SIGNATURE_TOLERANCE_SECONDS))).toBe(true)
    expect(verifySignature(SECRET, header, BODY, seconds(-SIGNATURE_TOLERANCE_SECONDS))).toBe(true)
    // Spaces around the parts are tolerated; other schemes are skipped.
    expect(verifySignature(SECRET, `t=${T}, v0=abc, v1=${hmac(SECRET, T, BODY)}`, BODY, NOW)).toBe(true)
  })

  it('a missing or malformed header fails', () => {
    const good = hmac(SECRET, T, BODY)
    const malformed = [
      null,
      '',
      'garbage',
      `${T},${good}`,
      `t=${T}`,
      `v1=${good}`,
      `t=,v1=${good}`,
      `t=${T}x,v1=${good}`,
      `t=-${T},v1=${good}`,
      `t=${T}.5,v1=${good}`,
      `t=${T},t=${T},v1=${good}`,
      `t=${T},v1=${good.slice(0, 63)}`,
      `t=${T},v1=${good}00`,
      `t=${T},v1=${good.replace(/^./, 'g')}`,
      `t=${T},v1=${good},=x`,
      `t=${T},v1=${good},`,
      // Too long to be the sandbox's, whatever it holds.
      `t=${T},v1=${good},v0=${'a'.repeat(1024)}`,
      `t=${T},${Array.from({ length: 9 }, () => `v1=${good}`).join(',')}`,
    ]
    for (const header of malformed)
      expect(verifySignature(SECRET, header, BODY, NOW), String(header)).toBe(false)
    expect(parseSignature(`t=1,v1=${'a'.repeat(64)}`)).toEqual({ t: 1, v1: [Buffer.alloc(32, 0xaa)] })
  })

  it('a wrong signature fails: another secret, another body, another timestamp', () => {
    expect(
      verifySignature(SECRET, signatureFor('another-secret-of-enough-length-xx', BODY, NOW), BODY, NOW),
    ).toBe(false)
    expect(verifySignature(SECRET, signatureFor(SECRET, BODY, NOW), `${BODY} `, NOW)).toBe(false)
    expect(verifySignature(SECRET, `t=${T + 1},v1=${hmac(SECRET, T, BODY)}`, BODY, NOW)).toBe(false)
  })

  it('a stale signature fails: more than 5 minutes old, or more than 5 minutes in the future', () => {
    const header = signatureFor(SECRET, BODY, NOW)
    expect(verifySignature(SECRET, header, BODY, seconds(SIGNATURE_TOLERANCE_SECONDS + 1))).toBe(false)
    expect(verifySignature(SECRET, header, BODY, seconds(-SIGNATURE_TOLERANCE_SECONDS - 1))).toBe(false)
    expect(verifySignature(SECRET, signatureFor(SECRET, BODY, seconds(-3600)), BODY, NOW)).toBe(false)
    expect(verifySignature(SECRET, signatureFor(SECRET, BODY, seconds(3600)), BODY, NOW)).toBe(false)
  })

  it('several v1 values (key rotation): any one matching passes, none matching fails', () => {
    const old = hmac('the-old-secret-being-rotated-out-0000', T, BODY)
    const current = hmac(SECRET, T, BODY)
    expect(verifySignature(SECRET, `t=${T},v1=${old},v1=${current}`, BODY, NOW)).toBe(true)
    expect(verifySignature(SECRET, `t=${T},v1=${current},v1=${old}`, BODY, NOW)).toBe(true)
    expect(verifySignature(SECRET, `t=${T},v1=${old},v1=${old}`, BODY, NOW)).toBe(false)
  })

  it('the gateway reads the header case-insensitively and signs what it verifies; a lazy secret is read each time', () => {
    let secret = SECRET
    const gateway = createSandboxGateway({ secret: () => secret, deliver: async () => new Response(null) })
    const headers = new Headers({ 'hiram-signature': gateway.sign(BODY, NOW) })
    expect(gateway.verifyWebhook(headers, BODY, NOW)).toBe(true)
    expect(gateway.verifyWebhook(new Headers(), BODY, NOW)).toBe(false)
    secret = 'a-rotated-secret-for-this-gateway-000000'
    expect(gateway.verifyWebhook(headers, BODY, NOW)).toBe(false)
  })

  it('posts the signed body to our webhook endpoint as JSON, and answers the status', async () => {
    const seen: Request[] = []
    const gateway = createSandboxGateway({
      secret: SECRET,
      deliver: async (request) => {
        seen.push(request.clone())
        return new Response('{}', { status: 202 })
      },
    })
    expect(await gateway.post(BODY, NOW)).toBe(202)
    const [request] = seen
    expect(request!.method).toBe('POST')
    expect(new URL(request!.url).pathname).toBe('/web/public/payments/webhook/sandbox')
    expect(request!.headers.get('content-type')).toBe('application/json')
    const body = await request!.text()
    expect(body).toBe(BODY)
    expect(verifySignature(SECRET, request!.headers.get('Hiram-Signature'), body, NOW)).toBe(true)
  })
})

describe('delivery backoff', () => {
  it('waits 10 s, 30 s, 2 min, 10 min, 1 h, then longer, and gives up after 10 attempts', () => {
    const schedule = Array.from({ length: SANDBOX_MAX_ATTEMPTS }, (_, i) => retryDelayMs(i + 1))
    expect(schedule).toEqual([
      10_000,
      30_000,
      120_000,
      600_000,
      3_600_000,
      7_200_000,
      14_400_000,
      28_800_000,
      43_200_000,
      null,
    ])
    expect(SANDBOX_MAX_ATTEMPTS).toBe(10)
    expect(retryDelayMs(0)).toBeNull()
    expect(retryDelayMs(11)).toBeNull()
    // Each wait is longer than the one before; together they span a day and a bit (an outage of a night is survived).
    for (let i = 1; i < SANDBOX_RETRY_DELAYS_MS.length; i++)
      expect(SANDBOX_RETRY_DELAYS_MS[i]!).toBeGreaterThan(SANDBOX_RETRY_DELAYS_MS[i - 1]!)
    const total = SANDBOX_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)
    expect(total).toBeGreaterThan(86_400_000)
    expect(total).toBeLessThan(2 * 86_400_000)
  })
})

describe('ids', () => {
  it('charges are chg_ and events evt_ with 24 random letters and digits', () => {
    const charges = new Set(Array.from({ length: 200 }, newChargeId))
    expect(charges.size).toBe(200)
    for (const id of charges) expect(id).toMatch(/^chg_[A-Za-z0-9]{24}$/)
    expect(newEventId()).toMatch(/^evt_[A-Za-z0-9]{24}$/)
    // Every letter and digit turns up.
    expect(new Set(randomAlphanumeric(20_000)).size).toBe(62)
  })
})
