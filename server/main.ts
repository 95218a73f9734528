/**
 * `npm start`: build the SPA if it is missing, open and migrate the database, seed reference data, listen.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { loadSecrets } from './auth/secrets'
import { type Database, openDatabase } from './db/client'
import { DataDirLockedError } from './db/lock'
import { seedReferenceData } from './db/seed'
import { readEnv } from './env'
import { createApp } from './http/app'
import { createLogger } from './logger'

const env = readEnv()
const logger = createLogger(env.logLevel)

if (process.argv.includes('--build-if-missing') && !existsSync(join(env.staticDir, 'index.html'))) {
  console.info('Building the web app (first start only)...')
  const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)
}

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

const secrets = loadSecrets(process.env, env.dataDir)
const app = createApp(
  { database, logger, secrets, now: () => new Date() },
  { staticDir: existsSync(env.staticDir) ? env.staticDir : undefined },
)
const server = serve({ fetch: app.fetch, port: env.port, hostname: env.host }, (info) => {
  console.info(`\nHiram is running at http://localhost:${info.port}  (database: ${database.location})`)
  console.info(`API description: http://localhost:${info.port}/web/openapi.json\n`)
})

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  logger.info({ signal }, 'shutting down')
  server.close()
  await database.close()
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))
