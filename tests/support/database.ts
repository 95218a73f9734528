/**
 * A fresh database per test file: in-memory PGlite by default, or a brand-new PostgreSQL database (created
 * from DATABASE_URL's server and dropped afterwards) when DATABASE_URL is set, so runs never share rows.
 *
 * PGlite: every test database starts as a copy of one migrated image made once per worker process. A fresh
 * cluster costs an initdb and every migration (about 3.5 s of CPU on this 2-core machine); loading the image
 * costs under 1 s. The migrations still run on the copy, where they find everything applied.
 */
import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { type Database, migrationsFolder, openDatabase } from '../../server/db/client'

export const usingPostgres = Boolean(process.env.DATABASE_URL)

let migratedImage: Promise<Blob> | undefined

async function makeMigratedImage(): Promise<Blob> {
  const client = await PGlite.create()
  try {
    await migrate(drizzle(client), { migrationsFolder })
    return await client.dumpDataDir('none')
  } finally {
    await client.close()
  }
}

export async function createTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL
  if (!url) {
    migratedImage ??= makeMigratedImage()
    return openDatabase({ kind: 'memory', image: await migratedImage })
  }
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
