/**
 * A fresh database per test file: in-memory PGlite by default, or a brand-new PostgreSQL database (created
 * from DATABASE_URL's server and dropped afterwards) when DATABASE_URL is set, so runs never share rows.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { type Database, openDatabase } from '../../server/db/client'

export const usingPostgres = Boolean(process.env.DATABASE_URL)

export async function createTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL
  if (!url) return openDatabase({ kind: 'memory' })
  const name = `hiram_test_${Date.now()}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const testUrl = new URL(url)
  testUrl.pathname = `/${name}`
  const database = await openDatabase({ kind: 'postgres', url: testUrl.toString(), max: 20 })
  return {
    ...database,
    async close() {
      await database.close()
      const cleanup = new pg.Client({ connectionString: url })
      await cleanup.connect()
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await cleanup.end()
    },
  }
}
