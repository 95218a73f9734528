/**
 * Part of `npm run bench` (issue 18, item 1): the daily servicing run (server/services/servicing/daily-run.ts)
 * over 100,000 active loans on PostgreSQL, target under 30 s on this 2-core machine. `BENCH_ONLY=daily-run`
 * runs this section alone and rewrites its part of docs/benchmarks.md.
 *
 * The loans come from the payments bench fixture (scripts/bench-payments-fixture.ts, set-based inserts into a
 * throw-away database created for the run), paid out on three days so the run meets every case: a quarter paid
 * out 45 days ago (overdue past the grace days: interest complete, penalties charged), a quarter 20 days ago
 * (some overdue in grace, some current), half 5 days ago (current, accruing interest). Measured:
 * - the first day: every loan's interest and standing, the overdue ones' penalties and OVERDUE history rows
 *   (the loans come in with nothing serviced, so this first run also books each one's interest since its payout);
 * - the next day, the steady state: one day more for every loan;
 * - the same day again: nothing to do (each loan's `serviced_through` says so).
 * Settings: BENCH_DAILY_RUN_LOANS (100000), BENCH_POSTGRES_URL (else DATABASE_URL's server, else the local one).
 */

import { performance } from 'node:perf_hooks'
import { sql } from 'drizzle-orm'
import { addDays, manilaDate } from '../domain/pricing/manila-date'
import { openDatabase } from '../server/db/client'
import { seedReferenceData } from '../server/db/seed/index'
import type { AppDeps } from '../server/deps'
import { addOffset, INSTANCE_SCOPE } from '../server/services/payments/clock'
import { runServicingDay } from '../server/services/payments/servicing'
import { scratchDatabase } from './bench-database'
import { createLoanFixture } from './bench-payments-fixture'

export const DAILY_RUN_HEADING = '## Daily servicing run (issue 18)'
const TARGET_SECONDS = 30
const LOANS = Number(process.env.BENCH_DAILY_RUN_LOANS ?? 100_000)

const quietLogger = { info() {}, warn() {}, error() {}, debug() {} } as unknown as AppDeps['logger']

export async function benchDailyRun(): Promise<{ markdown: string; pass: boolean }> {
  const name = `hiram_bench_daily_${process.pid}`
  const scratch = await scratchDatabase(name)
  const database = await openDatabase({ kind: 'postgres', url: scratch.url })
  try {
    await seedReferenceData(database.db, { psgc: false })
    const now = new Date()
    const fixtureStart = performance.now()
    const quarter = Math.floor(LOANS / 4)
    for (const [count, daysAgo] of [
      [quarter, 45],
      [quarter, 20],
      [LOANS - 2 * quarter, 5],
    ] as const)
      await createLoanFixture(database, count, new Date(now.getTime() - daysAgo * 86_400_000))
    const fixtureSeconds = (performance.now() - fixtureStart) / 1000
    const deps = { database, logger: quietLogger, now: () => new Date() }
    const today = manilaDate(now)
    const timed = async (day: string) => {
      const start = performance.now()
      const result = await runServicingDay(deps, day, null)
      return { seconds: (performance.now() - start) / 1000, ...result }
    }
    const first = await timed(today)
    // The next day: the instance's clock moves one day, as the sandbox does it (the run reads each loan's day).
    await addOffset(database.db, INSTANCE_SCOPE, 1, now)
    const next = await timed(addDays(today, 1))
    const again = await timed(addDays(today, 1))
    const [counts] = (
      (await database.db.execute(sql`
        select count(*) filter (where standing = 'overdue')::int as overdue,
               (select count(*) from loan_ledger_entry where kind = 'penalty')::int as penalty_entries
        from loan`)) as unknown as { rows: { overdue: number; penalty_entries: number }[] }
    ).rows
    const pass = first.seconds < TARGET_SECONDS && next.seconds < TARGET_SECONDS && again.loans === 0
    const row = (what: string, r: typeof first) =>
      `| ${what} | ${r.loans.toLocaleString('en')} | ${r.seconds.toFixed(1)} s | ${r.overdue.toLocaleString('en')} | ${(r.penalties / 100).toLocaleString('en', { minimumFractionDigits: 2 })} | ${(r.interest / 100).toLocaleString('en', { minimumFractionDigits: 2 })} |`
    const markdown = [
      DAILY_RUN_HEADING,
      '',
      `${new Date().toISOString().slice(0, 10)}, PostgreSQL, ${LOANS.toLocaleString('en')} active loans (fixture: ${fixtureSeconds.toFixed(0)} s), target < ${TARGET_SECONDS} s per day. **${pass ? 'PASS' : 'FAIL'}**`,
      '',
      '| Run | Loans run | Time | Marked overdue | Penalties (₱) | Interest (₱) |',
      '|---|---:|---:|---:|---:|---:|',
      row('First day (interest since payout, standing, penalties)', first),
      row('Next day (one day more for every loan)', next),
      row('Same day again (nothing to do)', again),
      '',
      `After the runs: ${counts?.overdue.toLocaleString('en')} loans overdue, ${counts?.penalty_entries.toLocaleString('en')} penalty entries. Rerun: \`BENCH_ONLY=daily-run npm run bench\`.`,
      '',
    ].join('\n')
    return { markdown, pass }
  } finally {
    await database.close()
    await scratch.drop()
  }
}
