/**
 * Sliding-window counters in the database (shared by every server process): failed logins per account and
 * requester, and requests per address or device. A bucket is a string such as `login:acct:<hash>`; only hashes
 * of identifiers are stored.
 */
import { createHash } from 'node:crypto'
import { and, asc, count, eq, gt, inArray, lt, sql } from 'drizzle-orm'
import { DomainError } from '../../../domain/errors'
import type { DbOrTx } from '../../db/client'
import { throttleEvent } from '../../db/schema-identity'

const hashOf = (identifier: string) =>
  createHash('sha256').update(identifier.toLowerCase()).digest('base64url').slice(0, 32)

export const bucketFor = (kind: string, identifier: string) => `${kind}:${hashOf(identifier)}`

/** A bucket under another one's name (`login:acct:<account>:addr:<address>`), cleared with it by `clearHitsUnder`. */
export const subBucket = (parent: string, kind: string, identifier: string) =>
  `${parent}:${kind}:${hashOf(identifier)}`

/**
 * A 429 that says when to come back: the error handler's answer carries the code, the message and
 * `Retry-After` (seconds, from `retryAfter`), so the browser can show a countdown.
 */
export class RateLimited extends DomainError {
  constructor(
    code: string,
    message: string,
    readonly retryAfter: number,
  ) {
    super('rateLimited', code, message, [], retryAfter)
  }
}

/** Whole seconds until `at`, at least 1 (a Retry-After of 0 would invite a tight loop). */
export const secondsUntil = (at: Date, now: Date) =>
  Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000))

export async function recordHit(db: DbOrTx, bucket: string, now: Date) {
  const [row] = await db.insert(throttleEvent).values({ bucket, at: now }).returning({ id: throttleEvent.id })
  return row!.id
}

export async function hitsSince(db: DbOrTx, bucket: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(throttleEvent)
    .where(and(eq(throttleEvent.bucket, bucket), gt(throttleEvent.at, since)))
  return row?.n ?? 0
}

export async function clearHits(db: DbOrTx, bucket: string) {
  await db.delete(throttleEvent).where(eq(throttleEvent.bucket, bucket))
}

/** Clears a bucket and every `subBucket` under it. */
export async function clearHitsUnder(db: DbOrTx, bucket: string) {
  await db
    .delete(throttleEvent)
    .where(sql`${throttleEvent.bucket} = ${bucket} or starts_with(${throttleEvent.bucket}, ${`${bucket}:`})`)
}

export async function forgetHits(db: DbOrTx, ids: number[]) {
  if (ids.length) await db.delete(throttleEvent).where(inArray(throttleEvent.id, ids))
}

export interface Limit {
  bucket: string
  max: number
  /** This bucket's window, when it differs from the attempt's. */
  windowMinutes?: number
}

export interface Attempt {
  allowed: boolean
  /** The rows this attempt wrote, one per limit: kept as failures, or forgotten on success. */
  ids: number[]
  /** Hits in each bucket within the window, this attempt included. */
  counts: number[]
  /** When refused: seconds until every refusing bucket has room again. */
  retryAfter: number
}

/**
 * Records the attempt in every bucket first and counts afterwards. Each insert commits before its count, so
 * concurrent attempts (in any process) can only over-count one another, never slip past the limit together.
 * A refused attempt is forgotten, so hammering a locked account does not extend the lock-out.
 */
export async function takeAttempt(db: DbOrTx, limits: Limit[], windowMinutes: number, now: Date) {
  const since = (limit: Limit) => new Date(now.getTime() - (limit.windowMinutes ?? windowMinutes) * 60_000)
  const ids: number[] = []
  for (const { bucket } of limits) ids.push(await recordHit(db, bucket, now))
  const counts: number[] = []
  for (const limit of limits) counts.push(await hitsSince(db, limit.bucket, since(limit)))
  const allowed = limits.every((limit, i) => counts[i]! <= limit.max)
  let retryAfter = 0
  if (!allowed) {
    await forgetHits(db, ids)
    for (const [i, limit] of limits.entries()) {
      if (counts[i]! <= limit.max) continue
      const free = await roomAt(db, limit, counts[i]! - 1, since(limit), windowMinutes)
      retryAfter = Math.max(retryAfter, free ? secondsUntil(free, now) : 1)
    }
  }
  return { allowed, ids, counts, retryAfter } satisfies Attempt
}

/**
 * When a full bucket (`held` hits in the window) has room for one more: when its (held - max + 1)-th oldest hit
 * leaves the window.
 */
async function roomAt(db: DbOrTx, limit: Limit, held: number, since: Date, windowMinutes: number) {
  const [row] = await db
    .select({ at: throttleEvent.at })
    .from(throttleEvent)
    .where(and(eq(throttleEvent.bucket, limit.bucket), gt(throttleEvent.at, since)))
    .orderBy(asc(throttleEvent.at))
    .offset(Math.max(0, held - limit.max))
    .limit(1)
  return row ? new Date(row.at.getTime() + (limit.windowMinutes ?? windowMinutes) * 60_000) : null
}

export const tooManyRequests = (retryAfter: number) =>
  new RateLimited('tooManyRequests', 'Too many requests. Please try again later.', retryAfter)

/** A plain request cap over one or more buckets (lookups, anonymous code requests): 429 beyond a limit. */
export async function limitRequests(db: DbOrTx, limits: Limit[], windowMinutes: number, now: Date) {
  const attempt = await takeAttempt(db, limits, windowMinutes, now)
  if (!attempt.allowed) throw tooManyRequests(attempt.retryAfter)
}

/** A plain per-address request cap (lookups, sign-ups): 429 beyond `max` in the window. */
export const limitPerAddress = (
  db: DbOrTx,
  action: string,
  address: string,
  max: number,
  windowMinutes: number,
  now: Date,
) => limitRequests(db, [{ bucket: bucketFor(`addr:${action}`, address), max }], windowMinutes, now)

/** Old rows are useless after a day; called now and then so the table stays small. */
export async function pruneHits(db: DbOrTx, now: Date) {
  await db.delete(throttleEvent).where(lt(throttleEvent.at, new Date(now.getTime() - 86_400_000)))
}
