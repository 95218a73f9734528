/**
 * One database handle for the whole server: PGlite (embedded, default) or PostgreSQL when DATABASE_URL is set.
 * Both speak the same SQL and run the same Drizzle migrations.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite, type PGliteOptions, types } from '@electric-sql/pglite'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { DatabaseConnectError } from './errors'
import { lockDataDir } from './lock'
import * as referenceSchema from './schema'
import * as affiliateSchema from './schema-affiliate'
import * as approvalSchema from './schema-approval'
import * as auditSchema from './schema-audit'
import * as collectionSchema from './schema-collection'
import * as contentSchema from './schema-content'
import * as debtSchema from './schema-debt'
import * as identitySchema from './schema-identity'
import * as journeySchema from './schema-journey'
import * as lendingSchema from './schema-lending'
import * as paymentsSchema from './schema-payments'
import * as servicingSchema from './schema-servicing'

const schema = {
  ...referenceSchema,
  ...identitySchema,
  ...journeySchema,
  ...lendingSchema,
  ...affiliateSchema,
  ...paymentsSchema,
  ...servicingSchema,
  ...collectionSchema,
  ...debtSchema,
  ...auditSchema,
  ...approvalSchema,
  ...contentSchema,
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
  | { kind: 'postgres'; url: string; max?: number; connectTimeoutMs?: number }

/**
 * The PostgreSQL pool, made to survive its database (issue 13): a connection the server ends (restart, failover,
 * `pg_terminate_backend`) fails the requests that were using it with a 503 and never the process, and the pool
 * never loses a slot to it, so the next requests reconnect.
 */
function resilientPool(url: string, max: number, connectTimeoutMs: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // A database that does not answer (a host that drops packets, a failover in progress) must fail the request
    // with a 503 in seconds, not hold it, and its caller, for ever.
    connectionTimeoutMillis: connectTimeoutMs,
    // Finds a connection whose peer vanished without a FIN (a failover) instead of waiting on it.
    keepAlive: true,
  })
  // An idle client that loses its connection is reported on the pool, which already discards it; the listener
  // only keeps the event from being an uncaught exception.
  pool.on('error', () => {})
  /** The release of each client checked out now, made idempotent (see below). */
  const checkedOut = new Map<pg.PoolClient, (error?: Error | boolean) => void>()
  // pg-pool listens on a client only while it is idle. A client checked out for a transaction that loses its
  // backend between two queries emits 'error' on itself: unhandled, Node exits. So every client gets a listener,
  // which also gives a checked-out client back to the pool as broken (pg-pool then closes it and frees its slot).
  // That matters because drizzle (0.45) sends BEGIN before its try/finally: a BEGIN that fails never releases
  // its client, and ten such leaks would leave the pool waiting for ever. Whatever still holds the client then
  // gets "not queryable" from its next query (a 503), and its own release is a no-op.
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      const release = checkedOut.get(client as pg.PoolClient)
      if (release) release(error)
    })
  })
  const guard = (client: pg.PoolClient) => {
    const release = client.release.bind(client)
    const once = (error?: Error | boolean) => {
      if (checkedOut.get(client) !== once) return
      checkedOut.delete(client)
      release(error)
    }
    checkedOut.set(client, once)
    client.release = once
    return client
  }
  // Every failure to open a connection becomes a DatabaseConnectError, so the API answers 503 whatever PostgreSQL
  // said: a dropped database is 3D000, one closed to connections 55000, codes a query could also raise for its
  // caller's own fault. pg-pool's `query` and drizzle's transactions both come through `connect`.
  type Callback = (
    error: Error | undefined,
    client?: pg.PoolClient,
    done?: (release?: Error | boolean) => void,
  ) => void
  const connect = pool.connect.bind(pool) as (callback?: Callback) => Promise<pg.PoolClient> | undefined
  pool.connect = ((callback?: Callback) => {
    if (callback)
      return connect((error, client, done) => {
        if (error || !client) return callback(new DatabaseConnectError(error), client, done)
        const guarded = guard(client)
        callback(undefined, guarded, guarded.release)
      })
    return connect()!.then(guard, (error: unknown) => {
      throw new DatabaseConnectError(error)
    })
  }) as typeof pool.connect
  return pool
}

/**
 * The type parsers drizzle's PGlite driver (0.45) passes with every query: dates, timestamps and intervals stay
 * text, drizzle maps them. PGlite 0.5 merges per-query parsers into a copy of its ~318-entry table on every query,
 * which cost 15-30% of the server's CPU in the payments bench. So PGlite gets the same parsers once, at
 * construction, and `withoutPerQueryParsers` drops drizzle's copies: the result is parsed exactly as before.
 */
const identity = (value: string) => value
const DRIZZLE_PARSERS: NonNullable<PGliteOptions['parsers']> = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map(
    (oid) => [oid, identity],
  ),
)

function withoutPerQueryParsers(client: PGlite): PGlite {
  const query = client.query.bind(client)
  client.query = ((text: string, params?: unknown[], options?: { parsers?: Record<number, unknown> }) => {
    // Only parsers this table already holds are dropped; a caller's own parsers still win.
    if (options?.parsers && Object.keys(options.parsers).every((oid) => Number(oid) in DRIZZLE_PARSERS)) {
      const { parsers: _given, ...rest } = options
      return query(text, params, rest)
    }
    return query(text, params, options as never)
  }) as PGlite['query']
  return client
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = resilientPool(options.url, options.max ?? 10, options.connectTimeoutMs ?? 5000)
    const db = drizzleNodePg(pool, { schema }) as unknown as Db
    try {
      await migrateNodePg(drizzleNodePg(pool), { migrationsFolder })
    } catch (error) {
      // A pool left open would keep the process alive behind the start-up error.
      await pool.end().catch(() => {})
      throw error
    }
    const name = new URL(options.url).pathname.slice(1) || 'postgres'
    return { db, kind: 'postgres', location: `postgres database ${name}`, close: () => pool.end() }
  }
  const release = options.kind === 'pglite' ? lockDataDir(options.dataDir) : () => {}
  try {
    const client = withoutPerQueryParsers(
      options.kind === 'pglite'
        ? await PGlite.create(join(options.dataDir, 'pglite'), { parsers: DRIZZLE_PARSERS })
        : await PGlite.create({
            parsers: DRIZZLE_PARSERS,
            ...(options.image ? { loadDataDir: options.image } : {}),
          }),
    )
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
