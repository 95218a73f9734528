/**
 * Refreshes tests/support/test-durations.json, the seconds each slow test file took, from a vitest JSON report:
 *
 *     npx vitest run --reporter=json --outputFile=/tmp/vitest.json && npx tsx scripts/test-durations.ts /tmp/vitest.json
 *
 * tests/support/sequencer.ts starts the slowest files first, so a 50 s file does not start last and leave one
 * worker running alone at the end of the run (on a fresh clone vitest has no timings of its own to sort by).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'

const report = JSON.parse(readFileSync(process.argv[2] ?? '/tmp/vitest.json', 'utf8')) as {
  testResults: { name: string; startTime: number; endTime: number }[]
}
const root = process.cwd()
const slow = report.testResults
  .map((file) => [relative(root, file.name), Math.round((file.endTime - file.startTime) / 100) / 10] as const)
  .filter(([, seconds]) => seconds >= 2)
  .sort((a, b) => b[1] - a[1])
writeFileSync('tests/support/test-durations.json', `${JSON.stringify(Object.fromEntries(slow), null, 2)}\n`)
console.info(`${slow.length} files of 2 s or more written to tests/support/test-durations.json`)
