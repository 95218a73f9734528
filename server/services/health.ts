/**
 * Whether the database can serve requests now, for the readiness probe: `select 1` within a bound, so a
 * database that hangs answers "not ready" in time instead of keeping the probe waiting.
 */
import { sql } from 'drizzle-orm'
import type { Database } from '../db/client'

/** Longer than a healthy `select 1` under load, shorter than a probe's usual 1 s to 5 s timeout. */
export const READY_TIMEOUT_MS = 1500

class ProbeTimeout extends Error {
  override name = 'ProbeTimeout'
  readonly code = 'ETIMEDOUT'
}

/** Resolves when `select 1` answers, rejects when it fails or takes longer than `ms`. */
async function selectOne(run: () => Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout('database probe timed out')), ms)
  })
  // The query may still finish after the timeout; nobody waits for it, and its failure must not go unhandled.
  const query = run()
  query.catch(() => {})
  try {
    await Promise.race([query, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** Resolves when the database answers `select 1` within READY_TIMEOUT_MS; rejects with why it did not. */
export const pingDatabase = (database: Database) =>
  selectOne(() => database.db.execute(sql`select 1`), READY_TIMEOUT_MS)
