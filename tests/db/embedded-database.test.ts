/**
 * The embedded database's promises: one process per data directory, a clean close on SIGTERM, and committed
 * rows surviving a kill -9. These run real server processes, so they use PGlite whatever DATABASE_URL says.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/client'
import { config, configAudit } from '../../server/db/schema'
import { freePort } from '../support/free-port'

const children: ChildProcess[] = []
const dirs: string[] = []

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'hiram-db-'))
  dirs.push(dir)
  return dir
}

/** One node process running a TypeScript file (no npx/tsx wrapper, so signals reach the real process). */
function run(script: string, args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _ignored, ...rest } = process.env
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...rest, LOG_LEVEL: 'warn', STATIC_DIR: join(tmpdir(), 'hiram-no-static'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let output = ''
  child.stdout!.on('data', (d) => {
    output += String(d)
  })
  child.stderr!.on('data', (d) => {
    output += String(d)
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const waitFor = async (text: string, ms = 60_000) => {
    const deadline = Date.now() + ms
    while (!output.includes(text)) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for "${text}". Output:\n${output}`)
      if (child.exitCode !== null)
        throw new Error(`Exited with ${child.exitCode} before "${text}". Output:\n${output}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  return { child, exited, waitFor, output: () => output }
}

const port = async () => String(await freePort())

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('embedded database (PGlite) lifecycle', () => {
  it('refuses a second server on the same data directory before opening it, naming the directory', async () => {
    const dataDir = tempDir()
    const firstStarted = Date.now()
    const first = run('server/main.ts', [], { DATA_DIR: dataDir, PORT: await port() })
    await first.waitFor('Hiram is running')
    const firstStartup = Date.now() - firstStarted
    const started = Date.now()
    const second = run('server/main.ts', [], { DATA_DIR: dataDir, PORT: await port() })
    const code = await second.exited
    expect(code).not.toBe(0)
    // Fails fast: it refuses at the lock, before opening PGlite, migrating and seeding, so it is done sooner
    // than the first server took to start. Relative, not a fixed number of seconds: both slow down alike on a
    // loaded machine (a fixed 5 s failed under load while the refusal itself took milliseconds).
    expect(Date.now() - started).toBeLessThan(firstStartup)
    expect(second.output()).toContain(dataDir)
    expect(second.output()).toContain('already in use')
  }, 90_000)

  it('closes the database and releases the directory on SIGTERM', async () => {
    const dataDir = tempDir()
    const server = run('server/main.ts', [], { DATA_DIR: dataDir, PORT: await port() })
    await server.waitFor('Hiram is running')
    expect(existsSync(join(dataDir, 'hiram.lock'))).toBe(true)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(existsSync(join(dataDir, 'hiram.lock'))).toBe(false)
    const reopened = await openDatabase({ kind: 'pglite', dataDir })
    const rows = await reopened.db.select().from(config).where(eq(config.key, 'calculator'))
    await reopened.close()
    expect(rows).toHaveLength(1)
  }, 90_000)

  it('keeps every committed row after kill -9, and the next start takes over the stale lock', async () => {
    const dataDir = tempDir()
    const writer = run('tests/support/durability-writer.ts', [dataDir, '25'], {})
    await writer.waitFor('committed 25')
    writer.child.kill('SIGKILL')
    await writer.exited
    expect(existsSync(join(dataDir, 'hiram.lock'))).toBe(true)
    const reopened = await openDatabase({ kind: 'pglite', dataDir })
    const rows = await reopened.db.select().from(configAudit).where(eq(configAudit.key, 'durability'))
    await reopened.close()
    expect(rows.map((r) => (r.value as { i: number }).i).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    )
  }, 90_000)
})
