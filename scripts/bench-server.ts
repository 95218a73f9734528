/**
 * Child process of `npm run bench`: the real app on a fresh embedded database, and beside it a bare Hono app
 * answering a constant JSON body, both in this one process so they share the same runtime and machine.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { loadSecrets } from '../server/auth/secrets'
import { openDatabase } from '../server/db/client'
import { seedReferenceData } from '../server/db/seed'
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

const [appPort, barePort] = process.argv.slice(2).map(Number)
/** The sandbox gateway's signing key in the benchmark (not a secret: the bench signs its webhooks with it). */
const BENCH_GATEWAY_SECRET = 'bench-sandbox-gateway-secret-not-for-production'
const dataDir = mkdtempSync(join(tmpdir(), 'hiram-bench-'))
const database = process.env.DATABASE_URL
  ? await openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL })
  : await openDatabase({ kind: 'pglite', dataDir })
await seedReferenceData(database.db)
// Request logs go to a sink: the benchmark measures the API, not the terminal.
const logger = createLogger('silent')
const app = createApp({
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
    secret: process.env.SANDBOX_GATEWAY_SECRET ?? BENCH_GATEWAY_SECRET,
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
})
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
serve({ fetch: bare.fetch, port: barePort }, () => process.stdout.write('ready\n'))
