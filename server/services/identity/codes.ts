/**
 * One-time verification codes. The spec fixes them at 3 digits, so guessing is made useless by the rules around
 * them, all kept in the database so every server process shares them:
 * - drawn from a CSPRNG; only an HMAC of (purpose, target, owner, code) is stored;
 * - bound to one target (phone or e-mail), one purpose and one owner (the account it was sent for); single use;
 *   valid for 10 minutes;
 * - dead after 3 wrong tries; issuing a new code kills the previous one;
 * - at most one code a minute (codeMinuteLimit) and CODES_PER_DAY a day (codeDayLimit) per target.
 * So a number can be guessed at most CODE_MAX_WRONG * CODES_PER_DAY = 15 times a day out of 1,000 values.
 * Issuing and checking take a per-target advisory lock, so concurrent requests cannot race past the limits.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { verificationCode } from '../../db/schema-identity'
import { ApiError } from '../../http/errors'

export const CODE_TTL_MINUTES = 10
export const CODE_MAX_WRONG = 3
export const CODES_PER_DAY = 5
export const CODE_RESEND_SECONDS = 60

export type CodePurpose =
  | 'phone_verify'
  | 'email_verify'
  | 'change_phone'
  | 'change_email'
  | 'recover_password'
  | 'login_mfa'
  | 'agreement'
  | 'single_link'

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

/** Creates a code and returns it in clear text, to be sent once; throws 429 when a limit is reached. */
export async function issueCode(
  db: Db,
  key: Uint8Array,
  purpose: CodePurpose,
  target: string,
  now: Date,
  owner = '',
): Promise<IssuedCode> {
  return db.transaction(async (tx) => {
    await lockTarget(tx, target)
    const minuteAgo = new Date(now.getTime() - CODE_RESEND_SECONDS * 1000)
    const dayAgo = new Date(now.getTime() - 86_400_000)
    const [recent] = await tx
      .select({ n: count() })
      .from(verificationCode)
      .where(and(eq(verificationCode.target, target), gt(verificationCode.createdAt, minuteAgo)))
    if ((recent?.n ?? 0) > 0)
      throw new ApiError(429, 'codeMinuteLimit', 'Please wait a minute before asking for a new code.')
    const [daily] = await tx
      .select({ n: count() })
      .from(verificationCode)
      .where(and(eq(verificationCode.target, target), gt(verificationCode.createdAt, dayAgo)))
    if ((daily?.n ?? 0) >= CODES_PER_DAY)
      throw new ApiError(429, 'codeDayLimit', 'Too many codes today. Please try again tomorrow.')

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
      codeHash: digest(key, purpose, target, owner, code),
      createdAt: now,
      expiresAt,
    })
    return { code, nextCodeAt: new Date(now.getTime() + CODE_RESEND_SECONDS * 1000), expiresAt }
  })
}

/** When the target may be sent its next code (for the UI's countdown after a codeMinuteLimit). */
export async function nextCodeAllowedAt(db: Db, target: string, now: Date): Promise<Date> {
  const [latest] = await db
    .select({ at: verificationCode.createdAt })
    .from(verificationCode)
    .where(eq(verificationCode.target, target))
    .orderBy(desc(verificationCode.createdAt))
    .limit(1)
  const next = latest ? new Date(latest.at.getTime() + CODE_RESEND_SECONDS * 1000) : now
  return next > now ? next : now
}

export type CodeCheck = 'ok' | 'not_sent' | 'incorrect'

/** Consumes the live code when it matches; counts a wrong try otherwise. */
export async function checkCode(
  db: Db,
  key: Uint8Array,
  purpose: CodePurpose,
  target: string,
  code: string,
  now: Date,
  owner = '',
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
    const expected = Buffer.from(live.codeHash)
    const actual = Buffer.from(digest(key, purpose, target, owner, code))
    if (expected.length === actual.length && timingSafeEqual(expected, actual)) {
      await tx.update(verificationCode).set({ consumedAt: now }).where(eq(verificationCode.id, live.id))
      return 'ok'
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
    throw new ApiError(422, 'codeNotSent', codeErrors.notSent, [
      { propertyPath: field, message: codeErrors.notSent },
    ])
  if (result === 'incorrect')
    throw new ApiError(422, 'codeIncorrect', codeErrors.incorrect, [
      { propertyPath: field, message: codeErrors.incorrect },
    ])
}
