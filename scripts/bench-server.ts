/**
 * Child process of `npm run bench`: the real app on a fresh embedded database (or the PostgreSQL database of
 * DATABASE_URL), and beside it a bare Hono app answering a constant JSON body, both in this one process so they
 * share the same runtime and machine.
 *
 * With BENCH_PAYMENTS=1 (scripts/bench-payments.ts) the side port also serves the payments benchmark's fixture,
 * its direct baselines, the check of a run and a query counter (scripts/bench-payments-direct.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance as nodePerformance } from 'node:perf_hooks'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { loadSecrets } from '../server/auth/secrets'
import { openDatabase } from '../server/db/client'
import { startMaintenance } from '../server/db/maintenance'
import { seedReferenceData } from '../server/db/seed'
import type { AppDeps } from '../server/deps'
import { createApp } from '../server/http/app'
import { startHttpServer } from '../server/http/node-server'
import { createLogger } from '../server/logger'
import { sandboxBankData } from '../server/providers/bank-data'
import { sandboxCaptcha } from '../server/providers/captcha'
import { sandboxIdentityVerification } from '../server/providers/identity-verification'
import { createSandboxMessaging } from '../server/providers/messaging'
import { createSandboxGateway } from '../server/providers/payment-gateway-sandbox'
import { sandboxPayout } from '../server/providers/payout'
import { sandboxScoring } from '../server/providers/scoring'
import { receiptsSent } from '../server/services/payments/batch-posting'
import { installQueryCounter, type LoadOptions, runDirect, verifyRun } from './bench-payments-direct'
import { benchGatewaySecret } from './bench-payments-events'
import { createLoanFixture } from './bench-payments-fixture'

const [appPort, barePort] = process.argv.slice(2).map(Number)
const dataDir = mkdtempSync(join(tmpdir(), 'hiram-bench-'))
const database = process.env.DATABASE_URL
  ? await openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL })
  : await openDatabase({ kind: 'pglite', dataDir })
await seedReferenceData(database.db)
// Request logs go to a sink: the benchmark measures the API, not the terminal.
const logger = createLogger('silent')
// As server/main.ts runs it: the embedded database's autovacuum (docs/decisions/0051).
startMaintenance(database, logger)
const deps: AppDeps = {
  database,
  logger,
  secrets: loadSecrets(process.env, dataDir),
  now: () => new Date(),
  messaging: createSandboxMessaging(logger, false),
  captcha: sandboxCaptcha,
  identityVerification: sandboxIdentityVerification,
  bankData: sandboxBankData,
  scoring: sandboxScoring,
  payout: sandboxPayout,
  // Webhooks to this process's own port; the load generator signs its events with the same key.
  paymentGateway: createSandboxGateway({
    secret: benchGatewaySecret(),
    deliver: (request) => {
      const { pathname } = new URL(request.url)
      return request.text().then((body) =>
        fetch(`http://127.0.0.1:${appPort ?? 3901}${pathname}`, {
          method: 'POST',
          headers: request.headers,
          body,
        }),
      )
    },
  }),
  uploadsDir: join(dataDir, 'uploads'),
}
const app = createApp(deps)
// The app behind the production server and its limits (server/http/node-server.ts), as main.ts runs it.
startHttpServer(app, { port: appPort ?? 3901 })

const bare = new Hono()
const constant = { success: true, data: { status: 'ok' }, response: { status: 200 } }
bare.get('/bare', (c) => c.json(constant))
// This process's CPU time (user + system, µs), read by the bench before and after each load: CPU per request is
// the figure that two targets on one noisy 2-core machine can be compared by most fairly.
bare.get('/cpu', (c) => {
  const { user, system } = process.cpuUsage()
  return c.json({ micros: user + system })
})
// This process's resident memory, for the large-body section (scripts/bench-memory.ts).
bare.get('/memory', (c) => c.json({ rss: process.memoryUsage().rss }))
if (process.env.BENCH_PAYMENTS === '1') {
  // The event loop's busy and idle time so far (ms): the share busy during a run says whether this process's one
  // thread (which PGlite runs in) was the bottleneck.
  bare.get('/payments/loop', (c) => {
    const { active, idle } = nodePerformance.eventLoopUtilization()
    return c.json({ active, idle })
  })
  bare.post('/payments/fixture', async (c) => {
    const { count } = await c.req.json<{ count: number }>()
    return c.json(await createLoanFixture(database, count))
  })
  bare.post('/payments/direct', async (c) => c.json(await runDirect(deps, await c.req.json<LoadOptions>())))
  bare.post('/payments/verify', async (c) => {
    const { tag } = await c.req.json<{ tag: string }>()
    // A batched webhook answers at its commit; its receipt follows (server/services/payments/batch-posting.ts).
    await receiptsSent(deps)
    return c.json(await verifyRun(database, tag))
  })
  // A CPU profile of this process over one run (BENCH_PAYMENTS_PROFILE), written where the bench asks.
  let profiler: Session | undefined
  bare.post('/payments/profile/start', async (c) => {
    profiler = new Session()
    profiler.connect()
    await profiler.post('Profiler.enable')
    await profiler.post('Profiler.start')
    return c.json({ started: true })
  })
  bare.post('/payments/profile/stop', async (c) => {
    const { file } = await c.req.json<{ file: string }>()
    if (!profiler) return c.json({ written: false })
    const { profile } = await profiler.post('Profiler.stop')
    profiler.disconnect()
    profiler = undefined
    writeFileSync(file, JSON.stringify(profile))
    return c.json({ written: true })
  })
  // Statements sent to the database so far (counted from the first call on).
  let queries: (() => number) | undefined
  bare.get('/payments/queries', (c) => {
    queries ??= installQueryCounter(database)
    return c.json({ count: queries() })
  })
}
// SIGTERM from the bench: close the database (PGlite writes its files), remove this run's data directory, and
// exit normally, so that --cpu-prof writes its profile.
process.on('SIGTERM', () => {
  database
    .close()
    .catch(() => {})
    .finally(() => {
      rmSync(dataDir, { recursive: true, force: true })
      process.exit(0)
    })
})
serve({ fetch: bare.fetch, port: barePort }, () => process.stdout.write('ready\n'))
