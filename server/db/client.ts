/**
 * One database handle for the whole server: PGlite (embedded, default) or PostgreSQL when DATABASE_URL is set.
 * Both speak the same SQL and run the same Drizzle migrations.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { lockDataDir } from './lock'
import * as referenceSchema from './schema'
import * as affiliateSchema from './schema-affiliate'
import * as identitySchema from './schema-identity'
import * as journeySchema from './schema-journey'
import * as lendingSchema from './schema-lending'

const schema = {
  ...referenceSchema,
  ...identitySchema,
  ...journeySchema,
  ...lendingSchema,
  ...affiliateSchema,
}

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>
/** The handle a `db.transaction(async (tx) => ...)` callback receives; services accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type DbOrTx = Db | Tx

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** Where the data lives, for logs: a directory, 'memory', or the database name. */
  location: string
  close(): Promise<void>
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

export type DatabaseOptions =
  | { kind: 'pglite'; dataDir: string }
  /**
   * In memory; `image` (a `dumpDataDir()` of another in-memory database) starts it from a copy of that one
   * instead of an empty cluster. Tests use it to skip initdb and the migrations for every test database.
   */
  | { kind: 'memory'; image?: Blob }
  | { kind: 'postgres'; url: string; max?: number }

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.max ?? 10 })
    // An idle connection the server ends (restart, failover, a dropped test database) is reported on the pool;
    // without a listener that is an uncaught exception. pg already drops the client from the pool, and a query
    // in flight gets its own error, so there is nothing more to do here.
    pool.on('error', () => {})
    const db = drizzleNodePg(pool, { schema }) as unknown as Db
    await migrateNodePg(drizzleNodePg(pool), { migrationsFolder })
    const name = new URL(options.url).pathname.slice(1) || 'postgres'
    return { db, kind: 'postgres', location: `postgres database ${name}`, close: () => pool.end() }
  }
  const release = options.kind === 'pglite' ? lockDataDir(options.dataDir) : () => {}
  try {
    const client =
      options.kind === 'pglite'
        ? await PGlite.create(join(options.dataDir, 'pglite'))
        : await PGlite.create(options.image ? { loadDataDir: options.image } : {})
    await migratePglite(drizzlePglite(client), { migrationsFolder })
    const db = drizzlePglite(client, { schema }) as unknown as Db
    let closed = false
    return {
      db,
      kind: 'pglite',
      location: options.kind === 'pglite' ? options.dataDir : 'memory',
      async close() {
        if (closed) return
        closed = true
        try {
          await client.close()
        } finally {
          release()
        }
      },
    }
  } catch (error) {
    release()
    throw error
  }
}
