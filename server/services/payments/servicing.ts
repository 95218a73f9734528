/**
 * The servicing day (issue 16, item 2; issue 18 adds overdue marking, penalties and reminders to it): for each
 * Manila business day, every open loan's interest is booked up to that day. A day runs once for the instance
 * (`servicing_day`, claimed by its primary key, so several processes never run it twice), catches up after
 * downtime (accrual is computed to a day, not by a day: running late books the same amounts), and moving the
 * sandbox clock runs every day it skips before answering.
 *
 * Per loan for now, each in its own short transaction under the client's locks; issue 18 turns the run into
 * set-based SQL for 100,000 loans.
 */
import { and, eq } from 'drizzle-orm'
import { notFound } from '../../../domain/errors'
import { addDays, manilaDate } from '../../../domain/pricing/manila-date'
import { client } from '../../db/schema-identity'
import { loan } from '../../db/schema-lending'
import { servicingDay } from '../../db/schema-payments'
import type { AppDeps } from '../../deps'
import { jobActor } from '../journey/journey'
import { expireExtensionInvoices } from '../servicing/extensions'
import { addOffset, businessToday, clientScope, INSTANCE_SCOPE, readOffsets, shifted } from './clock'
import { accrueLocked, loanTransaction } from './loans'

type ServicingDeps = Pick<AppDeps, 'database' | 'logger' | 'now'>

/** Books every open loan's interest (of one client, or all) up to each loan's business today. */
export async function accrueOpenLoans(deps: ServicingDeps, clientId: number | null, day: string) {
  const db = deps.database.db
  const rows = await db
    .select({ id: loan.id })
    .from(loan)
    .where(
      clientId === null
        ? eq(loan.state, 'active')
        : and(eq(loan.state, 'active'), eq(loan.clientId, clientId)),
    )
  for (const { id } of rows)
    await loanTransaction(deps, id, jobActor('servicing', day), deps.now(), async (tx, locked, today) => {
      await accrueLocked(tx, locked, today, deps.now())
      // Chosen extensions whose fee was not paid by its last day expire, and their type is offered again.
      await expireExtensionInvoices(tx, locked, today, deps.now())
      return { result: null, event: null }
    })
  return rows.length
}

/** Runs the instance's servicing for its business today, once (another process may have done it already). */
export async function runServicingDayOnce(deps: ServicingDeps) {
  const db = deps.database.db
  const today = await businessToday(db, null, deps.now())
  const [claimed] = await db
    .insert(servicingDay)
    .values({ day: today, completedAt: deps.now() })
    .onConflictDoNothing()
    .returning()
  if (!claimed) return null
  const loans = await accrueOpenLoans(deps, null, today)
  deps.logger.info({ event: 'servicing.day', day: today, loans }, 'servicing day run')
  return today
}

export interface ClockMove {
  days: number
  clientId?: number
}

/**
 * Moves the sandbox's business clock forward and runs each servicing day it skips, for the instance or the
 * client, before answering. Never backwards (the schema refuses negative days).
 */
export async function moveClock(deps: ServicingDeps, move: ClockMove) {
  const db = deps.database.db
  const now = deps.now()
  const clientId = move.clientId ?? null
  if (clientId !== null) {
    const [known] = await db.select({ id: client.id }).from(client).where(eq(client.id, clientId))
    if (!known) throw notFound('Client')
  }
  const before = await businessToday(db, clientId, now)
  if (move.days > 0)
    await addOffset(db, clientId === null ? INSTANCE_SCOPE : clientScope(clientId), move.days, now)
  // Each skipped day is a servicing day. Interest accrues to a day, not by a day, so one booking up to the last
  // day equals one per day (domain/loan/ledger.ts `accrue`); the per-day work of issue 18 goes in this loop.
  const days = Array.from({ length: move.days }, (_, d) => addDays(before, d + 1))
  if (clientId === null && days.length)
    await db
      .insert(servicingDay)
      .values(days.map((day) => ({ day, completedAt: now })))
      .onConflictDoNothing()
  if (days.length) await accrueOpenLoans(deps, clientId, days.at(-1)!)
  const daysRun = days.length
  const offsets = await readOffsets(db, clientId)
  return {
    now: now.toISOString(),
    instanceOffsetDays: offsets.instance,
    clientOffsetDays: clientId === null ? null : offsets.client,
    today: manilaDate(shifted(now, offsets.instance)),
    clientToday: clientId === null ? null : manilaDate(shifted(now, offsets.instance + offsets.client)),
    daysRun,
  }
}
