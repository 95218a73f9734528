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
import { sandboxPayout } from '../server/providers/payout'
import { sandboxScoring } from '../server/providers/scoring'

const [appPort, barePort] = process.argv.slice(2).map(Number)
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
