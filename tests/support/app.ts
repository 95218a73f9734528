import { Writable } from 'node:stream'
import { testSecrets } from '../../server/auth/secrets'
import { type SeedOptions, seedReferenceData } from '../../server/db/seed'
import { type AppOptions, createApp } from '../../server/http/app'
import { createLogger } from '../../server/logger'
import { createTestDatabase } from './database'

/** The app in-process over a fresh database, with its JSON log lines captured for assertions. */
export async function createTestApp(seed: SeedOptions = {}, options: AppOptions = {}) {
  const database = await createTestDatabase()
  await seedReferenceData(database.db, seed)
  const logLines: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean))
      done()
    },
  })
  const logger = createLogger('info', sink)
  let clock = () => new Date()
  const app = createApp({ database, logger, secrets: testSecrets(), now: () => clock() }, options)
  return {
    app,
    database,
    logs: () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>),
    rawLogs: () => logLines.join('\n'),
    request: (path: string, init?: RequestInit) => app.request(path, init),
    json: async <T = unknown>(path: string, init?: RequestInit) => {
      const res = await app.request(path, init)
      return {
        res,
        body: (await res.json()) as { success: boolean; data: T; response: Record<string, unknown> },
      }
    },
    /** Moves the server's clock (token expiry, code expiry, rate-limit windows). */
    setClock: (next: () => Date) => {
      clock = next
    },
    close: () => database.close(),
  }
}
