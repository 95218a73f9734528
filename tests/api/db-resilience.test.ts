/**
 * The server survives its database (issue 13, item 1). A real server process (`server/main.ts`) on a fresh
 * PostgreSQL database takes sign-ups (a transaction each) and affiliate leads (single inserts) from several
 * callers while another connection terminates every backend of that database again and again, as a restart or
 * a failover would. The process must stay up, every failure must be a 503 envelope (never a 500, never a dropped
 * socket), every write answered 2xx must be in the database, and requests after the storm must succeed.
 * Readiness (`/web/health/ready`) must follow the database: 503 while it refuses connections, 200 again after.
 *
 * It needs PostgreSQL (DATABASE_URL's server, or postgres://root@127.0.0.1:5432); without one it is skipped and
 * says so, because the embedded database has no connections to cut.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes, randomInt } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/client'
import { seedReferenceData } from '../../server/db/seed'
import { freePort } from '../support/free-port'
import { POSTGRES_SERVER_URL, postgresUnreachable } from '../support/postgres'

const SERVER_URL = POSTGRES_SERVER_URL

const unreachable = await postgresUnreachable()
if (unreachable)
  console.warn(`db-resilience: skipped, PostgreSQL at ${SERVER_URL} is unreachable (${unreachable})`)

const ADMIN_EMAIL = 'resilience@hiram.test'
const ADMIN_PASSWORD = 'Resilience-2026'
const ADMIN_DEVICE = `resilience-device-${randomBytes(4).toString('hex')}`

interface Answer {
  /** HTTP status, or 0 when the socket was dropped without an answer. */
  status: number
  body?: { success?: boolean; data?: Record<string, unknown>; response?: { status?: number; code?: string } }
  token?: string
  error?: string
}

let sequence = 0
const nextPhone = () => `09${String(randomInt(0, 1e8)).padStart(8, '0')}${sequence++ % 10}`

describe.skipIf(Boolean(unreachable))('the server survives PostgreSQL ending its connections', () => {
  const name = `hiram_resilience_${Date.now()}_${randomBytes(3).toString('hex')}`
  const dataDir = mkdtempSync(join(tmpdir(), 'hiram-resilience-'))
  const url = new URL(SERVER_URL)
  url.pathname = `/${name}`
  let child: ChildProcess | undefined
  let output = ''
  let base = ''
  let created = false
  let adminToken = ''

  async function call(method: string, path: string, body?: unknown, token?: string): Promise<Answer> {
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          // TRUST_PROXY=1: every sign-up comes from its own address, so no per-address limit gets in the way.
          'x-forwarded-for': `198.51.100.${randomInt(1, 255)}`,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      })
      const text = await res.text()
      let parsed: Answer['body']
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = undefined
      }
      const auth = res.headers.get('authorization')?.replace(/^Bearer /, '')
      return { status: res.status, body: parsed, token: auth }
    } catch (error) {
      return { status: 0, error: String(error) }
    }
  }

  const signUp = () => {
    const phone = nextPhone()
    return call('POST', '/public/client', {
      mobilePhone: { number: phone },
      email: `resilience.${phone}@example.ph`,
      password: 'secret123',
      passwordRepeat: 'secret123',
      consents: { terms: true, privacy: true },
      captchaToken: 'ok',
      deviceId: `resilience-${phone}`,
    })
  }
  const createLead = () =>
    call(
      'POST',
      '/private/back-office/affiliates/leads',
      { phone: nextPhone(), affiliate: { partner: 'resilience' } },
      adminToken,
    )

  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: SERVER_URL })
    await client.connect()
    try {
      return await fn(client)
    } finally {
      await client.end()
    }
  }

  beforeAll(async () => {
    await admin((c) => c.query(`CREATE DATABASE ${name}`))
    created = true
    // Migrated and seeded here, small (no PSGC), so the server's own start-up only finds it done.
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 2 })
    await seedReferenceData(database.db)
    await database.close()

    const port = await freePort()
    base = `http://127.0.0.1:${port}/web`
    child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: process.cwd(),
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: url.toString(),
        DATA_DIR: dataDir,
        STATIC_DIR: join(dataDir, 'no-static'),
        JWT_SECRET: randomBytes(48).toString('base64url'),
        LOG_LEVEL: 'warn',
        DEMO_CLIENT: '0',
        SANDBOX_CONSOLE: '0',
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        SANDBOX_ADMIN_DEVICE_ID: ADMIN_DEVICE,
        TRUST_PROXY: '1',
        // The lending worker's claim is a transaction: polled often, it keeps a client checked out between
        // awaits most of the time, the very state in which a lost backend used to kill the process.
        LENDING_POLL_MS: '50',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout?.on('data', (chunk) => {
      output += chunk
    })
    child.stderr?.on('data', (chunk) => {
      output += chunk
    })
    const deadline = Date.now() + 90_000
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited at start-up:\n${output}`)
      if (Date.now() > deadline) throw new Error(`the server did not start in 90 s:\n${output}`)
      if ((await call('GET', '/health/live')).status === 200) break
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const login = await call('POST', '/public/user/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      captchaToken: 'ok',
      deviceId: ADMIN_DEVICE,
    })
    expect(login.status, JSON.stringify(login.body)).toBe(200)
    adminToken = login.token!
  }, 150_000)

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child!.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    }
    if (created) await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    rmSync(dataDir, { recursive: true, force: true })
  }, 30_000)

  it('stays up under repeated pg_terminate_backend, answers 503 envelopes, loses no acknowledged write', async () => {
    const answers: { kind: 'client' | 'lead'; answer: Answer }[] = []
    let stop = false
    let terminated = 0

    const killer = (async () => {
      const client = new pg.Client({ connectionString: SERVER_URL })
      await client.connect()
      try {
        while (!stop) {
          const result = await client.query(
            'select pg_terminate_backend(pid) as gone from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [name],
          )
          terminated += result.rows.filter((row) => row.gone).length
          await new Promise((resolve) => setTimeout(resolve, randomInt(100, 400)))
        }
      } finally {
        await client.end()
      }
    })()

    const callers = Array.from({ length: 6 }, async (_, i) => {
      while (!stop) {
        const kind = i % 2 ? 'lead' : 'client'
        answers.push({ kind, answer: await (kind === 'lead' ? createLead() : signUp()) })
      }
    })
    await new Promise((resolve) => setTimeout(resolve, 12_000))
    stop = true
    await Promise.all([killer, ...callers])

    expect(child!.exitCode, `the server exited:\n${output}`).toBeNull()
    expect(terminated).toBeGreaterThan(0)

    const written = answers.filter((a) => a.answer.status === 201)
    const failed = answers.filter((a) => a.answer.status !== 201)
    // Every failure is the 503 envelope: no 500, no dropped socket, no HTML or empty body.
    for (const { answer } of failed) {
      expect(answer.status, answer.error ?? JSON.stringify(answer.body)).toBe(503)
      expect(answer.body).toMatchObject({
        success: false,
        response: { status: 503, code: 'serviceUnavailable' },
      })
    }
    expect(written.length).toBeGreaterThan(0)
    console.info(
      `db-resilience: ${answers.length} writes, ${written.length} acknowledged, ${failed.length} answered 503, ${terminated} backends terminated`,
    )

    // After the storm the server serves again on fresh connections.
    const after = [await signUp(), await createLead(), await call('GET', '/health/ready')]
    expect(after.map((a) => a.status)).toEqual([201, 201, 200])
    written.push({ kind: 'client', answer: after[0]! }, { kind: 'lead', answer: after[1]! })

    // Every acknowledged write is in the database.
    const clientIds = written
      .filter((w) => w.kind === 'client')
      .map((w) => Number((w.answer.body?.data?.client as { id: number }).id))
    const leadIds = written.filter((w) => w.kind === 'lead').map((w) => String(w.answer.body?.data?.leadId))
    const check = new pg.Client({ connectionString: url.toString() })
    await check.connect()
    const found = await Promise.all([
      check.query('select id from client where id = any($1::int[])', [clientIds]),
      check.query('select id from affiliate_lead where id::text = any($1::text[])', [leadIds]),
    ]).finally(() => check.end())
    const counts = { clients: found[0].rowCount, leads: found[1].rowCount }
    expect(counts).toEqual({ clients: new Set(clientIds).size, leads: new Set(leadIds).size })
    expect(output).not.toMatch(/uncaught|unhandled/i)
  }, 90_000)

  it('readiness answers 503 while the database refuses connections, and 200 once it is back', async () => {
    expect((await call('GET', '/health/ready')).status).toBe(200)
    await admin(async (c) => {
      await c.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`)
      await c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name])
    })
    try {
      const ready = await call('GET', '/health/ready')
      expect(ready.status).toBe(503)
      expect(ready.body).toMatchObject({
        success: false,
        response: { status: 503, code: 'serviceUnavailable' },
      })
      // Liveness does not depend on the database: an orchestrator must not restart a healthy process for it.
      expect((await call('GET', '/health/live')).status).toBe(200)
      // The old health check keeps answering for Playwright.
      expect((await call('GET', '/health')).status).toBe(200)
      // Ordinary requests fail the same way: a connection that cannot be opened is the database's fault.
      const write = await createLead()
      expect(write.status).toBe(503)
      expect(write.body).toMatchObject({ response: { code: 'serviceUnavailable' } })
    } finally {
      await admin((c) => c.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`))
    }
    expect((await call('GET', '/health/ready')).status).toBe(200)
    expect((await createLead()).status).toBe(201)
    expect(child!.exitCode).toBeNull()
  }, 60_000)
})
