import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
import { E2E_ADMIN_DEVICE_ID } from './e2e/sandbox'
import { chromiumArgs, findChromium } from './scripts/chromium'

const port = Number(process.env.E2E_PORT ?? 3199)
// A fresh embedded database for every run, so e2e tests never see an earlier run's rows. The config is read
// again by every worker: the directory goes into the environment the workers inherit, so it is made once.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'hiram-e2e-'))
const dataDir = process.env.E2E_DATA_DIR

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  // The axe checks (read-only pages, their own clients) run in a second worker beside the rest, which stays
  // one worker: those specs share the demo client.
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: findChromium(), args: chromiumArgs },
  },
  projects: [
    {
      name: 'chromium',
      use: { browserName: 'chromium' },
      testIgnore: /a11y\.spec\.ts$/,
      workers: 1,
    },
    {
      name: 'a11y',
      use: { browserName: 'chromium' },
      testMatch: /a11y\.spec\.ts$/,
      workers: 1,
    },
  ],
  webServer: {
    command: 'npx tsx server/main.ts',
    url: `http://localhost:${port}/web/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      STATIC_DIR: process.env.E2E_STATIC_DIR ?? './dist',
      // Sandbox only (refused with NODE_ENV=production): lets e2e/auth.spec.ts read codes from the outbox.
      SANDBOX_ADMIN_DEVICE_ID: E2E_ADMIN_DEVICE_ID,
      SANDBOX_CONSOLE: '0',
      // Sandbox only (refused with NODE_ENV=production unless SANDBOX=1, docs/decisions/0018): a phone or an
      // e-mail may get a code every second, so no test waits out the real minute (tests/api keep the minute).
      SANDBOX_CODE_INTERVAL_SECONDS: '1',
    },
  },
})
