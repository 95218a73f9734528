/**
 * Sliding-window counters in the database (shared by every server process): failed logins per account and per
 * address, and requests per address. A bucket is a string such as `login:acct:<hash>`; only hashes of
 * identifiers are stored.
 */
import { createHash } from 'node:crypto'
import { and, count, eq, gt, inArray, lt } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { throttleEvent } from '../../db/schema-identity'
import { ApiError } from '../../http/errors'

export const bucketFor = (kind: string, identifier: string) =>
  `${kind}:${createHash('sha256').update(identifier.toLowerCase()).digest('base64url').slice(0, 32)}`

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

export async function forgetHits(db: DbOrTx, ids: number[]) {
  if (ids.length) await db.delete(throttleEvent).where(inArray(throttleEvent.id, ids))
}

export interface Limit {
  bucket: string
  max: number
}

export interface Attempt {
  allowed: boolean
  /** The rows this attempt wrote, one per limit: kept as failures, or forgotten on success. */
  ids: number[]
  /** Hits in each bucket within the window, this attempt included. */
  counts: number[]
}

/**
 * Records the attempt in every bucket first and counts afterwards. Each insert commits before its count, so
 * concurrent attempts (in any process) can only over-count one another, never slip past the limit together.
 * A refused attempt is forgotten, so hammering a locked account does not extend the lock-out.
 */
export async function takeAttempt(db: DbOrTx, limits: Limit[], windowMinutes: number, now: Date) {
  const since = new Date(now.getTime() - windowMinutes * 60_000)
  const ids: number[] = []
  for (const { bucket } of limits) ids.push(await recordHit(db, bucket, now))
  const counts: number[] = []
  for (const { bucket } of limits) counts.push(await hitsSince(db, bucket, since))
  const allowed = limits.every((limit, i) => counts[i]! <= limit.max)
  if (!allowed) await forgetHits(db, ids)
  return { allowed, ids, counts } satisfies Attempt
}

/** A plain per-address request cap (lookups, code requests): 429 beyond `max` in the window. */
export async function limitPerAddress(
  db: DbOrTx,
  action: string,
  address: string,
  max: number,
  windowMinutes: number,
  now: Date,
) {
  const attempt = await takeAttempt(
    db,
    [{ bucket: bucketFor(`addr:${action}`, address), max }],
    windowMinutes,
    now,
  )
  if (!attempt.allowed)
    throw new ApiError(429, 'tooManyRequests', 'Too many requests. Please try again later.')
}

/** Old rows are useless after a day; called now and then so the table stays small. */
export async function pruneHits(db: DbOrTx, now: Date) {
  await db.delete(throttleEvent).where(lt(throttleEvent.at, new Date(now.getTime() - 86_400_000)))
}
