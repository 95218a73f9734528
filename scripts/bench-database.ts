/**
 * A scratch PostgreSQL database for one bench section (`npm run bench`): created empty on the bench's server
 * (BENCH_POSTGRES_URL, else DATABASE_URL's, else the local one; trust auth on this machine), dropped afterwards
 * whatever happened. The admin connection stays open for the section's own queries on the server (pg_stat_activity).
 */
import pg from 'pg'

const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres'

export interface ScratchDatabase {
  /** The new database's connection URL. */
  url: string
  /** A connection to the server's maintenance database. */
  admin: pg.Client
  /** Drops the database (closing whoever is still on it) and ends the admin connection; never throws. */
  drop(): Promise<void>
}

export async function scratchDatabase(name: string): Promise<ScratchDatabase> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL })
  await admin.connect()
  await admin.query(`drop database if exists ${name}`)
  await admin.query(`create database ${name}`)
  const url = new URL(POSTGRES_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    admin,
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => {})
      await admin.end().catch(() => {})
    },
  }
}
