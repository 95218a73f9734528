/**
 * A fresh database per test file: in-memory PGlite by default, or a brand-new PostgreSQL database (created
 * from DATABASE_URL's server and dropped afterwards) when DATABASE_URL is set, so runs never share rows.
 *
 * Both start from a migrated copy that tests/support/global-setup.ts makes once per run. PGlite: a fresh cluster
 * costs an initdb and every migration (about 3.5 s of CPU on this 2-core machine), loading the image under 1 s.
 * PostgreSQL: the new database is a copy of a migrated template. The migrations still run on the copy, where
 * they find everything applied.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { inject } from 'vitest'
import { type Database, migrationsFolder, openDatabase } from '../../server/db/client'

export const usingPostgres = Boolean(process.env.DATABASE_URL)

let migratedImage: Promise<Blob> | undefined

/** What the global setup provided, or '' when this process runs without it. */
function provided(key: 'pgliteImageFile' | 'postgresTemplate'): string {
  try {
    return inject(key) ?? ''
  } catch {
    return ''
  }
}

async function makeMigratedImage(): Promise<Blob> {
  const file = provided('pgliteImageFile')
  if (file) return new Blob([readFileSync(file)])
  // Without the global setup (a config that does not name it): one image per process.
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
  const template = provided('postgresTemplate')
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`)
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
