/**
 * Part of `npm run bench` (issue 21, item 4): Lighthouse 12, mobile preset (simulated slow 4G, a 4× slower CPU),
 * in Debian's Chromium (CHROME_PATH, else scripts/chromium.ts), on the production build served by the production
 * server (server/main.ts), on three pages: the home page, a registration step (a client at the details step) and
 * My loan (a client on an active loan), the clients made by the sandbox scenarios and logged in through the
 * session cookie the app reads (`auth.token`). Each page 3 times; the run with the median performance score is
 * reported (Lighthouse's own advice: one whole run, not a median of each figure). Targets (issue 21): home
 * performance ≥ 0.95 and accessibility 1.0, the other two performance ≥ 0.9. BENCH_ONLY=lighthouse runs this
 * section alone and rewrites it in docs/benchmarks.md.
 *
 * Settings (environment): BENCH_LIGHTHOUSE_DIST (a build to serve instead of building one; its server render,
 * if any, beside it as `<dir>-ssr`), BENCH_LIGHTHOUSE_RUNS (3), BENCH_LIGHTHOUSE_PAGES (the pages whose names
 * start so, comma-separated, e.g. `home,my loan`; a partial run is for trying a change, not for the record),
 * BENCH_LIGHTHOUSE_REPORTS=<dir> (every run's full Lighthouse JSON written there, to see what the blocking time
 * and the paints are made of).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import puppeteer from 'puppeteer-core'
import { SANDBOX_COOKIE } from '../domain/journey/routing'
import { startAppServer } from './bench-latency'
import { chromiumArgs, findChromium } from './chromium'

export const LIGHTHOUSE_HEADING = '## Lighthouse (mobile)'

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3)
const REPORTS = process.env.BENCH_LIGHTHOUSE_REPORTS
const PORT = 3941
/** The cookie the server writes with every session and the app reads (src/app/services.ts). */
const TOKEN_COOKIE = 'auth.token'

interface Target {
  name: string
  /** The sandbox scenario whose client is logged in; none: a visitor. */
  scenario?: string
  minPerformance: number
  minAccessibility?: number
}

const targets: Target[] = [
  { name: 'Home page', minPerformance: 0.95, minAccessibility: 1 },
  { name: 'Registration step (details)', scenario: 'journey-details', minPerformance: 0.9 },
  { name: 'My loan', scenario: 'loan-active', minPerformance: 0.9 },
]

interface Run {
  performance: number
  accessibility: number
  bestPractices: number
  fcp: number
  lcp: number
  tbt: number
  cls: number
  /** The LCP element, and the element that moved most (Lighthouse's own names for them). */
  lcpElement?: string
  shiftElement?: string
}

interface NodeDetails {
  items?: {
    node?: { selector?: string; snippet?: string }
    items?: { node?: { selector?: string; snippet?: string } }[]
  }[]
}

/** The first node an audit's details name (its selector and a short snippet). */
function firstNode(details: unknown): string | undefined {
  const [item] = (details as NodeDetails | undefined)?.items ?? []
  const node = item?.node ?? item?.items?.[0]?.node
  if (!node) return undefined
  return `\`${node.selector ?? ''}\` ${(node.snippet ?? '').slice(0, 80).replace(/\|/g, '\\|')}`.trim()
}

interface PageResult {
  target: Target
  path: string
  runs: Run[]
  median?: Run
  error?: string
}

function build(dir: string) {
  const steps = [['vite', 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn']]
  // The server's render of the public pages, when the project has one, where the server looks for it.
  if (existsSync('vite.ssr.config.ts'))
    steps.push(['vite', 'build', '-c', 'vite.ssr.config.ts', '--outDir', `${dir}-ssr`, '--logLevel', 'warn'])
  for (const args of steps) {
    const built = spawnSync('npx', args, { stdio: 'inherit' })
    if (built.status !== 0) throw new Error(`npx ${args.join(' ')} failed`)
  }
}

/** A fresh client in the scenario's state: the page it lands on, and its session token. */
async function scenarioClient(base: string, scenario: string): Promise<{ path: string; token: string }> {
  const res = await fetch(`${base}/web/public/sandbox/scenarios/${scenario}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `${SANDBOX_COOKIE}=1` },
    body: '{}',
  })
  if (res.status !== 201) throw new Error(`scenario ${scenario}: ${res.status} ${await res.text()}`)
  const { data } = (await res.json()) as { data: { destination: string } }
  return { path: data.destination, token: res.headers.get('authorization')!.replace(/^Bearer\s+/i, '') }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

async function measurePage(base: string, port: number, target: Target): Promise<PageResult> {
  const result: PageResult = { target, path: '/', runs: [] }
  try {
    const client = target.scenario ? await scenarioClient(base, target.scenario) : undefined
    result.path = client?.path ?? '/'
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` })
    try {
      for (let i = 0; i < RUNS; i++) {
        const page = await browser.newPage()
        if (client)
          await browser.setCookie({ name: TOKEN_COOKIE, value: client.token, domain: '127.0.0.1', path: '/' })
        const answer = await lighthouse(
          `${base}${result.path}`,
          {
            port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility', 'best-practices'],
          },
          undefined,
          page as never,
        )
        await page.close()
        const lhr = answer?.lhr
        if (!lhr) throw new Error('Lighthouse gave no result')
        if (REPORTS)
          writeFileSync(
            join(REPORTS, `${target.name.replace(/\W+/g, '-')}-${i + 1}.json`),
            JSON.stringify(lhr),
          )
        if (lhr.runtimeError)
          throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
        // A page that ended elsewhere (a redirect to /login) is not the page measured.
        if (new URL(lhr.finalDisplayedUrl).pathname !== result.path)
          throw new Error(`${result.path} ended on ${lhr.finalDisplayedUrl}`)
        const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
        const run: Run = {
          performance: lhr.categories.performance?.score ?? 0,
          accessibility: lhr.categories.accessibility?.score ?? 0,
          bestPractices: lhr.categories['best-practices']?.score ?? 0,
          fcp: audit('first-contentful-paint'),
          lcp: audit('largest-contentful-paint'),
          tbt: audit('total-blocking-time'),
          cls: audit('cumulative-layout-shift'),
          lcpElement: firstNode(lhr.audits['largest-contentful-paint-element']?.details),
          shiftElement: firstNode(lhr.audits['layout-shifts']?.details),
        }
        console.info(
          `lighthouse ${target.name} run ${i + 1}: performance ${run.performance}, LCP ${run.lcp.toFixed(0)} ms, TBT ${run.tbt.toFixed(0)} ms`,
        )
        result.runs.push(run)
      }
    } finally {
      await browser.disconnect()
    }
    const middle = median(result.runs.map((r) => r.performance))
    // The run with the median score; among equal scores, the one with the median LCP.
    const candidates = result.runs.filter((r) => r.performance === middle)
    const lcp = median(candidates.map((r) => r.lcp))
    result.median = candidates.find((r) => r.lcp === lcp)
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error)
    console.error(`lighthouse ${target.name}:`, error)
  }
  return result
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

function section(results: PageResult[], chromeVersion: string): { markdown: string; pass: boolean } {
  let pass = true
  const rows = results.map((r) => {
    const m = r.median
    if (!m) {
      pass = false
      return `| ${r.target.name} | \`${r.path}\` | not measured: ${r.error} | | | | | | | |`
    }
    const ok = m.performance >= r.target.minPerformance && m.accessibility >= (r.target.minAccessibility ?? 0)
    if (!ok) pass = false
    const target = `performance ≥ ${r.target.minPerformance}${r.target.minAccessibility ? `, accessibility ${r.target.minAccessibility.toFixed(1)}` : ''}`
    return `| ${r.target.name} | \`${r.path}\` | ${m.performance.toFixed(2)} | ${m.accessibility.toFixed(2)} | ${m.bestPractices.toFixed(2)} | ${seconds(m.fcp)} | ${seconds(m.lcp)} | ${m.tbt.toFixed(0)} ms | ${m.cls.toFixed(3)} | ${target}: ${ok ? 'pass' : '**FAIL**'} |`
  })
  const all = results
    .filter((r) => r.runs.length)
    .map((r) => `${r.target.name}: ${r.runs.map((run) => run.performance.toFixed(2)).join(', ')}`)
    .join('; ')
  const markdown = `${LIGHTHOUSE_HEADING}

Issue 21, item 4: Lighthouse ${lighthouseVersion()} (the npm package), mobile preset (simulated slow 4G, 4× CPU
slowdown, a phone's screen), ${chromeVersion} headless, against a production build served by the production
server (server/main.ts, PGlite, sandbox providers) on this machine. ${RUNS} runs a page; the run with the median
performance score is shown. The registration step and My loan are a fresh client of the sandbox scenarios
\`journey-details\` and \`loan-active\`, logged in by its session cookie. Generated by \`npm run bench\` (this
section alone: \`BENCH_ONLY=lighthouse npm run bench\`); method: scripts/bench-lighthouse.ts.

| Page | path | performance | accessibility | best practices | FCP | LCP | TBT | CLS | target |
|---|---|---:|---:|---:|---:|---:|---:|---:|---|
${rows.join('\n')}

Performance of every run: ${all || 'none'}.

What Lighthouse names in the reported runs (the LCP element; the element that moved most, when anything moved):

${results
  .filter((r) => r.median)
  .map(
    (r) =>
      `- ${r.target.name}: LCP ${r.median!.lcpElement ?? '–'}${r.median!.cls > 0 ? `; shift ${r.median!.shiftElement ?? '–'}` : ''}`,
  )
  .join('\n')}

All targets met: **${pass ? 'PASS' : 'FAIL'}**.
`
  return { markdown, pass }
}

const lighthouseVersion = (): string =>
  (JSON.parse(readFileSync('node_modules/lighthouse/package.json', 'utf8')) as { version: string }).version

export async function benchLighthouse(): Promise<{ markdown: string; pass: boolean }> {
  const chromePath = process.env.CHROME_PATH ?? findChromium()
  if (!chromePath)
    return { markdown: `${LIGHTHOUSE_HEADING}\n\nNot measured: no Chromium found.\n`, pass: false }
  const given = process.env.BENCH_LIGHTHOUSE_DIST
  const work = given ? undefined : mkdtempSync(join(tmpdir(), 'hiram-lighthouse-'))
  const dist = given ?? join(work!, 'dist')
  let server: Awaited<ReturnType<typeof startAppServer>> | undefined
  let chrome: chromeLauncher.LaunchedChrome | undefined
  try {
    if (!given) build(dist)
    server = await startAppServer({ port: PORT, staticDir: dist })
    chrome = await chromeLauncher.launch({
      chromePath,
      chromeFlags: ['--headless=new', ...chromiumArgs],
    })
    const version = spawnSync(chromePath, ['--version']).stdout.toString().trim() || 'Chromium'
    const results: PageResult[] = []
    const only = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',').map((name) => name.trim().toLowerCase())
    for (const target of targets.filter(
      (t) => !only || only.some((name) => t.name.toLowerCase().startsWith(name)),
    ))
      results.push(await measurePage(server.url, chrome.port, target))
    return section(results, version)
  } finally {
    chrome?.kill()
    await server?.stop()
    if (work) rmSync(work, { recursive: true, force: true })
  }
}
