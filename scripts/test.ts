/**
 * `npm test`: every check, in order, stopping at the first failure.
 * type check -> lint -> vitest (unit, machines, API on PGlite; and on PostgreSQL when DATABASE_URL is set)
 * -> production build -> home bundle budget -> Playwright in Chromium against that build.
 */
import { spawnSync } from 'node:child_process'
import { findChromium, missingChromiumHelp } from './chromium'

const steps: [string, string[]][] = [
  ['type check', ['npx', 'tsc', '--noEmit', '-p', '.']],
  ['lint and format', ['npx', 'biome', 'check', '.']],
  ['statecharts up to date', ['npx', 'tsx', 'scripts/statecharts.ts', '--check']],
  ['unit, machine and API tests', ['npx', 'vitest', 'run']],
  ['production build', ['npx', 'vite', 'build', '--logLevel', 'warn']],
  ['home bundle under 170 KB gzipped', ['npx', 'tsx', 'scripts/bundle-size.ts']],
  ['end-to-end tests (Chromium)', ['npx', 'playwright', 'test']],
]

if (!findChromium()) {
  console.error(missingChromiumHelp)
  process.exit(1)
}

const started = Date.now()
for (const [name, [command, ...args]] of steps) {
  const t0 = Date.now()
  console.info(`\n▶ ${name}: ${[command, ...args].join(' ')}`)
  const result = spawnSync(command!, args, { stdio: 'inherit', env: process.env })
  const seconds = ((Date.now() - t0) / 1000).toFixed(1)
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed after ${seconds}s`)
    process.exit(result.status ?? 1)
  }
  console.info(`✔ ${name} (${seconds}s)`)
}
console.info(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)}s.`)
