/**
 * One-time verification codes. The spec fixes them at 3 digits, so guessing is made useless by the rules around
 * them, all kept in the database so every server process shares them:
 * - drawn from a CSPRNG; only an HMAC of (purpose, target, owner, code) is stored;
 * - bound to one target (phone or e-mail), one purpose and one owner (the account it was sent for); single use;
 *   valid for 10 minutes;
 * - dead after 3 wrong tries; issuing a new code kills the previous one;
 * - per target, two budgets of one code a minute (codeMinuteLimit) and CODES_PER_DAY a day (codeDayLimit): one
 *   for requests from a device the owner has trusted before, one for everyone else, so a stranger asking for
 *   codes on someone's number never uses up the owner's (docs/decisions/0006). A stranger also waits a minute
 *   after any code, so cannot replace the owner's fresh code at once. (A sandbox may shorten the minute:
 *   setCodeResendSeconds.)
 * So a number can be guessed at most CODE_MAX_WRONG * CODES_PER_DAY * 2 = 30 times a day out of 1,000 values.
 * Issuing and checking take a per-target advisory lock, so concurrent requests cannot race past the limits.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm'
import { DomainError } from '../../../domain/errors'
import type { Db, Tx } from '../../db/client'
import { verificationCode } from '../../db/schema-identity'
import { hitsSince, RateLimited, recordHit, secondsUntil } from './throttle'

export const CODE_TTL_MINUTES = 10
export const CODE_MAX_WRONG = 3
export const CODES_PER_DAY = 5
/** The wait between two codes to one target: the minute of codeMinuteLimit. */
export const CODE_RESEND_SECONDS = 60

let resendSeconds = CODE_RESEND_SECONDS

/**
 * Sandbox only: a shorter wait between two codes to one target, set once at start-up by server/main.ts from
 * SANDBOX_CODE_INTERVAL_SECONDS (read, and refused in production, by server/env.ts), so end-to-end tests do not
 * wait out real minutes. The day limit, and so the guessing bound above, stay as they are.
 */
export function setCodeResendSeconds(seconds: number) {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > CODE_RESEND_SECONDS)
    throw new RangeError(`the code resend wait must be whole seconds from 1 to ${CODE_RESEND_SECONDS}`)
  resendSeconds = seconds
}

/**
 * How many times faster than real time a sandbox lets codes come (1 in production): the hourly caps on anonymous
 * code requests per address and device scale with it, so a sandbox that sends a code a second to one target also
 * lets one test machine sign up more than 30 clients in an hour. The day caps stay real.
 */
export const codeRateFactor = () => Math.floor(CODE_RESEND_SECONDS / resendSeconds)

export type CodePurpose =
  | 'phone_verify'
  | 'email_verify'
  | 'change_phone'
  | 'change_email'
  | 'recover_password'
  | 'login_mfa'
  | 'agreement'
  | 'single_link'
  | 'payout_change'
  /** Signing an extension or a payment schedule (issue 17). */
  | 'amendment'

export const codeErrors = {
  notSent: 'Code not found by given identity',
  incorrect: 'Phone verification not passed',
} as const

export interface IssuedCode {
  /** In clear text, to be sent once and never logged or stored. */
  code: string
  /** When the next code for this target may be asked for (the UI's countdown). */
  nextCodeAt: Date
  expiresAt: Date
}

function digest(key: Uint8Array, purpose: string, target: string, owner: string, code: string) {
  return createHmac('sha256', key)
    .update(`${purpose}\u0000${target}\u0000${owner}\u0000${code}`)
    .digest('base64url')
}

const lockTarget = (tx: Tx, target: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`code:${target}`}))`)

const DAY_MS = 86_400_000

/**
 * The per-target limits for one more code: throws codeMinuteLimit or codeDayLimit (429, with the seconds to
 * wait) when the requester's budget is used up. A known requester counts only codes known requesters asked for;
 * anyone else counts their own class for the day, and every code for the minute.
 */
async function assertCodeBudget(tx: Tx, target: string, requesterKnown: boolean, now: Date) {
  const ofClass = and(
    eq(verificationCode.target, target),
    eq(verificationCode.requesterKnown, requesterKnown),
  )
  const [latest] = await tx
    .select({ at: verificationCode.createdAt })
    .from(verificationCode)
    .where(requesterKnown ? ofClass : eq(verificationCode.target, target))
    .orderBy(desc(verificationCode.createdAt))
    .limit(1)
  const nextAt = latest && new Date(latest.at.getTime() + resendSeconds * 1000)
  if (nextAt && nextAt > now)
    throw new RateLimited(
      'codeMinuteLimit',
      'Please wait a minute before asking for a new code.',
      secondsUntil(nextAt, now),
    )
  const today = await tx
    .select({ at: verificationCode.createdAt })
    .from(verificationCode)
    .where(and(ofClass, gt(verificationCode.createdAt, new Date(now.getTime() - DAY_MS))))
    .orderBy(asc(verificationCode.createdAt))
  if (today.length >= CODES_PER_DAY) {
    // A slot frees when the code that puts the day over the limit is a day old.
    const freeAt = new Date(today[today.length - CODES_PER_DAY]!.at.getTime() + DAY_MS)
    throw new RateLimited(
      'codeDayLimit',
      'Too many codes today. Please try again tomorrow.',
      secondsUntil(freeAt, now),
    )
  }
}

/**
 * Creates a code and returns it in clear text, to be sent once; throws 429 when a limit is reached.
 * `requesterKnown`: the request comes from a device the owner has trusted before (its own budget).
 */
export async function issueCode(
  db: Db,
  key: Uint8Array,
  purpose: CodePurpose,
  target: string,
  now: Date,
  owner = '',
  requesterKnown = false,
): Promise<IssuedCode> {
  return db.transaction(async (tx) => {
    await lockTarget(tx, target)
    await assertCodeBudget(tx, target, requesterKnown, now)
    await tx
      .update(verificationCode)
      .set({ invalidatedAt: now })
      .where(
        and(
          eq(verificationCode.target, target),
          eq(verificationCode.purpose, purpose),
          isNull(verificationCode.consumedAt),
          isNull(verificationCode.invalidatedAt),
        ),
      )
    const code = String(randomInt(0, 1000)).padStart(3, '0')
    const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000)
    await tx.insert(verificationCode).values({
      purpose,
      target,
      owner: owner || null,
      requesterKnown,
      codeHash: digest(key, purpose, target, owner, code),
      createdAt: now,
      expiresAt,
    })
    return { code, nextCodeAt: new Date(now.getTime() + resendSeconds * 1000), expiresAt }
  })
}

export type CodeCheck = 'ok' | 'not_sent' | 'incorrect'

/**
 * Consumes the live code when it matches; counts a wrong try otherwise. `requesterKnown` (a public check, such
 * as the password reset, says who is asking): wrong tries from a device the owner trusts count on the code as
 * usual; an unknown requester's wrong tries count apart, CODE_MAX_WRONG per code, after which the code is dead
 * for unknown requesters only. So a stranger still gets 3 guesses per code, but cannot kill the owner's code by
 * typing 3 wrong ones. Left out, every wrong try counts on the code (the checks behind a session).
 */
export async function checkCode(
  db: Db,
  key: Uint8Array,
  purpose: CodePurpose,
  target: string,
  code: string,
  now: Date,
  owner = '',
  requesterKnown?: boolean,
): Promise<CodeCheck> {
  return db.transaction(async (tx) => {
    await lockTarget(tx, target)
    const [live] = await tx
      .select()
      .from(verificationCode)
      .where(
        and(
          eq(verificationCode.target, target),
          eq(verificationCode.purpose, purpose),
          isNull(verificationCode.consumedAt),
          isNull(verificationCode.invalidatedAt),
          gt(verificationCode.expiresAt, now),
        ),
      )
      .orderBy(desc(verificationCode.createdAt), desc(verificationCode.id))
      .limit(1)
    // A code sent for another account is, for this one, a code never sent.
    if (!live || (live.owner ?? '') !== owner) return 'not_sent'
    const strangerTries = `code:stranger:${live.id}`
    if (
      requesterKnown === false &&
      (await hitsSince(tx, strangerTries, new Date(live.createdAt.getTime() - 1))) >= CODE_MAX_WRONG
    )
      return 'not_sent'
    const expected = Buffer.from(live.codeHash)
    const actual = Buffer.from(digest(key, purpose, target, owner, code))
    if (expected.length === actual.length && timingSafeEqual(expected, actual)) {
      await tx.update(verificationCode).set({ consumedAt: now }).where(eq(verificationCode.id, live.id))
      return 'ok'
    }
    if (requesterKnown === false) {
      await recordHit(tx, strangerTries, now)
      return 'incorrect'
    }
    const attempts = live.attempts + 1
    await tx
      .update(verificationCode)
      .set({ attempts, invalidatedAt: attempts >= CODE_MAX_WRONG ? now : null })
      .where(eq(verificationCode.id, live.id))
    return 'incorrect'
  })
}

/** The spec's answers: not sent -> 'Code not found by given identity'; incorrect -> 'Phone verification not passed'. */
export function assertCode(result: CodeCheck, field = 'code') {
  if (result === 'not_sent')
    throw new DomainError('refused', 'codeNotSent', codeErrors.notSent, [
      { propertyPath: field, message: codeErrors.notSent },
    ])
  if (result === 'incorrect')
    throw new DomainError('refused', 'codeIncorrect', codeErrors.incorrect, [
      { propertyPath: field, message: codeErrors.incorrect },
    ])
}
