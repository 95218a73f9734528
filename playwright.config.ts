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

/**
 * The specs that log the seeded demo client in. One resets its password, which ends the client's other
 * sessions, so they run one at a time, in their own project, beside everything else.
 */
const demoClientSpecs = /\/(auth|apply)\.spec\.ts$/

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  // Any test may run beside any other: each registers the clients it changes (e2e/clients.ts, with numbers
  // per worker), and the server sends a phone a code a second rather than a minute (webServer below).
  fullyParallel: true,
  // On two cores three workers keep the machine busy: much of a test is waiting on the server or a poll.
  workers: Number(process.env.E2E_WORKERS) || 3,
  retries: 0,
  timeout: 60_000,
  // On a loaded two-core CI box one heavy server call (a sandbox scenario walking a client through many servicing
  // days, a PDF) holds the embedded database for seconds while three browsers wait on it: a step that takes
  // half a second alone then waits well past the default 5 s, and past 10 s now and then (a different step each
  // run). 20 s absorbs such a stall; a thing that never shows still fails, only later.
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  // Prints how much of the server's statecharts the run reached (the server is still up during the teardown).
  globalTeardown: './e2e/model-coverage-report.ts',
  use: {
    baseURL: `http://localhost:${port}`,
    // Tracing every test (to keep the failures' traces) took about two thirds of Chromium's CPU on this 2-core
    // box: screencast frames and DOM snapshots for every action of every test, thrown away when it passed. The
    // load it added slowed the whole run and made waits time out. A failure now prints the page it was on
    // (e2e/fixtures.ts) and keeps a screenshot; E2E_TRACE=retain-on-failure records traces when one is needed.
    trace: (process.env.E2E_TRACE as 'on' | 'retain-on-failure' | undefined) ?? 'off',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: findChromium(), args: chromiumArgs },
  },
  projects: [
    { name: 'demo client', use: { browserName: 'chromium' }, testMatch: demoClientSpecs, workers: 1 },
    { name: 'chromium', use: { browserName: 'chromium' }, testIgnore: demoClientSpecs },
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
