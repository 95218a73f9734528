import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { testSecrets } from '../../server/auth/secrets'
import { type SeedOptions, seedReferenceData } from '../../server/db/seed'
import type { AppDeps } from '../../server/deps'
import { type AppOptions, createApp } from '../../server/http/app'
import { createLogger } from '../../server/logger'
import { sandboxBankData } from '../../server/providers/bank-data'
import { sandboxCaptcha } from '../../server/providers/captcha'
import { sandboxIdentityVerification } from '../../server/providers/identity-verification'
import { createSandboxMessaging } from '../../server/providers/messaging'
import { createSandboxGateway } from '../../server/providers/payment-gateway-sandbox'
import { sandboxPayout } from '../../server/providers/payout'
import { sandboxScoring } from '../../server/providers/scoring'
import { createTestDatabase } from './database'

export interface TestAppOptions extends AppOptions {
  /** Replace a provider or a setting (e.g. a failing messaging provider, trustProxy). */
  deps?: Partial<
    Pick<
      AppDeps,
      | 'messaging'
      | 'captcha'
      | 'trustProxy'
      | 'identityVerification'
      | 'bankData'
      | 'scoring'
      | 'payout'
      | 'paymentGateway'
      | 'fraudSignals'
    >
  >
}

/** The sandbox gateway's signing key in tests: fixed, so a test can sign events of its own. */
export const TEST_GATEWAY_SECRET = 'test-sandbox-gateway-secret-0123456789abcdef'

/**
 * The app in-process over a fresh database, with its JSON log lines captured for assertions. Providers are the
 * sandbox ones (messages land in the outbox table, nothing is printed); X-Forwarded-For is trusted so a test
 * can play callers from different addresses.
 */
export async function createTestApp(seed: SeedOptions = {}, options: TestAppOptions = {}) {
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
  const secrets = testSecrets()
  const { deps: overrides, ...appOptions } = options
  // Each test app writes its uploads to its own temporary directory, removed on close.
  const uploadsDir = mkdtempSync(join(tmpdir(), 'hiram-uploads-'))
  const deps: AppDeps = {
    database,
    logger,
    secrets,
    now: () => clock(),
    messaging: createSandboxMessaging(logger, false),
    captcha: sandboxCaptcha,
    identityVerification: sandboxIdentityVerification,
    bankData: sandboxBankData,
    scoring: sandboxScoring,
    payout: sandboxPayout,
    // The sandbox gateway delivers its webhooks to this app in-process, as it would over HTTP to the server.
    paymentGateway: createSandboxGateway({
      secret: TEST_GATEWAY_SECRET,
      deliver: (request) => Promise.resolve(app.request(request)),
    }),
    uploadsDir,
    trustProxy: true,
    ...overrides,
  }
  const app = createApp(deps, appOptions)
  return {
    app,
    deps,
    /** The payment gateway the app runs with (the sandbox unless a test replaced it). */
    gateway: deps.paymentGateway,
    database,
    secrets,
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
    /** The clock the server reads now, to move relative to it and restore it exactly. */
    currentClock: () => clock,
    close: async () => {
      await database.close()
      rmSync(uploadsDir, { recursive: true, force: true })
    },
  }
}
