/**
 * The embedded database's autovacuum (server/db/maintenance.ts, docs/decisions/0051): autovacuum's thresholds,
 * and a pass that analyzes and vacuums the tables that are due, on PGlite; nothing on PostgreSQL.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Database } from '../../server/db/client'
import { maintainOnce, startMaintenance, tablesDue } from '../../server/db/maintenance'
import { createLogger } from '../../server/logger'
import { createTestDatabase, usingPostgres } from '../support/database'

const stats = (relname: string, reltuples: number, dead: number, changed: number, analyzed = true) => ({
  relname,
  reltuples,
  n_dead_tup: dead,
  n_mod_since_analyze: changed,
  analyzed,
})

describe('autovacuum thresholds', () => {
  it('analyzes past 50 rows + 10% changed, vacuums past 50 + 20% dead', () => {
    expect(
      tablesDue([
        stats('quiet', 1000, 250, 150),
        stats('changed', 1000, 0, 151),
        stats('dead', 1000, 251, 0),
        stats('both', 0, 51, 51),
      ]),
    ).toEqual([
      { table: 'changed', analyze: true, vacuum: false },
      { table: 'dead', analyze: false, vacuum: true },
      { table: 'both', analyze: true, vacuum: true },
    ])
  })

  it('vacuums a large table once 2,000 rows are dead, not 20% of it, so no vacuum pauses the database long', () => {
    expect(tablesDue([stats('large', 100_000, 2_001, 0), stats('below', 100_000, 2_000, 0)])).toEqual([
      { table: 'large', analyze: false, vacuum: true },
    ])
  })

  it('analyzes a table never analyzed once it holds anything, and counts -1 rows (never counted) as none', () => {
    expect(tablesDue([stats('fresh', -1, 0, 3, false), stats('empty', -1, 0, 0, false)])).toEqual([
      { table: 'fresh', analyze: true, vacuum: false },
    ])
  })
})

describe.skipIf(usingPostgres)('a maintenance pass on PGlite', () => {
  let database: Database
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(() => database.close())

  const tableStats = async () => {
    await database.db.execute(sql`select pg_stat_force_next_flush()`)
    return (
      (await database.db.execute(sql`
        select last_analyze is not null as analyzed, last_vacuum is not null as vacuumed, n_dead_tup::int as dead
        from pg_stat_user_tables where relname = 'maintenance_probe'`)) as unknown as {
        rows: { analyzed: boolean; vacuumed: boolean; dead: number }[]
      }
    ).rows[0]!
  }

  it('analyzes a table that changed, vacuums one full of dead rows, and leaves the others', async () => {
    await database.db.execute(sql`create table maintenance_probe (id int primary key, v text)`)
    await database.db.execute(sql`insert into maintenance_probe select g, 'x' from generate_series(1, 200) g`)
    let done = await maintainOnce(database)
    expect(done).toContainEqual({ table: 'maintenance_probe', analyze: true, vacuum: false })
    expect(await tableStats()).toMatchObject({ analyzed: true, vacuumed: false })

    // Nothing changed since: nothing to do for it.
    done = await maintainOnce(database)
    expect(done.map((w) => w.table)).not.toContain('maintenance_probe')

    await database.db.execute(sql`delete from maintenance_probe where id <= 150`)
    expect((await tableStats()).dead).toBe(150)
    done = await maintainOnce(database)
    expect(done).toContainEqual({ table: 'maintenance_probe', analyze: true, vacuum: true })
    expect(await tableStats()).toMatchObject({ vacuumed: true, dead: 0 })
  })

  it('waits before each statement, ends the pass when told to, and leaves the session as it was', async () => {
    await database.db.execute(
      sql`insert into maintenance_probe select g, 'z' from generate_series(2000, 2400) g`,
    )
    let pauses = 0
    const pause = (go: boolean) => async () => {
      pauses++
      return go
    }
    // Told to stop at the first wait: nothing is done.
    expect(await maintainOnce(database, pause(false))).toEqual([])
    expect(pauses).toBe(1)
    pauses = 0
    const done = await maintainOnce(database, pause(true))
    expect(done).toContainEqual({ table: 'maintenance_probe', analyze: true, vacuum: false })
    expect(pauses).toBe(done.reduce((n, w) => n + Number(w.analyze) + Number(w.vacuum), 0))
    // The small sample is the ANALYZE's own: the session's setting is PostgreSQL's default again.
    const { rows } = (await database.db.execute(sql`show default_statistics_target`)) as unknown as {
      rows: { default_statistics_target: string }[]
    }
    expect(rows[0]!.default_statistics_target).toBe('100')

    // Ended between a table's vacuum and its analyze: the vacuum done is still reported.
    await database.db.execute(sql`delete from maintenance_probe where id >= 2000`)
    let allowed = 1
    expect(await maintainOnce(database, async () => allowed-- > 0)).toEqual([
      { table: 'maintenance_probe', analyze: false, vacuum: true },
    ])
  })

  it('runs a pass at start, spaced out, and stops cleanly, even between two statements', async () => {
    await database.db.execute(
      sql`insert into maintenance_probe select g, 'y' from generate_series(1000, 1400) g`,
    )
    const stop = startMaintenance(database, createLogger('silent'), 60_000, 1)
    await vi.waitFor(
      async () => {
        await database.db.execute(sql`select pg_stat_force_next_flush()`)
        const { rows } = (await database.db.execute(
          sql`select n_mod_since_analyze::int as changed from pg_stat_user_tables where relname = 'maintenance_probe'`,
        )) as unknown as { rows: { changed: number }[] }
        expect(rows[0]!.changed).toBe(0)
      },
      { timeout: 30_000, interval: 50 },
    )
    await stop()
    expect(await maintainOnce(database)).not.toContainEqual(
      expect.objectContaining({ table: 'maintenance_probe' }),
    )

    // A stop during the wait before a statement ends the pass there, at once.
    await database.db.execute(
      sql`insert into maintenance_probe select g, 'w' from generate_series(3000, 3400) g`,
    )
    // (A stop that waited out the 10-minute gap would fail this test on its timeout.)
    const stopLate = startMaintenance(database, createLogger('silent'), 600_000, 600_000)
    await stopLate()
    expect(await maintainOnce(database)).toContainEqual(
      expect.objectContaining({ table: 'maintenance_probe', analyze: true }),
    )
  })
})

describe.skipIf(!usingPostgres)('on PostgreSQL', () => {
  it('leaves the tables to PostgreSQL’s own autovacuum', async () => {
    const database = await createTestDatabase()
    try {
      const stop = startMaintenance(database, createLogger('silent'), 10)
      await stop()
      expect(database.kind).toBe('postgres')
    } finally {
      await database.close()
    }
  })
})
