/**
 * The third-party fraud and profiling tools (spec section 1: device and behavioural data to a scoring provider,
 * fraud-tool session tokens; section 7: POST /public/util/hello-soda, POST /private/client/affiliates/session):
 * what the server asks them is a session token for their browser script. Their internals are out of scope.
 *
 * The sandbox (the default, and the only provider so far) is deterministic: the same subject on the same Manila
 * day always gets the same tokens, derived by HMAC from a fixed sandbox key, so tests and QA can predict them and
 * nothing leaves the process. It never runs in production unless SANDBOX=1 (server/providers/from-env.ts).
 *
 * The browser collects the device blackbox (`iovation.ioBB`) with the provider named in the session answer
 * (src/app/tracking/device-blackbox.ts); the sandbox's blackbox is `sbx1.` plus a hash of the device id.
 */
import { createHmac } from 'node:crypto'
import { manilaDate } from '../../domain/pricing/manila-date'

export interface FraudSubject {
  /** Null for hello-soda before sign-up. */
  clientId: number | null
  /** A hash of the browser's device id. */
  deviceHash: string
  now: Date
}

export interface HelloSodaToken {
  token: string
  expiresAt: Date
}

export interface FraudToolTokens {
  seonSession: string
  juicySessionId: string
  /** The pseudonymous id the session-replay tool knows the client by (never the client's own id). */
  hotjarUserId: string
  expiresAt: Date
}

export interface FraudSignalsProvider {
  readonly name: string
  helloSoda(subject: FraudSubject): Promise<HelloSodaToken>
  sessionTokens(subject: FraudSubject & { clientId: number }): Promise<FraudToolTokens>
}

export class FraudSignalsUnavailableError extends Error {
  constructor(message = 'The fraud-prevention provider is unavailable.') {
    super(message)
    this.name = 'FraudSignalsUnavailableError'
  }
}

/** Tokens last an hour: the browser asks again on its next page load after that. */
const TOKEN_LIFETIME_MS = 60 * 60 * 1000
const SANDBOX_KEY = 'hiram-sandbox-fraud-signals'

const derive = (...parts: (string | number)[]) =>
  createHmac('sha256', SANDBOX_KEY).update(parts.join('|')).digest('base64url').slice(0, 32)

export const sandboxFraudSignals: FraudSignalsProvider = {
  name: 'sandbox',
  async helloSoda({ deviceHash, now }) {
    const day = manilaDate(now)
    return {
      token: `sbx-hs-${derive('hello-soda', deviceHash, day)}`,
      expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS),
    }
  },
  async sessionTokens({ clientId, deviceHash, now }) {
    const day = manilaDate(now)
    return {
      seonSession: `sbx-seon-${derive('seon', clientId, deviceHash, day)}`,
      juicySessionId: `sbx-juicy-${derive('juicy', clientId, deviceHash, day)}`,
      hotjarUserId: `sbx-hj-${derive('hotjar', clientId)}`,
      expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS),
    }
  },
}
