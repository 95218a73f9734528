/**
 * `npm start`: build the SPA if it is missing, open and migrate the database, seed reference data, listen.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { loadSecrets } from './auth/secrets'
import { type Database, openDatabase } from './db/client'
import { DataDirLockedError } from './db/lock'
import { startMaintenance } from './db/maintenance'
import { seedReferenceData } from './db/seed'
import type { AppDeps } from './deps'
import { type Env, EnvError, readEnv } from './env'
import { createApp } from './http/app'
import { startHttpServer } from './http/node-server'
import { serverBundleDir } from './http/prerender'
import { createLogger } from './logger'
import { assertProductionSafe, providersFromEnv } from './providers/from-env'
import { type DeliverWebhook, sandboxGatewayKey } from './providers/payment-gateway-sandbox'
import { seedDemoLead } from './services/affiliate/demo-lead'
import { setCodeResendSeconds } from './services/identity/codes'
import { seedDemoClient } from './services/identity/demo'
import { trustSandboxAdminDevice } from './services/identity/sandbox-device'
import { pruneHits } from './services/identity/throttle'
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, seedFirstUser } from './services/identity/users'
import { startLendingWorker } from './services/lending/jobs'
import { startGatewayWorker } from './services/payments/gateway'
import { startServicingWorker } from './services/payments/jobs'
import { purgeBehaviouralData } from './services/tracking/metrics'

let env: Env
try {
  env = readEnv()
} catch (error) {
  if (!(error instanceof EnvError)) throw error
  console.error(error.message)
  process.exit(1)
}
const logger = createLogger(env.logLevel)
const production = process.env.NODE_ENV === 'production'
// Sandbox only (server/env.ts refuses it in production without SANDBOX=1): codes to one target more often.
if (env.sandboxCodeIntervalSeconds) setCodeResendSeconds(env.sandboxCodeIntervalSeconds)

if (process.argv.includes('--build-if-missing')) {
  const builds: string[][] = []
  if (!existsSync(join(env.staticDir, 'index.html'))) builds.push(['vite', 'build', '--logLevel', 'warn'])
  // The server's render of the public pages (docs/decisions/0040), beside the browser build.
  const serverBundle = serverBundleDir(env.staticDir)
  if (builds.length > 0 || !existsSync(join(serverBundle, 'entry-server.js')))
    builds.push(['vite', 'build', '-c', 'vite.ssr.config.ts', '--outDir', serverBundle, '--logLevel', 'warn'])
  if (builds.length > 0) console.info('Building the web app (first start only)...')
  for (const args of builds) {
    const built = spawnSync('npx', args, { stdio: 'inherit' })
    if (built.status !== 0) process.exit(built.status ?? 1)
  }
}

// Sandbox only (docs/decisions/0009): refuse before touching the database rather than run half-configured.
const sandboxAdminDevice = process.env.SANDBOX_ADMIN_DEVICE_ID
if (sandboxAdminDevice && process.env.NODE_ENV === 'production') {
  console.error('SANDBOX_ADMIN_DEVICE_ID must not be set when NODE_ENV=production')
  process.exit(1)
}

// The sandbox payment gateway posts its webhooks over HTTP to this very server, once it listens (PORT=0 picks the
// port then), on the loopback address when it listens on every interface.
let ownOrigin: string | undefined
const loopbackOf = (host: string) =>
  host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
const deliverToSelf: DeliverWebhook = async (request) => {
  if (!ownOrigin) throw new Error('The server is not listening yet.')
  const { pathname, search } = new URL(request.url)
  return fetch(`${ownOrigin}${pathname}${search}`, {
    method: request.method,
    headers: request.headers,
    body: await request.text(),
    signal: AbortSignal.timeout(10_000),
  })
}
// Its signing key, unless SANDBOX_GATEWAY_SECRET sets one: derived from the secrets loaded below (first used once
// the server listens, long after they are).
let gatewayKey: Uint8Array | undefined
const gatewaySecret = () => {
  gatewayKey ??= sandboxGatewayKey(secrets)
  return gatewayKey
}

// Production is production (docs/decisions/0018): the providers come from the environment, and a production
// process on any sandbox adapter refuses to start unless SANDBOX=1 says so, before it touches the database.
let providers: ReturnType<typeof providersFromEnv>
try {
  providers = providersFromEnv(process.env, logger, { secret: gatewaySecret, deliver: deliverToSelf })
  assertProductionSafe(process.env, providers.sandboxed)
} catch (error) {
  console.error((error as Error).message)
  process.exit(1)
}
if (production && providers.sandboxed.length > 0)
  logger.warn({ sandboxed: providers.sandboxed }, 'SANDBOX=1: running production on sandbox adapters')

let database: Database
try {
  database = await openDatabase(
    env.databaseUrl ? { kind: 'postgres', url: env.databaseUrl } : { kind: 'pglite', dataDir: env.dataDir },
  )
} catch (error) {
  if (error instanceof DataDirLockedError) {
    console.error(error.message)
    process.exit(1)
  }
  throw error
}
await seedReferenceData(database.db, { psgc: true })
// The embedded database has no autovacuum: the server analyzes and vacuums its tables (docs/decisions/0051).
const stopMaintenance = startMaintenance(database, logger)

const secrets = loadSecrets(process.env, env.dataDir)

// The first back-office user, on an empty database only. The defaults are for local use: production must say.
const adminEmail = process.env.ADMIN_EMAIL || DEFAULT_ADMIN_EMAIL
const adminPassword = process.env.ADMIN_PASSWORD || (production ? undefined : DEFAULT_ADMIN_PASSWORD)
if (adminPassword) await seedFirstUser(database.db, { email: adminEmail, password: adminPassword })
else logger.warn('no back-office user: set ADMIN_EMAIL and ADMIN_PASSWORD to create the first one')
if (sandboxAdminDevice) {
  try {
    await trustSandboxAdminDevice(database.db, {
      email: adminEmail,
      deviceId: sandboxAdminDevice,
      production,
    })
  } catch (error) {
    console.error((error as Error).message)
    await database.close()
    process.exit(1)
  }
}
const demoData = production || process.env.DEMO_CLIENT === '0' ? null : { database, logger }
const demoClient = demoData ? await seedDemoClient(demoData) : null
const demoLead = demoData ? await seedDemoLead(database.db) : null

const deps: AppDeps = {
  database,
  logger,
  secrets,
  now: () => new Date(),
  messaging: providers.messaging,
  captcha: providers.captcha,
  identityVerification: providers.identityVerification,
  bankData: providers.bankData,
  scoring: providers.scoring,
  payout: providers.payout,
  paymentGateway: providers.paymentGateway,
  fraudSignals: providers.fraudSignals,
  uploadsDir: join(env.dataDir, 'uploads'),
  trustProxy: process.env.TRUST_PROXY === '1',
}
const app = createApp(deps, { staticDir: existsSync(env.staticDir) ? env.staticDir : undefined })

// The decision engine and the payout run as jobs polled from the database (docs/decisions/0012); any number of
// processes may poll the same database.
const stopWorker = startLendingWorker(deps, Number(process.env.LENDING_POLL_MS) || 1000)
// The payment gateway's background work (the sandbox's webhook retries, reconciliation every 10 minutes), shared
// the same way by any number of processes.
const stopGatewayWorker = startGatewayWorker(deps, Number(process.env.GATEWAY_POLL_MS) || 5000)
// Servicing: receipts and refunds left to retry, and the day's run (interest booked up to today) once a day.
const stopServicingWorker = startServicingWorker(deps, Number(process.env.SERVICING_POLL_MS) || 5000)

// Throttle rows older than a day count for nothing.
setInterval(() => void pruneHits(database.db, new Date()).catch(() => {}), 3600_000).unref()
// Behavioural events and fraud-tool sessions past their 12 months (ADR 0042): deleted hourly, any process may.
setInterval(() => void purgeBehaviouralData(database.db, new Date()).catch(() => {}), 3600_000).unref()

const server = startHttpServer(app, { port: env.port, hostname: env.host }, (info) => {
  ownOrigin = `http://${loopbackOf(env.host)}:${info.port}`
  console.info(`\nHiram is running at http://localhost:${info.port}  (database: ${database.location})`)
  console.info(`API description: http://localhost:${info.port}/web/openapi.json\n`)
  const consolePrint = providers.consolePrint
  const adminShown = process.env.ADMIN_PASSWORD
    ? '(the ADMIN_PASSWORD you set)'
    : (adminPassword ?? '(none: set ADMIN_PASSWORD)')
  console.info('Demo logins (local defaults, created on an empty database):')
  console.info(
    `  back office  ${adminEmail} / ${adminShown}   a browser it has not seen asks for an e-mail code`,
  )
  if (demoClient)
    console.info(`  client       ${demoClient.phone} or ${demoClient.email} / ${demoClient.password}`)
  if (demoLead) console.info(`  lead link    http://localhost:${info.port}${demoLead.path}`)
  console.info(
    `  codes        ${consolePrint ? 'printed in this console and ' : ''}listed by GET /web/private/back-office/outbox`,
  )
  if (env.sandboxCodeIntervalSeconds)
    console.info(
      `               one every ${env.sandboxCodeIntervalSeconds} s to a number or e-mail (SANDBOX_CODE_INTERVAL_SECONDS)`,
    )
  if (providers.sandboxed.includes('captcha'))
    console.info(
      '  captcha      sandbox: any token passes; "sandbox-fail" is refused, "sandbox-risky" asks for a code',
    )
  if (providers.sandboxed.length) console.info(`  sandbox      ${providers.sandboxed.join(', ')}\n`)
})

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  logger.info({ signal }, 'shutting down')
  server.close()
  await stopWorker()
  await stopGatewayWorker()
  await stopServicingWorker()
  await stopMaintenance()
  await providers.close()
  await database.close()
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))
