/**
 * Part of `npm run bench` (issue 21, item 5): the latency of the calls a borrower waits on, under 50 concurrent
 * clients, on PGlite and on PostgreSQL, beside a bare Hono route measured in the same run. Target: p99 under
 * 100 ms for each call; creating applications at least 300/s on PGlite and 500/s on PostgreSQL.
 * BENCH_ONLY=latency runs this section alone and rewrites it in docs/benchmarks.md.
 *
 * The app runs as production runs it (server/main.ts, its jobs included, TRUST_PROXY=1) on a fresh database
 * (PGlite: a temporary data directory; PostgreSQL: a database `hiram_latency_<pid>` created for the run and
 * dropped after it); the bare route in a process of its own (this file with `--bare <port>`). autocannon drives
 * both from this process, 50 connections. Each call of the journey is measured on CLIENTS distinct clients (a
 * client goes through each step once): sign-up, the phone code, each registration step, then the application;
 * every answer must have the call's success status. The journey poll and My loan, which a client repeats, run
 * for SECONDS over those clients (My loan over clients put on an active loan by the sandbox scenario).
 *
 * Settings (environment): BENCH_LATENCY_DATABASES (pglite,postgres), BENCH_LATENCY_CLIENTS (600),
 * BENCH_LATENCY_SECONDS (5), BENCH_POSTGRES_URL (the server the run's database is created on; else DATABASE_URL's
 * server, else the local one).
 */

import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { SANDBOX_COOKIE } from '../domain/journey/routing'
import { type ScratchDatabase, scratchDatabase } from './bench-database'

export const LATENCY_HEADING = '## API latency: the calls a borrower waits on'

const CONNECTIONS = 50
const CLIENTS = Number(process.env.BENCH_LATENCY_CLIENTS ?? 600)
const SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 5)
const LOAN_CLIENTS = 10
const P99_TARGET_MS = 100
const THROUGHPUT_TARGETS = { pglite: 300, postgres: 500 } as const
const ADMIN = { email: 'admin@hiram.local', password: 'HiramAdmin2026' }
const ADMIN_DEVICE = 'bench-admin-device-0001'

type Kind = keyof typeof THROUGHPUT_TARGETS

// ---------------------------------------------------------------------------------------------------------
// Servers

export interface RunningServer {
  url: string
  process: ChildProcess
  stop(): Promise<void>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitFor(url: string, child: ChildProcess, seconds = 120) {
  const until = Date.now() + seconds * 1000
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`)
    const up = await fetch(url).then(
      (res) => res.ok,
      () => false,
    )
    if (up) return
    await sleep(200)
  }
  throw new Error(`${url}: not up after ${seconds} s`)
}

function stopper(child: ChildProcess, cleanup: () => Promise<void> | void) {
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await Promise.race([exited, sleep(10_000)])
      if (child.exitCode === null) child.kill('SIGKILL')
    }
    await cleanup()
  }
}

/**
 * The production server (server/main.ts) on a fresh database, sandbox providers, codes every second, the
 * seeded back-office user trusting ADMIN_DEVICE. `staticDir`: the built web app it serves (none: API only).
 */
export async function startAppServer(options: {
  port: number
  databaseUrl?: string
  staticDir?: string
  env?: Record<string, string>
}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hiram-bench-app-'))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(options.port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // No built app: an empty directory (the API alone answers).
    STATIC_DIR: options.staticDir ?? join(dataDir, 'no-web-app'),
    SANDBOX_ADMIN_DEVICE_ID: ADMIN_DEVICE,
    SANDBOX_CONSOLE: '0',
    SANDBOX_CODE_INTERVAL_SECONDS: '1',
    ...options.env,
  }
  delete env.DATABASE_URL
  delete env.NODE_ENV
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${options.port}`
  const stop = stopper(child, () => rmSync(dataDir, { recursive: true, force: true }))
  try {
    await waitFor(`${url}/web/health`, child)
  } catch (error) {
    await stop()
    throw error
  }
  return { url, process: child, stop }
}

/** The bare route: a Hono app answering a constant JSON body, in a process of its own. */
async function startBareServer(port: number): Promise<RunningServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/bench-latency.ts', '--bare', String(port)],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  const url = `http://127.0.0.1:${port}`
  await waitFor(`${url}/bare`, child)
  return { url, process: child, stop: stopper(child, () => {}) }
}

// ---------------------------------------------------------------------------------------------------------
// Calls

interface Client {
  phone: string
  email: string
  authorization?: string
  sessionId?: string
  code?: string
}

interface Call {
  /** The call as the table shows it. */
  name: string
  method: 'GET' | 'POST' | 'PUT'
  path: (client: Client) => string
  status: number
  body?: (client: Client, index: number) => string | Buffer
  contentType?: string
  headers?: (client: Client, index: number) => Record<string, string>
  /** Reads what later calls need from the answer. */
  read?: (client: Client, body: string, headers: Record<string, string | string[]>) => void
}

interface Measured {
  name: string
  requests: number
  /** The app server process's CPU time per request, ms (what varies least on a busy machine). */
  cpuMs?: number
  rps: number
  p50: number
  p99: number
  failures: number
  firstFailure?: string
}

const json = 'application/json'
const jsonBody = (value: unknown) => JSON.stringify(value)
const auth = (client: Client) => ({ authorization: client.authorization! })

// A JPEG by its first bytes (the server recognises the format from them), as a multipart upload.
const BOUNDARY = '----hiram-bench-boundary'
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 2, 3])
const photoUpload = () =>
  Buffer.concat([
    Buffer.from(
      [
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\nfront\r\n`,
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="capturedAt"\r\n\r\n${new Date().toISOString()}\r\n`,
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="front.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ].join(''),
    ),
    JPEG,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ])

/** The journey's calls in order, each made once per client (the same bodies as e2e/clients.ts). */
const journeyCalls: Call[] = [
  {
    name: 'sign-up `POST /web/public/client`',
    method: 'POST',
    path: () => '/web/public/client',
    status: 201,
    body: (client) =>
      jsonBody({
        mobilePhone: { number: client.phone },
        email: client.email,
        password: 'Bench12345',
        passwordRepeat: 'Bench12345',
        consents: { terms: true, privacy: true },
        captchaToken: 'bench',
      }),
    // Each sign-up from an address of its own: the per-address sign-up cap is not what is measured.
    headers: (_, i) => ({ 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }),
    read: (client, _, headers) => {
      client.authorization = String(headers.authorization ?? headers.Authorization ?? '')
    },
  },
  {
    name: 'phone code `POST /web/private/client/phone/verify`',
    method: 'POST',
    path: () => '/web/private/client/phone/verify',
    status: 200,
    body: (client) => jsonBody({ code: client.code }),
    headers: auth,
  },
  {
    name: 'details `PUT /web/private/client`',
    method: 'PUT',
    path: () => '/web/private/client',
    status: 200,
    body: (client) =>
      jsonBody({
        firstName: 'Juan',
        middleName: 'Santos',
        lastName: 'Dela Cruz',
        birthDate: '1990-05-17',
        gender: 'male',
        civilStatus: 'married',
        email: client.email,
      }),
    headers: auth,
  },
  {
    name: 'employment `PUT …/complete-step-two`',
    method: 'PUT',
    path: () => '/web/private/client/complete-step-two',
    status: 200,
    body: () =>
      jsonBody({
        employmentType: 'employed_private',
        companyName: 'Ayala Land Inc.',
        monthlyIncome: '28000',
        monthlyExpenses: '12000',
      }),
    headers: auth,
  },
  {
    name: 'reference `PUT …/complete-step-three`',
    method: 'PUT',
    path: () => '/web/private/client/complete-step-three',
    status: 200,
    body: () => jsonBody({ fullName: 'Maria Dela Cruz', relation: 'spouse', phone: '09998887766' }),
    headers: auth,
  },
  {
    name: 'address `PUT …/complete-step-four`',
    method: 'PUT',
    path: () => '/web/private/client/complete-step-four',
    status: 200,
    body: () =>
      jsonBody({
        regionId: '1300000000',
        cityId: '1381300000',
        districtId: '1381300000',
        wardId: '1381300001',
        street: '12 Kalayaan Ave.',
      }),
    headers: auth,
  },
  {
    name: 'ID photo `POST …/id-document/upload`',
    method: 'POST',
    path: () => '/web/private/client/id-document/upload',
    status: 201,
    body: photoUpload,
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    headers: auth,
  },
  {
    name: 'ID document `POST …/id-document/finish`',
    method: 'POST',
    path: () => '/web/private/client/id-document/finish',
    status: 200,
    body: () => jsonBody({ documentType: 'SSS', documentNumber: '34-1234567-8' }),
    headers: auth,
  },
  {
    name: 'identity session `POST …/veriff/session`',
    method: 'POST',
    path: () => '/web/private/client/veriff/session',
    status: 201,
    body: () => '{}',
    headers: auth,
    read: (client, body) => {
      client.sessionId = (JSON.parse(body) as { data: { id: string } }).data.id
    },
  },
  {
    name: 'identity decision `GET …/veriff/decision/{id}`',
    method: 'GET',
    path: (client) => `/web/private/client/veriff/decision/${client.sessionId}`,
    status: 200,
    headers: auth,
  },
  {
    name: 'bank data skipped `POST …/kontomatik/skip`',
    method: 'POST',
    path: () => '/web/private/client/kontomatik/skip',
    status: 200,
    body: () => '{}',
    headers: auth,
  },
  {
    name: 'payout account `POST …/disbursement-type`',
    method: 'POST',
    path: () => '/web/private/client/disbursement-type',
    status: 201,
    body: (client) =>
      jsonBody({ type: 'bank_transfer', bankId: 1, accountNumber: `00${client.phone.slice(-8)}12` }),
    headers: auth,
  },
  {
    name: 'registration finished `PUT …/finish`',
    method: 'PUT',
    path: () => '/web/private/client/finish',
    status: 200,
    body: () => '{}',
    headers: auth,
  },
]

const APPLY_NAME = 'apply `POST /web/private/client/application`'
const applyCall: Call = {
  name: APPLY_NAME,
  method: 'POST',
  path: () => '/web/private/client/application',
  status: 201,
  body: () => jsonBody({ loanAmount: { amount: 5_000_00, currency: 'PHP' }, term: { value: 14 } }),
  headers: auth,
}

const FLOW_NAME = 'journey poll `GET /web/private/client/flow`'
const LOAN_NAME = 'My loan `GET /web/private/client/loan/active`'

/**
 * One call made once for each client, `CONNECTIONS` at a time; every answer checked for the call's status. The
 * clients it succeeded for go on to the next call (a failure is counted, and its client drops out).
 */
async function measureOnce(
  base: string,
  call: Call,
  clients: Client[],
): Promise<{ measured: Measured; succeeded: Client[] }> {
  const succeeded: Client[] = []
  let next = 0
  let failures = 0
  let firstFailure: string | undefined
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    amount: clients.length,
    timeout: 60,
    requests: [
      {
        setupRequest: (request, context) => {
          const index = next++
          const client = clients[index % clients.length]!
          ;(context as { index?: number }).index = index
          const body = call.body?.(client, index)
          return {
            ...request,
            method: call.method,
            path: call.path(client),
            headers: {
              ...(body === undefined ? {} : { 'content-type': call.contentType ?? json }),
              ...call.headers?.(client, index),
            },
            ...(body === undefined ? {} : { body }),
          }
        },
        onResponse: (status, body, context, headers) => {
          const client = clients[(context as { index: number }).index % clients.length]!
          if (status !== call.status) {
            failures++
            firstFailure ??= `${status} ${String(body).slice(0, 200)}`
            return
          }
          call.read?.(client, String(body), (headers ?? {}) as Record<string, string | string[]>)
          succeeded.push(client)
        },
      },
    ],
  })
  const measured: Measured = {
    name: call.name,
    requests: result.requests.total,
    // Little's law over the closed loop: autocannon ends a run of `amount` requests on its 1-second tick, so the
    // run's wall time is whole seconds, far too coarse for runs of a second or two.
    rps: (CONNECTIONS * 1000) / Math.max(result.latency.mean, 0.001),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: failures + result.errors + result.timeouts,
    firstFailure: firstFailure ?? (result.timeouts ? `${result.timeouts} timed out (60 s)` : undefined),
  }
  return { measured, succeeded }
}

/** A call repeated for SECONDS over the clients (GETs a client makes again and again). */
async function measureFor(base: string, name: string, path: string, clients: Client[]): Promise<Measured> {
  let next = 0
  let failures = 0
  let firstFailure: string | undefined
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: (request) => {
          const client = clients[next++ % clients.length]!
          return { ...request, method: 'GET', path, headers: client.authorization ? auth(client) : {} }
        },
        onResponse: (status, body) => {
          if (status === 200) return
          failures++
          firstFailure ??= `${status} ${String(body).slice(0, 200)}`
        },
      },
    ],
  })
  return {
    name,
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: failures + result.errors + result.timeouts,
    firstFailure,
  }
}

async function ok(res: Response, status = 200) {
  if (res.status !== status) throw new Error(`${res.url}: ${res.status} ${await res.text()}`)
  return res
}

async function adminToken(base: string): Promise<string> {
  const res = await ok(
    await fetch(`${base}/web/public/user/login`, {
      method: 'POST',
      headers: { 'content-type': json, 'x-device-id': ADMIN_DEVICE },
      body: jsonBody({ ...ADMIN, captchaToken: 'bench', deviceId: ADMIN_DEVICE }),
    }),
  )
  return res.headers.get('authorization')!.replace(/^Bearer\s+/i, '')
}

/** Each client's sign-up code, from the sandbox outbox, a few lookups at a time. */
async function readCodes(base: string, token: string, clients: Client[]) {
  let next = 0
  const worker = async () => {
    while (next < clients.length) {
      const client = clients[next++]!
      const res = await ok(
        await fetch(`${base}/web/private/back-office/outbox?recipient=${encodeURIComponent(client.phone)}`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      )
      const [newest] = ((await res.json()) as { data: { body: string }[] }).data
      client.code = /\b(\d{3})\b/.exec(newest?.body ?? '')?.[1]
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
}

/** Clients with an active loan, each made by the sandbox scenario (the QA cookie logs the caller in as it). */
async function clientsWithLoans(base: string, count: number): Promise<Client[]> {
  const clients: Client[] = []
  for (let i = 0; i < count; i++) {
    const res = await ok(
      await fetch(`${base}/web/public/sandbox/scenarios/loan-active`, {
        method: 'POST',
        headers: { 'content-type': json, cookie: `${SANDBOX_COOKIE}=1` },
        body: '{}',
      }),
      201,
    )
    clients.push({ phone: '', email: '', authorization: res.headers.get('authorization')! })
  }
  return clients
}

const bareCall = (base: string) =>
  measureFor(base, 'bare Hono route (constant JSON)', '/bare', [{ phone: '', email: '' }])

interface DatabaseResult {
  kind: Kind
  /** The machine's 1-minute load average at the end (2 cores: above 2, other work competed for them). */
  load?: number
  calls: Measured[]
  bare: Measured[]
  error?: string
}

async function benchDatabase(kind: Kind, ports: [number, number]): Promise<DatabaseResult> {
  const result: DatabaseResult = { kind, calls: [], bare: [] }
  const database = `hiram_latency_${process.pid}`
  let scratch: ScratchDatabase | undefined
  let app: RunningServer | undefined
  let bare: RunningServer | undefined
  try {
    if (kind === 'postgres') scratch = await scratchDatabase(database)
    const databaseUrl = scratch?.url
    app = await startAppServer({ port: ports[0], databaseUrl, env: { TRUST_PROXY: '1' } })
    bare = await startBareServer(ports[1])
    // Warm-up: JIT of both servers.
    await bareCall(bare.url)
    result.bare.push(await bareCall(bare.url))
    let clients: Client[] = Array.from({ length: CLIENTS }, (_, i) => ({
      phone: `0955${String(i).padStart(7, '0')}`,
      email: `bench.${i}@example.ph`,
    }))
    const token = await adminToken(app.url)
    for (const call of [...journeyCalls, applyCall]) {
      if (call === journeyCalls[1]) await readCodes(app.url, token, clients)
      const server = app
      let succeeded: Client[] = []
      const current = clients
      const measured = await withCpu(server, async () => {
        const once = await measureOnce(server.url, call, current)
        succeeded = once.succeeded
        return once.measured
      })
      console.info(
        `latency ${kind}: ${measured.name}: ${measured.rps.toFixed(0)}/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms, ${measured.failures} failed${measured.firstFailure ? ` (${measured.firstFailure})` : ''}`,
      )
      result.calls.push(measured)
      if (succeeded.length === 0) throw new Error(`${call.name}: every call failed: ${measured.firstFailure}`)
      clients = succeeded
    }
    result.bare.push(await bareCall(bare.url))
    const server = app
    result.calls.push(
      await withCpu(server, () => measureFor(server.url, FLOW_NAME, '/web/private/client/flow', clients)),
    )
    const withLoans = await clientsWithLoans(app.url, LOAN_CLIENTS)
    result.calls.push(
      await withCpu(server, () =>
        measureFor(server.url, LOAN_NAME, '/web/private/client/loan/active', withLoans),
      ),
    )
    result.bare.push(await bareCall(bare.url))
    for (const measured of result.calls.slice(-2))
      console.info(
        `latency ${kind}: ${measured.name}: ${measured.rps.toFixed(0)}/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms, ${measured.failures} failed`,
      )
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error)
    console.error(`latency bench on ${kind}:`, error)
  } finally {
    result.load = loadavg()[0]!
    await app?.stop()
    await bare?.stop()
    await scratch?.drop()
  }
  return result
}

const TICK_MS = 1000 / 100 // CLK_TCK is 100 on Linux

/** A process's CPU time so far (ms, user + system), from /proc; NaN where it cannot be read. */
function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS
  } catch {
    return Number.NaN
  }
}

/** A measurement with the server's CPU time per request over it. */
async function withCpu(server: RunningServer, measure: () => Promise<Measured>): Promise<Measured> {
  const before = processCpuMs(server.process.pid)
  const measured = await measure()
  measured.cpuMs = (processCpuMs(server.process.pid) - before) / Math.max(1, measured.requests)
  return measured
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

function section(results: DatabaseResult[]): { markdown: string; pass: boolean } {
  let pass = true
  const parts: string[] = []
  for (const r of results) {
    const title = r.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'
    if (r.error && r.calls.length === 0) {
      pass = false
      parts.push(`### ${title}\n\nNot measured: ${r.error}\n`)
      continue
    }
    const bareRps = median(r.bare.map((b) => b.rps))
    const bareP99 = median(r.bare.map((b) => b.p99))
    const rows = r.calls.map((m) => {
      const ok = m.p99 < P99_TARGET_MS && m.failures === 0
      if (!ok) pass = false
      return `| ${m.name}${m.firstFailure ? ` (first failure: ${m.firstFailure.slice(0, 80).replace(/\|/g, '\\|')})` : ''} | ${m.requests} | ${m.rps.toFixed(0)} | ${m.p50} | ${m.p99} | ${m.cpuMs?.toFixed(2) ?? '–'} | ${m.failures} | ${ok ? 'pass' : '**FAIL**'} |`
    })
    const apply = r.calls.find((m) => m.name === APPLY_NAME)
    const target = THROUGHPUT_TARGETS[r.kind]
    const applyPass = Boolean(apply && apply.rps >= target && apply.failures === 0)
    if (!applyPass) pass = false
    parts.push(`### ${title}

Load average of the machine (1 minute, 2 cores) at the end of the run: ${r.load?.toFixed(1) ?? '–'}.

| Call | requests | per second | p50 ms | p99 ms | server CPU ms/request | failed | p99 < ${P99_TARGET_MS} ms |
|---|---:|---:|---:|---:|---:|---:|---|
| bare Hono route (constant JSON), median of ${r.bare.length} runs of ${SECONDS} s | ${r.bare.reduce((s, b) => s + b.requests, 0)} | ${bareRps.toFixed(0)} | ${median(r.bare.map((b) => b.p50))} | ${bareP99} | | ${r.bare.reduce((s, b) => s + b.failures, 0)} | |
${rows.join('\n')}

Application creation: **${apply ? apply.rps.toFixed(0) : '–'}/s** (target ≥ ${target}/s): **${applyPass ? 'PASS' : 'FAIL'}**.${r.error ? `\n\nThe run stopped early: ${r.error}` : ''}
`)
  }
  const markdown = `${LATENCY_HEADING}

Issue 21, item 5: the calls a borrower waits on, ${CONNECTIONS} concurrent clients (autocannon, ${CONNECTIONS}
connections on loopback, load generator and server on the same machine), against the production server
(server/main.ts, its background jobs running, sandbox providers, request log at \`warn\`) on a fresh database.
Each journey call is made once by each of ${CLIENTS} clients (a step cannot be repeated), in the journey's order,
every answer checked; the journey poll and My loan (${LOAN_CLIENTS} clients on an active loan from the sandbox
scenario) run for ${SECONDS} s. The bare route is a Hono app answering a constant JSON body in a process of its
own, measured before, between and after. Per second, for the journey calls: ${CONNECTIONS} connections over the mean
latency (Little's law; autocannon ends a fixed number of requests on its 1-second tick). Server CPU: the app
process's user and system time over the call, per request (PGlite runs inside it; PostgreSQL's backends are not
counted). Targets: p99 < ${P99_TARGET_MS} ms for every call; applications created
≥ 300/s on PGlite and ≥ 500/s on PostgreSQL. Generated by \`npm run bench\` (this section alone:
\`BENCH_ONLY=latency npm run bench\`); method: scripts/bench-latency.ts.

${parts.join('\n')}
All calls under ${P99_TARGET_MS} ms at p99 and the application rate met: **${pass ? 'PASS' : 'FAIL'}**.
`
  return { markdown, pass }
}

export async function benchLatency(): Promise<{ markdown: string; pass: boolean }> {
  const kinds = (process.env.BENCH_LATENCY_DATABASES ?? 'pglite,postgres')
    .split(',')
    .map((k) => k.trim()) as Kind[]
  const results: DatabaseResult[] = []
  for (const [i, kind] of kinds.entries())
    results.push(await benchDatabase(kind, [3931 + 2 * i, 3932 + 2 * i]))
  return section(results)
}

// `--bare <port>`: the bare route's own process.
if (process.argv[2] === '--bare') {
  const { serve } = await import('@hono/node-server')
  const { Hono } = await import('hono')
  const bare = new Hono()
  const constant = { success: true, data: { status: 'ok' }, response: { status: 200 } }
  bare.get('/bare', (c) => c.json(constant))
  serve({ fetch: bare.fetch, port: Number(process.argv[3]) })
  process.on('SIGTERM', () => process.exit(0))
}
