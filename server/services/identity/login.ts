/**
 * The failed-login limits shared by client and back-office logins (and by the old-password check of a password
 * change): per account and per address, counted in the database so every server process shares them.
 */
import { dummyPasswordHash, verifyPassword } from '../../auth/passwords'
import type { DbOrTx } from '../../db/client'
import { ApiError } from '../../http/errors'
import { bucketFor, clearHits, forgetHits, takeAttempt } from './throttle'

/** Failed logins allowed per account and per address in LOGIN_WINDOW_MINUTES; the next attempt gets a 429. */
export const LOGIN_MAX_FAILURES_PER_ACCOUNT = 5
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 20
export const LOGIN_WINDOW_MINUTES = 15

export const tooManyAttempts = () =>
  new ApiError(
    429,
    'tooManyAttempts',
    `Too many failed attempts. Please try again in ${LOGIN_WINDOW_MINUTES} minutes.`,
  )

export interface PasswordCheck {
  ok: boolean
  /** Failures on the account within the window before this attempt (the risky-login rule reads it). */
  priorFailures: number
}

/**
 * Checks a password under the limits. `account` names the account when it exists (`client:12`) and the typed
 * login otherwise, so a missing account is throttled like a real one. Without a hash the dummy hash is verified,
 * keeping "no such account" as slow as "wrong password".
 */
export async function checkPasswordThrottled(
  db: DbOrTx,
  input: { account: string; address: string; passwordHash: string | null; password: string },
  now: Date,
): Promise<PasswordCheck> {
  const accountBucket = bucketFor('login:acct', input.account)
  const attempt = await takeAttempt(
    db,
    [
      { bucket: accountBucket, max: LOGIN_MAX_FAILURES_PER_ACCOUNT },
      { bucket: bucketFor('login:addr', input.address), max: LOGIN_MAX_FAILURES_PER_ADDRESS },
    ],
    LOGIN_WINDOW_MINUTES,
    now,
  )
  if (!attempt.allowed) throw tooManyAttempts()
  const verified = await verifyPassword(input.passwordHash ?? (await dummyPasswordHash()), input.password)
  const ok = verified && input.passwordHash !== null
  const priorFailures = attempt.counts[0]! - 1
  if (ok) {
    await forgetHits(db, attempt.ids)
    await clearHits(db, accountBucket)
  }
  return { ok, priorFailures }
}

/** After a password reset the account starts with a clean slate. */
export const clearAccountFailures = (db: DbOrTx, account: string) =>
  clearHits(db, bucketFor('login:acct', account))
