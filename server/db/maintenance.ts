/**
 * The embedded database's autovacuum (docs/decisions/0051). PGlite runs PostgreSQL in single-user mode, where no
 * autovacuum launcher exists: without this, no table is ever analyzed or vacuumed while the server runs.
 *
 * That is not only bloat. A foreign key's check is a query PostgreSQL plans once per session and keeps; planned
 * while the referenced table was small (a new deployment's empty `payment` table), it stays a plan for a small
 * table. Measured in the payments benchmark: each ledger entry's check of its payment cost ten times the insert
 * itself, and posting ran at half its speed, until an ANALYZE (which invalidates the kept plans) let them be
 * planned again for the table as it is.
 *
 * So the server does what autovacuum would, with autovacuum's own thresholds: every `intervalMs`, it reads the
 * statistics PostgreSQL keeps per table (pg_stat_user_tables, which PGlite maintains) and runs ANALYZE on each
 * table changed by more than 50 rows + 10% of its rows since its last analyze, and VACUUM on each holding more
 * than 50 + 20% dead rows (at most 2,000), with a small statistics sample.
 *
 * PGlite runs in the server's own thread: while one of these statements runs, no request is served at all. So
 * each statement is kept short whatever the table's size (a sample of 600 rows; a vacuum once 2,000 rows are
 * dead), and the statements of a pass are spaced out, one per `gapMs`, so the requests that waited for one are
 * served before the next. The worst pause a request sees is one statement's, about 10 ms, not a whole pass's.
 * PostgreSQL proper runs its own autovacuum and is left alone.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../deps'
import type { Database } from './client'
import { errorForLog } from './errors'

/** How often the statistics are read (autovacuum's own default naptime is a minute). */
export const MAINTENANCE_INTERVAL_MS = 10_000

/** autovacuum_analyze_threshold / _scale_factor and autovacuum_vacuum_threshold / _scale_factor, as PostgreSQL. */
const ANALYZE_BASE = 50
const ANALYZE_SCALE = 0.1
const VACUUM_BASE = 50
const VACUUM_SCALE = 0.2
/**
 * The most dead rows a table waits with for its vacuum. Autovacuum's 20% grows with the table, and so would the
 * vacuum's pause of the one connection (25 to 35 ms for 6,000 dead rows of a table of 30,000 loans); a vacuum
 * of 2,000 takes a few ms at any size.
 */
const VACUUM_MAX_DEAD = 2_000
/**
 * The statistics target of the embedded database's ANALYZE (PostgreSQL's default is 100): ANALYZE samples 300
 * times this many rows, and takes time in proportion, whatever the table's size. Measured on a table of 30,000
 * loans: 30 ms at 10, 6.6 ms at 2 (the default's 100 took 460 ms on 40,000). The planner's uses here are keys,
 * foreign keys and the tables' sizes, which 600 rows describe as well.
 */
const STATISTICS_TARGET = 2
/** The time between two statements of a pass, for the requests that waited for one to be served first. */
export const MAINTENANCE_GAP_MS = 250

export interface TableWork {
  table: string
  analyze: boolean
  vacuum: boolean
}

interface TableStats {
  relname: string
  reltuples: number | string
  n_dead_tup: number | string
  n_mod_since_analyze: number | string
  analyzed: boolean
}

/** What each table needs now, by autovacuum's rule. A table never analyzed counts as having no rows. */
export function tablesDue(stats: TableStats[]): TableWork[] {
  const work: TableWork[] = []
  for (const row of stats) {
    const rows = Math.max(0, Number(row.reltuples))
    const changed = Number(row.n_mod_since_analyze)
    const dead = Number(row.n_dead_tup)
    const analyze = changed > ANALYZE_BASE + ANALYZE_SCALE * rows || (!row.analyzed && changed > 0)
    const vacuum = dead > Math.min(VACUUM_BASE + VACUUM_SCALE * rows, VACUUM_MAX_DEAD)
    if (analyze || vacuum) work.push({ table: row.relname, analyze, vacuum })
  }
  return work
}

/**
 * One pass: reads the statistics and does what is due, table by table, one statement at a time with `pause()`
 * awaited before each (the caller's spacing; it answers false to end the pass early). Answers what it did.
 */
export async function maintainOnce(
  database: Database,
  pause: () => Promise<boolean> = async () => true,
): Promise<TableWork[]> {
  // Table statistics reach the views when the session flushes them, at most once a second; this asks for it
  // at the end of this statement, so the next one reads the counts up to now.
  await database.db.execute(sql`select pg_stat_force_next_flush()`)
  const { rows } = (await database.db.execute(sql`
    select s.relname, c.reltuples, s.n_dead_tup, s.n_mod_since_analyze,
           (s.last_analyze is not null or s.last_autoanalyze is not null) as analyzed
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = 'public'
    order by s.relname`)) as unknown as { rows: TableStats[] }
  const work = tablesDue(rows)
  const done: TableWork[] = []
  for (const { table, analyze, vacuum } of work) {
    const name = sql.identifier(table)
    // Kept before the work, so a pass ended between a table's vacuum and its analyze still reports the vacuum.
    const did: TableWork = { table, analyze: false, vacuum: false }
    done.push(did)
    if (vacuum) {
      if (!(await pause())) break
      await database.db.execute(sql`vacuum ${name}`)
      did.vacuum = true
    }
    if (analyze) {
      if (!(await pause())) break
      // Set for this statement's sake only (only ANALYZE reads it), and reset before anything else runs on the
      // one connection: a transaction of these three holds it for the ANALYZE's time.
      await database.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local default_statistics_target = ${STATISTICS_TARGET}`))
        await tx.execute(sql`analyze ${name}`)
      })
      did.analyze = true
    }
  }
  return done.filter((w) => w.analyze || w.vacuum)
}

/**
 * Runs `maintainOnce` now and every `intervalMs` on an embedded database; nothing on PostgreSQL. Answers the
 * function that stops it (and waits for a pass under way).
 */
export function startMaintenance(
  database: Database,
  logger: AppDeps['logger'],
  intervalMs = MAINTENANCE_INTERVAL_MS,
  gapMs = MAINTENANCE_GAP_MS,
): () => Promise<void> {
  if (database.kind === 'postgres') return async () => {}
  let running: Promise<void> | undefined
  let stopped = false
  let wake: (() => void) | undefined
  // The wait before each statement of a pass; a stop ends it at once, and the pass with it.
  const pause = () =>
    new Promise<boolean>((resolve) => {
      if (stopped) return resolve(false)
      const timer = setTimeout(() => resolve(!stopped), gapMs)
      wake = () => {
        clearTimeout(timer)
        resolve(false)
      }
    })
  const pass = () => {
    if (running || stopped) return
    const started = performance.now()
    running = maintainOnce(database, pause)
      .then((work) => {
        if (work.length)
          logger.info(
            {
              event: 'db.maintenance',
              analyzed: work.filter((w) => w.analyze).map((w) => w.table),
              vacuumed: work.filter((w) => w.vacuum).map((w) => w.table),
              ms: Math.round(performance.now() - started),
            },
            'embedded database maintained',
          )
      })
      .catch((error: unknown) =>
        logger.warn({ event: 'db.maintenance_failed', err: errorForLog(error) }, 'maintenance pass failed'),
      )
      .finally(() => {
        running = undefined
      })
  }
  pass()
  const timer = setInterval(pass, intervalMs)
  timer.unref()
  return async () => {
    stopped = true
    clearInterval(timer)
    wake?.()
    await running
  }
}
