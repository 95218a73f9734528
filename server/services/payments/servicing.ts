/**
 * The servicing day (issue 16, item 2; issue 18): for each Manila business day, every active loan is run once
 * by the set-based daily run (server/services/servicing/daily-run.ts: interest, overdue standing, penalties,
 * expired extension invoices), then the day's reminders are queued. A day runs once for the instance
 * (`servicing_day`, claimed by its primary key, so several processes never run it twice; each loan's
 * `serviced_through` makes a loan's day run once even if two runs overlap); after downtime every missed day is
 * run, in order, exactly once; moving the sandbox clock runs every day it skips before answering.
 */
import { desc, eq } from 'drizzle-orm'
import { notFound } from '../../../domain/errors'
import { addDays, daysBetween, manilaDate } from '../../../domain/pricing/manila-date'
import { client } from '../../db/schema-identity'
import { servicingDay } from '../../db/schema-payments'
import type { AppDeps } from '../../deps'
import { jobActor } from '../journey/journey'
import { runDayForLoans } from '../servicing/daily-run'
import { servicingTerms } from '../servicing/facts'
import { queueReminders } from '../servicing/reminders'
import { addOffset, businessToday, clientScope, INSTANCE_SCOPE, readOffsets, shifted } from './clock'

type ServicingDeps = Pick<AppDeps, 'database' | 'logger' | 'now'>

/** The most missed days a restart catches up (a year): older days than that were an outage to investigate. */
export const MAX_CATCH_UP_DAYS = 366

/**
 * Runs one business day (of the instance, or one client's loans): the daily run, then the reminders of the day.
 * `instanceDay` is the instance's business day; each loan runs to its own (plus its client's offset).
 */
export async function runServicingDay(deps: ServicingDeps, instanceDay: string, clientId: number | null) {
  const { servicing } = await servicingTerms(deps.database.db)
  const result = await runDayForLoans(
    deps,
    instanceDay,
    clientId,
    servicing,
    jobActor('servicing', instanceDay),
  )
  // After the standing is known: the day's reminders (before, on and after the due date) are queued for the
  // lawful hours (docs/decisions/0028); the servicing worker sends them.
  const reminders = await queueReminders(deps.database.db, { instanceDay, clientId, now: deps.now() })
  deps.logger.info(
    { event: 'servicing.day', day: instanceDay, clientId, ...result, reminders },
    'servicing day run',
  )
  return { ...result, reminders }
}

/**
 * Runs the instance's servicing days up to its business today, each once (another process may have run some
 * already): every day after the last one run, in order (a catch-up after downtime), at most MAX_CATCH_UP_DAYS.
 */
export async function runServicingDayOnce(deps: ServicingDeps) {
  const db = deps.database.db
  const today = await businessToday(db, null, deps.now())
  const [last] = await db.select().from(servicingDay).orderBy(desc(servicingDay.day)).limit(1)
  if (last && last.day >= today) return null
  const first = last ? addDays(last.day, 1) : today
  const missed = Math.min(daysBetween(first, today) + 1, MAX_CATCH_UP_DAYS)
  let ran: string | null = null
  for (let d = missed - 1; d >= 0; d--) {
    const day = addDays(today, -d)
    const [claimed] = await db
      .insert(servicingDay)
      .values({ day, completedAt: deps.now() })
      .onConflictDoNothing()
      .returning()
    if (!claimed) continue
    await runServicingDay(deps, day, null)
    ran = day
  }
  return ran
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
  // Each skipped day is a servicing day, run in order: a loan becomes overdue, then is charged a penalty, day by
  // day, exactly as if the days had passed. `before` is the scope's day: the instance's, or the client's (the
  // run takes instance days and adds the client's own offset, so a client's day d is instance day d - offset).
  const clientOffset = clientId === null ? 0 : (await readOffsets(db, clientId)).client
  const days = Array.from({ length: move.days }, (_, d) => addDays(before, d + 1))
  for (const day of days) {
    const instanceDay = addDays(day, -clientOffset)
    if (clientId === null)
      await db.insert(servicingDay).values({ day, completedAt: now }).onConflictDoNothing()
    await runServicingDay(deps, instanceDay, clientId)
  }
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
