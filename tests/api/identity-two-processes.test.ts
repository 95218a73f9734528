/**
 * The limits live in the database, so they hold across server processes: two real servers (`server/main.ts`)
 * on one fresh PostgreSQL database share the code minute limit and the failed-login limit. This test always
 * runs; if PostgreSQL is unreachable it fails rather than skipping, because an untested limit is no limit.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/client'
import { seedReferenceData } from '../../server/db/seed'
import { LOGIN_MAX_FAILURES_PER_ACCOUNT } from '../../server/services/identity/login'
import { freePorts } from '../support/free-port'
import { newPhone, PASSWORD } from './identity-helpers'

const SERVER_URL = process.env.DATABASE_URL || 'postgres://root@127.0.0.1:5432/test'

interface Server {
  base: string
  child: ChildProcess
  output: () => string
}

async function startServer(
  databaseUrl: string,
  port: number,
  jwtSecret: string,
  dataDir: string,
): Promise<Server> {
  let output = ''
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: jwtSecret,
      DATA_DIR: dataDir,
      STATIC_DIR: join(dataDir, 'no-static'),
      SANDBOX_CONSOLE: '0',
      DEMO_CLIENT: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const base = `http://127.0.0.1:${port}/web`
  const deadline = Date.now() + 45_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server on port ${port} exited:\n${output}`)
    try {
      const res = await fetch(`${base}/health`)
      if (res.ok) return { base, child, output: () => output }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  child.kill('SIGTERM')
  throw new Error(`server on port ${port} did not start in 45 s:\n${output}`)
}

async function post(server: Server, path: string, body: unknown, token?: string) {
  const res = await fetch(`${server.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  const json = (await res.json()) as { data: Record<string, unknown>; response: { code?: string } }
  return { status: res.status, code: json.response.code, data: json.data, res }
}

const signUpBody = (phone: string) => ({
  mobilePhone: { number: phone },
  email: `two.${phone}@example.ph`,
  password: PASSWORD,
  passwordRepeat: PASSWORD,
  consents: { terms: true, privacy: true },
  captchaToken: 'ok',
  deviceId: `two-process-${phone}`,
})

describe('limits hold across two server processes on one PostgreSQL database', () => {
  const name = `hiram_two_${Date.now()}_${randomBytes(3).toString('hex')}`
  const dataDir = mkdtempSync(join(tmpdir(), 'hiram-two-'))
  const servers: Server[] = []
  let created = false

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: SERVER_URL })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    created = true
    const url = new URL(SERVER_URL)
    url.pathname = `/${name}`
    // Migrate and seed once, before the servers start, so they do not race each other creating tables.
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 2 })
    await seedReferenceData(database.db)
    await database.close()
    const secret = randomBytes(48).toString('base64url')
    const [first, second] = (await freePorts(2)) as [number, number]
    servers.push(await startServer(url.toString(), first, secret, join(dataDir, 'a')))
    servers.push(await startServer(url.toString(), second, secret, join(dataDir, 'b')))
  }, 120_000)

  afterAll(async () => {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            if (server.child.exitCode !== null) return resolve()
            server.child.once('exit', () => resolve())
            server.child.kill('SIGTERM')
            setTimeout(() => {
              server.child.kill('SIGKILL')
              resolve()
            }, 5000).unref()
          }),
      ),
    )
    if (created) {
      const admin = new pg.Client({ connectionString: SERVER_URL })
      await admin.connect()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
    rmSync(dataDir, { recursive: true, force: true })
  }, 30_000)

  it('the code minute limit: a code sent by one process stops the next from the other', async () => {
    const [a, b] = servers as [Server, Server]
    const phone = newPhone()
    const up = await post(a, '/public/client', signUpBody(phone))
    expect(up.status).toBe(201)
    const token = /^Bearer (.+)$/.exec(up.res.headers.get('authorization') ?? '')![1]!
    // The session and its token are good on the other process too.
    const again = await post(b, '/private/client/phone/sms-code', undefined, token)
    expect(again.status).toBe(429)
    expect(again.code).toBe('codeMinuteLimit')

    // Concurrent requests for one number, spread over both processes: exactly one code goes out.
    const fresh = newPhone()
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post(i % 2 ? b : a, '/public/client/phone/sms-code', {
          mobilePhone: { number: fresh },
          captchaToken: 'ok',
        }),
      ),
    )
    const statuses = answers.map((x) => x.status).sort()
    expect(statuses).toEqual([200, 429, 429, 429, 429, 429, 429, 429])
  }, 30_000)

  it('the failed-login limit: failures on either process count together, even when concurrent', async () => {
    const [a, b] = servers as [Server, Server]
    const phone = newPhone()
    expect((await post(b, '/public/client', signUpBody(phone))).status).toBe(201)
    // A stranger's device (the sign-up's device is trusted, and keeps its own budget: identity-abuse.test.ts).
    const attempt = (server: Server, password: string) =>
      post(server, '/public/client/login', {
        login: phone,
        password,
        captchaToken: 'ok',
        deviceId: `stranger-${phone}`,
      })
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT; i++) {
      expect((await attempt(i % 2 ? b : a, 'wrong123')).status).toBe(401)
    }
    for (const server of [a, b]) {
      const locked = await attempt(server, PASSWORD)
      expect(locked.status).toBe(429)
      expect(locked.code).toBe('tooManyAttempts')
    }

    // A burst of wrong passwords at both processes at once never gets more than the limit checked.
    const other = newPhone()
    expect((await post(a, '/public/client', signUpBody(other))).status).toBe(201)
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(i % 2 ? b : a, '/public/client/login', {
          login: other,
          password: 'wrong123',
          captchaToken: 'ok',
        }),
      ),
    )
    const checked = burst.filter((x) => x.status === 401).length
    expect(checked).toBeGreaterThanOrEqual(1)
    expect(checked).toBeLessThanOrEqual(LOGIN_MAX_FAILURES_PER_ACCOUNT)
    expect(burst.every((x) => x.status === 401 || x.status === 429)).toBe(true)
  }, 60_000)
})
