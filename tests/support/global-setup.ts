/**
 * Vitest global setup: the migrated starting point every test database is copied from, made once per run
 * instead of once per test file (every file runs in a fresh process, so a per-process cache was rebuilt by
 * every file that opens a database).
 *
 * PGlite: a migrated in-memory cluster dumped to a file, kept in node_modules/.cache under a hash of the
 * migrations and the PGlite version, so a rerun with the same migrations skips even that one build.
 * PostgreSQL (DATABASE_URL): a migrated template database; each test file creates its own database from it
 * (CREATE DATABASE ... TEMPLATE) and runs the migrations there, finding them applied. Dropped at the end.
 */
import { createHash, randomBytes } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { migrationsFolder, openDatabase } from '../../server/db/client'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the migrated PGlite image (dumpDataDir), or '' when tests run on PostgreSQL. */
    pgliteImageFile: string
    /** The migrated template database on DATABASE_URL's server, or '' on PGlite. */
    postgresTemplate: string
  }
}

const nodeModules = fileURLToPath(new URL('../../node_modules', import.meta.url))

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path) : [path]
  })
}

/** Changes whenever a migration, the journal or PGlite itself changes. */
function migrationsHash(): string {
  const hash = createHash('sha256')
  hash.update(
    JSON.parse(readFileSync(join(nodeModules, '@electric-sql/pglite/package.json'), 'utf8')).version,
  )
  for (const file of filesUnder(migrationsFolder).sort()) {
    hash.update(relative(migrationsFolder, file))
    hash.update(readFileSync(file))
  }
  return hash.digest('hex').slice(0, 16)
}

/** Images of earlier migrations, a few hours old (never one a run still reading it could be using). */
function pruneOldImages(dir: string, keep: string) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (path !== keep && Date.now() - statSync(path).mtimeMs > 3 * 3600_000) rmSync(path, { force: true })
  }
}

async function pgliteImageFile(): Promise<string> {
  const dir = join(nodeModules, '.cache/hiram-test-db')
  const file = join(dir, `pglite-${migrationsHash()}.tar`)
  if (existsSync(file) && statSync(file).size > 0) return file
  const client = await PGlite.create()
  try {
    await migrate(drizzle(client), { migrationsFolder })
    const image = await client.dumpDataDir('none')
    mkdirSync(dir, { recursive: true })
    // Written aside and renamed: runs started at the same time never read half a file.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
    writeFileSync(partial, Buffer.from(await image.arrayBuffer()))
    renameSync(partial, file)
    pruneOldImages(dir, file)
    return file
  } finally {
    await client.close()
  }
}

async function adminQuery(url: string, sql: string) {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(sql)
  } finally {
    await admin.end()
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL
  if (!url) {
    project.provide('pgliteImageFile', await pgliteImageFile())
    project.provide('postgresTemplate', '')
    return
  }
  const template = `hiram_test_template_${Date.now()}_${randomBytes(4).toString('hex')}`
  await adminQuery(url, `CREATE DATABASE ${template}`)
  const templateUrl = new URL(url)
  templateUrl.pathname = `/${template}`
  // openDatabase runs the migrations; closing it leaves no connection, which CREATE DATABASE ... TEMPLATE needs.
  const database = await openDatabase({ kind: 'postgres', url: templateUrl.toString(), max: 1 })
  await database.close()
  project.provide('pgliteImageFile', '')
  project.provide('postgresTemplate', template)
  return async () => {
    await adminQuery(url, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`)
  }
}
