/**
 * Sending a code (SMS or e-mail) on behalf of a request: under the limits of whoever asks (the owner's trusted
 * device, a stranger, an anonymous address), for every route that sends one (identity, payout change,
 * signing). HTTP-side because the requester is read off the request; the codes themselves are
 * server/services/identity/codes.ts and messages.ts.
 */
import type { Context } from 'hono'
import { clientAddress, deviceIdOf } from '../auth/transport'
import { MessageNotSentError } from '../providers/messaging-live'
import { CODE_RESEND_SECONDS, codeRateFactor } from '../services/identity/codes'
import { hashDevice, isKnownTo } from '../services/identity/devices'
import { type SendCode, sendCode } from '../services/identity/messages'
import { sessionDevice } from '../services/identity/sessions'
import { bucketFor, limitPerAddress, limitRequests, RateLimited } from '../services/identity/throttle'
import type { AppEnv } from './context'
import { db, deps } from './request'

/**
 * Anonymous code requests from unknown devices (sign-ups too) per address and hour, and per address and day:
 * SMS pumping costs real money, and one caller must not spray numbers. Known devices are exempt (many
 * borrowers share one carrier-grade NAT address).
 */
export const PUBLIC_CODES_PER_ADDRESS_HOUR = 30
export const PUBLIC_CODES_PER_ADDRESS_DAY = 100
/** The same per device id (a header anyone can change, so only the address cap really binds a determined caller). */
export const PUBLIC_CODES_PER_DEVICE_HOUR = 10

/**
 * The caller's device (sha256 of its id): on a private call the device its session was opened from, else the
 * `x-device-id` header or the body's `deviceId`.
 */
export async function requesterDevice(c: Context<AppEnv>, fromBody?: string): Promise<string | null> {
  const principal = c.get('principal')
  if (principal) return sessionDevice(db(c), principal.sessionId)
  return hashDevice(deviceIdOf(c, fromBody))
}

/** The caller's address and device, as the failed-login limits key them. */
export const requesterOf = async (c: Context<AppEnv>, fromBody?: string) => ({
  address: clientAddress(c),
  deviceHash: await requesterDevice(c, fromBody),
})

/** The per-address and per-device caps on anonymous code requests from devices the owner does not trust. */
async function limitAnonymousCodes(c: Context<AppEnv>, deviceHash: string | null) {
  const address = clientAddress(c)
  // A sandbox with a shortened code interval (SANDBOX_CODE_INTERVAL_SECONDS) compresses the hour caps alike.
  const factor = codeRateFactor()
  const limits = [
    { bucket: bucketFor('addr:public-code', address), max: PUBLIC_CODES_PER_ADDRESS_HOUR * factor },
    {
      bucket: bucketFor('addr:public-code-day', address),
      max: PUBLIC_CODES_PER_ADDRESS_DAY,
      windowMinutes: 1440,
    },
  ]
  if (deviceHash)
    limits.push({
      bucket: bucketFor('dev:public-code', deviceHash),
      max: PUBLIC_CODES_PER_DEVICE_HOUR * factor,
    })
  await limitRequests(db(c), limits, 60, deps(c).now())
}

/**
 * Issues and sends a code under the limits of its requester: a device the owner trusts has the owner's own
 * per-target budget; anyone else shares the strangers' budget, and an anonymous one is capped per address and
 * device too. The code itself never leaves this call except through the provider.
 */
async function issueAndSend(c: Context<AppEnv>, input: SendCode, options: DeliverOptions = {}) {
  const { database, messaging, secrets, now } = deps(c)
  const deviceHash = await requesterDevice(c, options.deviceId)
  const requesterKnown = Boolean(input.owner) && (await isKnownTo(db(c), input.owner!, deviceHash))
  if (!requesterKnown && !c.get('principal') && !options.addressCapped)
    await limitAnonymousCodes(c, deviceHash)
  return sendCode(database.db, messaging, secrets.codeKey, { ...input, requesterKnown }, now())
}

export interface DeliverOptions {
  /** The body's `deviceId`, where the route takes one. */
  deviceId?: string
  /** The route already counted this request against the per-address cap (sign-up). */
  addressCapped?: boolean
}

/** Issues and sends a code; a limit reached answers 429 with `Retry-After` (the error handler's). */
export const deliverCode = (c: Context<AppEnv>, input: SendCode, options?: DeliverOptions) =>
  issueAndSend(c, input, options)

/**
 * Like deliverCode, but a limit reached is not an error (a login must still answer): the answer then says when
 * a code may be asked for again, or null when the day's codes are used up. A provider that failed to send is
 * the same: the code was issued, so the account (a sign-up's, already created) stays and "Send again" opens
 * after the usual resend wait; a 503 there would leave a sign-up unable to retry ("phone taken").
 */
export async function tryDeliverCode(
  c: Context<AppEnv>,
  input: SendCode,
  options?: DeliverOptions,
): Promise<{ nextCodeAt: Date | null }> {
  try {
    return await issueAndSend(c, input, options)
  } catch (error) {
    if (error instanceof MessageNotSentError)
      return { nextCodeAt: new Date(deps(c).now().getTime() + CODE_RESEND_SECONDS * 1000) }
    if (!(error instanceof RateLimited)) throw error
    if (error.code !== 'codeMinuteLimit') return { nextCodeAt: null }
    return { nextCodeAt: new Date(deps(c).now().getTime() + error.retryAfter * 1000) }
  }
}

/** Sign-ups per address: each one creates an account and sends an SMS (the hour cap scales like the codes'). */
export const limitPublicCodes = (c: Context<AppEnv>) =>
  limitPerAddress(
    db(c),
    'public-code',
    clientAddress(c),
    PUBLIC_CODES_PER_ADDRESS_HOUR * codeRateFactor(),
    60,
    deps(c).now(),
  )
