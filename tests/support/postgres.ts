/**
 * The PostgreSQL server the tests that cut connections use: DATABASE_URL's server, or the local one. Those tests
 * are skipped, saying why, when it cannot be reached (the embedded database has no connections to cut).
 */
import pg from 'pg'

export const POSTGRES_SERVER_URL = process.env.DATABASE_URL || 'postgres://root@127.0.0.1:5432/postgres'

/** Null when the server answers a query; otherwise why not, for the skip message. */
export async function postgresUnreachable(): Promise<string | null> {
  const probe = new pg.Client({ connectionString: POSTGRES_SERVER_URL, connectionTimeoutMillis: 3000 })
  try {
    await probe.connect()
    await probe.query('select 1')
    return null
  } catch (error) {
    return (error as Error).message
  } finally {
    await probe.end().catch(() => {})
  }
}
