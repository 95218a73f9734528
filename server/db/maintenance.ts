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
 * than 50 + 20% dead rows, with a small statistics sample. One statement per table and task: PGlite serves one
 * statement at a time, so the requests waiting meanwhile wait for one table's work, never the whole pass.
 * PostgreSQL proper runs its own autovacuum and is left alone.
 */
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../deps'
import type { Database } from './client'
import { errorForLog } from './errors'

/** How often the statistics are read (autovacuum's own default naptime is a minute). */
export const MAINTENANCE_INTERVAL_MS = 30_000

/** autovacuum_analyze_threshold / _scale_factor and autovacuum_vacuum_threshold / _scale_factor, as PostgreSQL. */
const ANALYZE_BASE = 50
const ANALYZE_SCALE = 0.1
const VACUUM_BASE = 50
const VACUUM_SCALE = 0.2
/** The statistics target of the embedded database's ANALYZE (PostgreSQL's default is 100). */
const STATISTICS_TARGET = 10

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
    const vacuum = dead > VACUUM_BASE + VACUUM_SCALE * rows
    if (analyze || vacuum) work.push({ table: row.relname, analyze, vacuum })
  }
  return work
}

/** One pass: reads the statistics and does what is due, table by table. Answers what it did. */
export async function maintainOnce(database: Database): Promise<TableWork[]> {
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
  if (!work.length) return work
  // A small sample (3,000 rows a table instead of 30,000): PGlite's one connection waits for each ANALYZE, which
  // took 460 ms on a table of 40,000 loans with the default and 40 ms with this. The planner's uses here are
  // keys and foreign keys, which a small sample describes as well. Only ANALYZE reads this setting.
  await database.db.execute(sql.raw(`set default_statistics_target = ${STATISTICS_TARGET}`))
  try {
    // One statement each, so the requests waiting meanwhile get in between.
    for (const { table, analyze, vacuum } of work) {
      const name = sql.identifier(table)
      if (vacuum) await database.db.execute(sql`vacuum ${name}`)
      if (analyze) await database.db.execute(sql`analyze ${name}`)
    }
  } finally {
    await database.db.execute(sql`reset default_statistics_target`)
  }
  return work
}

/**
 * Runs `maintainOnce` now and every `intervalMs` on an embedded database; nothing on PostgreSQL. Answers the
 * function that stops it (and waits for a pass under way).
 */
export function startMaintenance(
  database: Database,
  logger: AppDeps['logger'],
  intervalMs = MAINTENANCE_INTERVAL_MS,
): () => Promise<void> {
  if (database.kind === 'postgres') return async () => {}
  let running: Promise<void> | undefined
  let stopped = false
  const pass = () => {
    if (running || stopped) return
    const started = performance.now()
    running = maintainOnce(database)
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
    await running
  }
}
