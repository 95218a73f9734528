/**
 * The business clock (issue 16, item 2): every rule that depends on "today" (due days, interest accrual,
 * overdue, reminders, extension windows, limits) reads it, as Manila time = real time + an offset in whole days.
 * The sandbox moves it forward (never back) for the whole instance or for one client, so QA and tests can reach
 * a due date or an overdue loan without waiting; a client's clock is the instance's plus their own offset.
 * Security timers (tokens, code lifetimes, rate limits) keep real time: they read `deps.now()` directly.
 *
 * In production (no sandbox adapter) the offset is always 0: nothing writes one (the call that moves the clock
 * answers 404). The offsets are still read (one indexed read of an empty table per servicing transaction); the
 * payments bench counts it among the statements a posting could drop.
 */
import { inArray, sql } from 'drizzle-orm'
import { notFound } from '../../../domain/errors'
import { manilaDate } from '../../../domain/pricing/manila-date'
import type { DbOrTx } from '../../db/client'
import { clockOffset } from '../../db/schema-payments'
import { sandboxedAdapters } from '../../providers/from-env'

const DAY_MS = 86_400_000
export const INSTANCE_SCOPE = 'instance'
export const clientScope = (clientId: number) => `client:${clientId}`

/** Whether this server may move its business clock: some adapter is a sandbox (never a plain production). */
export function clockMovable(deps: Parameters<typeof sandboxedAdapters>[0]): boolean {
  return sandboxedAdapters(deps).length > 0
}

export interface Offsets {
  instance: number
  client: number
}

/** The instance's offset and, when asked, one client's (0 where none was set). */
export async function readOffsets(db: DbOrTx, clientId: number | null): Promise<Offsets> {
  const scopes = clientId === null ? [INSTANCE_SCOPE] : [INSTANCE_SCOPE, clientScope(clientId)]
  const rows = await db.select().from(clockOffset).where(inArray(clockOffset.scope, scopes))
  const of = (scope: string) => rows.find((r) => r.scope === scope)?.offsetDays ?? 0
  return { instance: of(INSTANCE_SCOPE), client: clientId === null ? 0 : of(clientScope(clientId)) }
}

export const shifted = (now: Date, days: number) => new Date(now.getTime() + days * DAY_MS)

/** The business instant for a client (or the instance when null). */
export async function businessNow(db: DbOrTx, clientId: number | null, now: Date): Promise<Date> {
  const offsets = await readOffsets(db, clientId)
  return shifted(now, offsets.instance + offsets.client)
}

/** Manila's business day for a client (or the instance). */
export async function businessToday(db: DbOrTx, clientId: number | null, now: Date): Promise<string> {
  return manilaDate(await businessNow(db, clientId, now))
}

/** Adds days to a scope's offset (creating it), atomically; answers the new offset. */
export async function addOffset(db: DbOrTx, scope: string, days: number, now: Date): Promise<number> {
  const [row] = await db
    .insert(clockOffset)
    .values({ scope, offsetDays: days, updatedAt: now })
    .onConflictDoUpdate({
      target: clockOffset.scope,
      set: { offsetDays: sql`${clockOffset.offsetDays} + ${days}`, updatedAt: now },
    })
    .returning({ offsetDays: clockOffset.offsetDays })
  return row!.offsetDays
}

export function assertClockMovable(deps: Parameters<typeof sandboxedAdapters>[0]) {
  // In production the call does not exist.
  if (!clockMovable(deps)) throw notFound('Route')
}
