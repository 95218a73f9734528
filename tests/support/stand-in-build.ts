/**
 * A stand-in for the browser build the server renders pages into (server/http/prerender.ts): index.html with one
 * module script and one stylesheet, in a temporary directory. The server renders from the sources beside it
 * (tests/web/prerender.test.ts, tests/web/session-render.test.ts).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The build's whole stylesheet, which the server inlines. */
export const STAND_IN_CSS = '.site-header{display:flex}'

export const STAND_IN_TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <title>Hiram: fast, fair cash loans online</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`

/** Writes the stand-in build to a new temporary directory (the caller removes it) and answers its path. */
export function createStandInBuild(name: string): string {
  const staticDir = mkdtempSync(join(tmpdir(), `hiram-${name}-`))
  mkdirSync(join(staticDir, 'assets'))
  writeFileSync(join(staticDir, 'index.html'), STAND_IN_TEMPLATE)
  writeFileSync(join(staticDir, 'assets', 'index-abc.css'), STAND_IN_CSS)
  return staticDir
}
