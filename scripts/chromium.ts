/**
 * Where Playwright finds Chromium. Playwright's own browser download does not work on our machines, so tests
 * drive Debian's Chromium (or any Chromium named by CHROMIUM_PATH).
 */
import { existsSync } from 'node:fs'

export const chromiumCandidates = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
].filter((p): p is string => Boolean(p))

export function findChromium(): string | undefined {
  return chromiumCandidates.find((p) => existsSync(p))
}

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
]

export const missingChromiumHelp = `No Chromium found (looked at: ${chromiumCandidates.join(', ')}).
The end-to-end tests need it and will not be skipped. Install Debian's Chromium:
    sudo apt-get update && sudo apt-get install -y chromium
or point CHROMIUM_PATH at a Chromium binary, then run npm test again.`
