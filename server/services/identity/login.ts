/**
 * The failed-login limits shared by client and back-office logins (and by the old-password check of a password
 * change), counted in the database so every server process shares them. Wrong passwords lock the requester that
 * typed them, never the account's owner: a device the account has trusted before keeps its own budget, and only
 * its own failures ask it for the second factor (NIST SP 800-63B 5.2.2: rate-limit, do not lock the subscriber
 * out). docs/decisions/0006, "Abuse of other people's accounts".
 */
import { dummyPasswordHash, verifyPassword } from '../../auth/passwords'
import type { DbOrTx } from '../../db/client'
import { isKnownTo } from './devices'
import {
  bucketFor,
  clearHits,
  clearHitsUnder,
  forgetHits,
  type Limit,
  RateLimited,
  subBucket,
  takeAttempt,
} from './throttle'

/** Failed logins per account from one unknown address, and from one unknown device, in LOGIN_WINDOW_MINUTES. */
export const LOGIN_MAX_FAILURES_PER_ACCOUNT = 5
/** Failed logins from one address (or one device id) whatever accounts it tries: password spraying. */
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 20
/** Failed logins on one account from every unknown requester together in a day (NIST: at most 100). */
export const LOGIN_MAX_UNKNOWN_FAILURES_PER_ACCOUNT_DAY = 100
/** Failed logins from one device the account trusts; from the second one on, the login needs the second factor. */
export const LOGIN_MAX_FAILURES_PER_KNOWN_DEVICE = 10
export const LOGIN_WINDOW_MINUTES = 15

export const tooManyAttempts = (retryAfter: number) =>
  new RateLimited(
    'tooManyAttempts',
    `Too many failed attempts. Please try again in ${Math.ceil(retryAfter / 60)} minute${retryAfter > 60 ? 's' : ''}.`,
    retryAfter,
  )

/** Who types the password: the caller's address and device (sha256 of its id, or null without one). */
export interface Requester {
  address: string
  deviceHash: string | null
}

export interface PasswordCheck {
  ok: boolean
  /** This requester's failures on the account within the window before this attempt (the risky-login rule). */
  priorFailures: number
  /** The device is one the account has trusted before. */
  knownDevice: boolean
}

const accountBucket = (account: string) => bucketFor('login:acct', account)

/**
 * The buckets one attempt counts in. A known device: its own budget only, untouched by anyone else's failures.
 * Anyone else: per account and address, per account and device, per address and per device across accounts,
 * and every unknown requester together per account per day.
 */
function limitsFor(account: string, requester: Requester, known: boolean) {
  const parent = accountBucket(account)
  const { address, deviceHash } = requester
  if (known) {
    const own = [
      { bucket: subBucket(parent, 'known', deviceHash!), max: LOGIN_MAX_FAILURES_PER_KNOWN_DEVICE },
    ]
    return { own, shared: [] }
  }
  // The requester's own buckets come first: their counts make the risky-login rule, a success clears them.
  const own: Limit[] = [{ bucket: subBucket(parent, 'addr', address), max: LOGIN_MAX_FAILURES_PER_ACCOUNT }]
  const shared: Limit[] = [{ bucket: bucketFor('login:addr', address), max: LOGIN_MAX_FAILURES_PER_ADDRESS }]
  if (deviceHash) {
    own.push({ bucket: subBucket(parent, 'dev', deviceHash), max: LOGIN_MAX_FAILURES_PER_ACCOUNT })
    shared.push({ bucket: bucketFor('login:dev', deviceHash), max: LOGIN_MAX_FAILURES_PER_ADDRESS })
  }
  shared.push({ bucket: parent, max: LOGIN_MAX_UNKNOWN_FAILURES_PER_ACCOUNT_DAY, windowMinutes: 24 * 60 })
  return { own, shared }
}

/**
 * Checks a password under the limits. `account` names the account when it exists (`client:12`) and the typed
 * login otherwise, so a missing account is throttled like a real one. Without a hash the dummy hash is verified,
 * keeping "no such account" as slow as "wrong password". `trustDevices: false` counts even a trusted device as
 * unknown (the old-password check of a password change: a stolen session must not get the owner's budget).
 */
export async function checkPasswordThrottled(
  db: DbOrTx,
  input: {
    account: string
    requester: Requester
    passwordHash: string | null
    password: string
    trustDevices?: boolean
  },
  now: Date,
): Promise<PasswordCheck> {
  const { account, requester } = input
  const known = input.trustDevices !== false && (await isKnownTo(db, account, requester.deviceHash))
  const { own, shared } = limitsFor(account, requester, known)
  const attempt = await takeAttempt(db, [...own, ...shared], LOGIN_WINDOW_MINUTES, now)
  if (!attempt.allowed) throw tooManyAttempts(attempt.retryAfter)
  const verified = await verifyPassword(input.passwordHash ?? (await dummyPasswordHash()), input.password)
  const ok = verified && input.passwordHash !== null
  const priorFailures = Math.max(...own.map((_, i) => attempt.counts[i]!)) - 1
  if (ok) {
    await forgetHits(db, attempt.ids)
    for (const { bucket } of own) await clearHits(db, bucket)
  }
  return { ok, priorFailures, knownDevice: known }
}

/** After a password reset (which proved the phone) the account starts with a clean slate, for every requester. */
export const clearAccountFailures = (db: DbOrTx, account: string) =>
  clearHitsUnder(db, accountBucket(account))
