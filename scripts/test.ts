/**
 * `npm test`: every check, stopping after the first stage that fails.
 * 1. type check, lint, statecharts up to date, and the production build with its home bundle budget, side by
 *    side: tsc runs on one core for most of a minute, so the build and the quick checks use the other;
 * 2. vitest (unit, machines, API on PGlite; and on PostgreSQL when DATABASE_URL is set), alone: it keeps every
 *    core busy;
 * 3. Playwright in Chromium against that build.
 * The output of steps that run side by side is held back and printed whole, one step after the other.
 */
import { spawn } from 'node:child_process'
import { findChromium, missingChromiumHelp } from './chromium'

interface Step {
  name: string
  /** Commands run one after the other; the step fails at the first that fails. */
  commands: string[][]
}

const stages: Step[][] = [
  [
    { name: 'type check', commands: [['npx', 'tsc', '--noEmit', '-p', '.']] },
    { name: 'lint and format', commands: [['npx', 'biome', 'check', '.']] },
    { name: 'statecharts up to date', commands: [['npx', 'tsx', 'scripts/statecharts.ts', '--check']] },
    {
      name: 'production build, home bundle under 170 KB gzipped',
      commands: [
        ['npx', 'vite', 'build', '--logLevel', 'warn'],
        // The server's render of the public pages (docs/decisions/0040), beside the build: dist-ssr/.
        ['npx', 'vite', 'build', '-c', 'vite.ssr.config.ts', '--logLevel', 'warn'],
        ['npx', 'tsx', 'scripts/bundle-size.ts'],
      ],
    },
  ],
  [{ name: 'unit, machine and API tests', commands: [['npx', 'vitest', 'run']] }],
  [{ name: 'end-to-end tests (Chromium)', commands: [['npx', 'playwright', 'test']] }],
]

/** Runs a command; `capture` holds its output for later instead of passing it through. */
function run([command, ...args]: string[], capture: Buffer[] | null): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command!, args, {
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: process.env,
    })
    if (capture) {
      child.stdout!.on('data', (chunk: Buffer) => capture.push(chunk))
      child.stderr!.on('data', (chunk: Buffer) => capture.push(chunk))
    }
    child.on('error', (error) => {
      capture?.push(Buffer.from(`${error.message}\n`))
      resolve(1)
    })
    child.on('close', (code) => resolve(code ?? 1))
  })
}

interface Outcome {
  status: number
  seconds: string
  output: Buffer[]
}

async function runStep(step: Step, captured: boolean): Promise<Outcome> {
  const t0 = Date.now()
  const output: Buffer[] = []
  let status = 0
  for (const command of step.commands) {
    output.push(Buffer.from(`$ ${command.join(' ')}\n`))
    if (!captured) console.info(`$ ${command.join(' ')}`)
    status = await run(command, captured ? output : null)
    if (status !== 0) break
  }
  return { status, seconds: ((Date.now() - t0) / 1000).toFixed(1), output }
}

if (!findChromium()) {
  console.error(missingChromiumHelp)
  process.exit(1)
}

const started = Date.now()
for (const stage of stages) {
  const captured = stage.length > 1
  if (captured) console.info(`\n▶ side by side: ${stage.map((s) => s.name).join('; ')}`)
  else console.info(`\n▶ ${stage[0]!.name}`)
  const running = stage.map((step) => runStep(step, captured))
  let failed: Outcome | undefined
  // In the order listed, each as soon as it and the ones before it are done.
  for (const [i, step] of stage.entries()) {
    const outcome = await running[i]!
    if (captured) {
      console.info(`\n── ${step.name}`)
      process.stdout.write(Buffer.concat(outcome.output))
    }
    if (outcome.status !== 0) {
      console.error(`✖ ${step.name} failed after ${outcome.seconds}s`)
      failed ??= outcome
    } else console.info(`✔ ${step.name} (${outcome.seconds}s)`)
  }
  if (failed) process.exit(failed.status)
}
console.info(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)}s.`)
