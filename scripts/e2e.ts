/** `npm run test:e2e`: build, then Playwright in Chromium. Fails with instructions when Chromium is missing. */
import { spawnSync } from 'node:child_process'
import { findChromium, missingChromiumHelp } from './chromium'

if (!findChromium()) {
  console.error(missingChromiumHelp)
  process.exit(1)
}
for (const [command, ...args] of [
  ['npx', 'vite', 'build', '--logLevel', 'warn'],
  // The server's render of the public pages (docs/decisions/0040), beside the build: dist-ssr/.
  ['npx', 'vite', 'build', '-c', 'vite.ssr.config.ts', '--logLevel', 'warn'],
  ['npx', 'playwright', 'test', ...process.argv.slice(2)],
]) {
  const result = spawnSync(command!, args, { stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
