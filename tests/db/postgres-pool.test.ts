/**
 * The PostgreSQL pool under connection loss, in-process (server/db/client.ts): transactions and single queries
 * run while another connection terminates the pool's backends. A lost connection must reject the call with an
 * error the API maps to 503 (never an uncaught 'error' event, which would end this test process), and must
 * never cost the pool a slot: with a pool of one, a single leaked client (drizzle sends BEGIN outside its
 * try/finally) would leave every later call waiting until the connect timeout.
 *
 * Needs PostgreSQL (DATABASE_URL's server, or postgres://root@127.0.0.1:5432); skipped, saying so, without it.
 */
import { randomBytes, randomInt } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../server/db/client'
import { DatabaseConnectError, isDatabaseUnavailable } from '../../server/db/errors'
import { POSTGRES_SERVER_URL, postgresUnreachable } from '../support/postgres'

const SERVER_URL = POSTGRES_SERVER_URL

const unreachable = await postgresUnreachable()
if (unreachable)
  console.warn(`postgres-pool: skipped, PostgreSQL at ${SERVER_URL} is unreachable (${unreachable})`)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function asAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER_URL })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

describe.skipIf(Boolean(unreachable))('the PostgreSQL pool when the database ends its connections', () => {
  const name = `hiram_pool_${Date.now()}_${randomBytes(3).toString('hex')}`
  const url = new URL(SERVER_URL)
  url.pathname = `/${name}`
  let database: Database | undefined
  let created = false

  beforeAll(async () => {
    await asAdmin((c) => c.query(`CREATE DATABASE ${name}`))
    created = true
    database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 1, connectTimeoutMs: 3000 })
  }, 60_000)

  afterAll(async () => {
    await database?.close()
    if (created) await asAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  }, 30_000)

  it('rejects calls on a lost connection as unavailable and keeps every pool slot', async () => {
    const db = database!.db
    let stop = false
    let terminated = 0
    const killer = (async () => {
      await asAdmin(async (c) => {
        while (!stop) {
          const result = await c.query(
            'select pg_terminate_backend(pid) as gone from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [name],
          )
          terminated += result.rows.filter((row) => row.gone).length
          await sleep(randomInt(1, 15))
        }
      })
    })()

    let ok = 0
    const failures: unknown[] = []
    const deadline = Date.now() + 6000
    while (Date.now() < deadline) {
      try {
        if (ok % 2) await db.execute(sql`select 1`)
        else
          await db.transaction(async (tx) => {
            await tx.execute(sql`select 1`)
            // Between two queries: the state in which a lost backend used to emit an unhandled 'error'.
            await sleep(randomInt(0, 5))
            await tx.execute(sql`select 2`)
          })
        ok++
      } catch (error) {
        failures.push(error)
      }
    }
    stop = true
    await killer

    expect(terminated).toBeGreaterThan(0)
    expect(failures.length).toBeGreaterThan(0)
    const misread = failures.filter((error) => !isDatabaseUnavailable(error))
    expect(misread.map((error) => `${(error as Error).name}: ${(error as Error).message}`)).toEqual([])

    // The single slot is free again: a leaked client would make these wait 3 s and fail with a connect timeout.
    const started = Date.now()
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 1`)
    })
    await db.execute(sql`select 1`)
    expect(Date.now() - started).toBeLessThan(2000)
  }, 60_000)

  it('a connection that cannot be opened is a DatabaseConnectError, whatever PostgreSQL answered', async () => {
    const missing = new URL(SERVER_URL)
    missing.pathname = `/${name}_missing`
    // openDatabase migrates at once, so the failure (3D000, database does not exist) surfaces right there.
    const error = await openDatabase({ kind: 'postgres', url: missing.toString(), max: 1 }).catch((e) => e)
    expect(isDatabaseUnavailable(error)).toBe(true)
    let current: unknown = error
    while (current && !(current instanceof DatabaseConnectError))
      current = (current as { cause?: unknown }).cause
    expect(current).toBeInstanceOf(DatabaseConnectError)
  }, 30_000)
})
