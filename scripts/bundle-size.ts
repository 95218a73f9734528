/**
 * The home route's JavaScript budget (issue 3): what a visitor's browser downloads to show `/` with the
 * calculator, gzipped, must stay under 170 KB. Reads the Vite manifest of the production build (`dist/` or
 * `--dir`), so it runs right after `vite build` without a browser.
 *
 * What counts: the entry chunk and everything it imports statically, the lazy chunks the app loads before its
 * first render whatever the page (every dynamic entry that is not a route component: the locale files today,
 * less the route bundles of src/i18n/bundles.ts, which only the pages that read them load, and the chunks only
 * some browsers load, CONDITIONAL_FILES), and the route
 * component of `/` with its imports. Other routes' components are left out; a lazy chunk added
 * later outside src/routes is counted, so the figure errs on the high side.
 *
 * Usage: tsx scripts/bundle-size.ts [--dir dist] [--budget-kb 170]
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { routeBundles } from '../src/i18n/bundles'

interface ManifestChunk {
  file: string
  src?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
}
type Manifest = Record<string, ManifestChunk>

const HOME_ROUTE_FILES = ['src/routes/index.tsx', 'src/routes/__root.tsx']
const ROUTE_BUNDLE_FILES = routeBundles.map((bundle) => `src/i18n/locales/en/${bundle}.json`)
/**
 * Lazy chunks only some browsers load (the sandbox panel, with the QA cookie only: issue 20), or that load only
 * once the page has loaded, off the critical path (issue 21: the web-vitals library of the page views, a
 * logged-in client's extras).
 */
const CONDITIONAL_FILES = [
  'src/features/sandbox/sandbox-panel.tsx',
  'node_modules/web-vitals/dist/web-vitals.js',
  'src/ui/layout/client-extras.tsx',
  // The Android install prompt (ADR 0045), after the load event; its event listener is in the entry.
  'src/ui/layout/install-prompt.tsx',
  // A signed-in person's menu: only a session loads it (the server renders every public page for a visitor).
  'src/ui/layout/account-menu.tsx',
  // The error pages: only an unknown address or a failed page loads them.
  'src/ui/errors/not-found-page.tsx',
  'src/ui/errors/generic-error-page.tsx',
]

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name)
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback
}

/** Manifest keys of the chunks `/` loads: see the header. */
export function homeChunkKeys(manifest: Manifest): string[] {
  const roots = Object.entries(manifest)
    .filter(([key, chunk]) => {
      if (chunk.isEntry) return true
      if (!chunk.isDynamicEntry) return false
      const source = key.replace(/\?.*$/, '')
      if (ROUTE_BUNDLE_FILES.includes(source) || CONDITIONAL_FILES.includes(source)) return false
      return !source.startsWith('src/routes/') || HOME_ROUTE_FILES.includes(source)
    })
    .map(([key]) => key)
  const seen = new Set<string>()
  const visit = (key: string) => {
    if (seen.has(key)) return
    const chunk = manifest[key]
    if (!chunk) throw new Error(`manifest has no chunk ${key}`)
    seen.add(key)
    for (const dep of chunk.imports ?? []) visit(dep)
  }
  for (const key of roots) visit(key)
  return [...seen]
}

function main() {
  const dir = option('--dir', 'dist')
  const budgetKb = Number(option('--budget-kb', '170'))
  const manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Manifest
  const files = [...new Set(homeChunkKeys(manifest).map((key) => manifest[key]!.file))].filter((f) =>
    f.endsWith('.js'),
  )
  const rows = files
    .map((file) => {
      const raw = readFileSync(join(dir, file))
      return { file, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length }
    })
    .sort((a, b) => b.gzip - a.gzip)
  const kb = (bytes: number) => (bytes / 1024).toFixed(1)
  for (const row of rows)
    console.info(`${kb(row.gzip).padStart(7)} KB gz  ${kb(row.raw).padStart(7)} KB  ${row.file}`)
  const total = rows.reduce((sum, row) => sum + row.gzip, 0)
  const line = `home route JavaScript: ${kb(total)} KB gzipped in ${rows.length} files (budget ${budgetKb} KB)`
  if (total > budgetKb * 1024) {
    console.error(`✖ ${line}`)
    process.exit(1)
  }
  console.info(`✔ ${line}`)
}

if (import.meta.url === `file://${process.argv[1]}`) main()
