/**
 * Serves the built SPA: files as they are (hashed assets with a long cache), the pages the client router knows
 * as index.html, and anything else as index.html with HTTP 404, which the router renders as its 404 page.
 * The pages come from `routes.json`, written at build time from the router's own route tree
 * (scripts/vite-client-routes.ts). Paths under /web never reach here.
 */
import { existsSync, readFileSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import type { Context, Hono } from 'hono'
import type { AppEnv } from './context'
import { API_CSP, documentHeaders, spaCsp } from './security-headers'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json',
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** One segment of a TanStack path pattern as a regular expression (the leading slash included). */
function segmentPattern(segment: string): string {
  if (segment === '$') return '(?:/.*)?' // splat: the rest of the path, if any
  if (/^\{-\$\w+\}$/.test(segment)) return '(?:/[^/]+)?' // optional parameter
  // `$id`, or a parameter with a prefix or suffix (`file{$id}.pdf`): one non-empty segment.
  const parts = segment.split(/(\{\$\w+\}|^\$\w+$)/).filter(Boolean)
  return `/${parts.map((part) => (part.startsWith('{$') || part.startsWith('$') ? '[^/]+' : escapeRegExp(part))).join('')}`
}

/**
 * A test of whether the client router has a page for a path, from its route patterns. Trailing slashes are
 * ignored (`/admin/` is the admin index) and, like the router's default, letter case is.
 */
export function clientRouteMatcher(patterns: readonly string[]): (path: string) => boolean {
  const alternatives = patterns.map((pattern) =>
    pattern.split('/').filter(Boolean).map(segmentPattern).join(''),
  )
  const whole = new RegExp(`^(?:${[...new Set(alternatives)].join('|')})/?$`, 'i')
  return (path) => whole.test(path === '/' ? '' : path)
}

/**
 * The known pages, or undefined for a build made before routes.json existed: then every path is served as a
 * page, as it always was, rather than every page becoming a 404.
 */
function loadMatcher(root: string): ((path: string) => boolean) | undefined {
  const file = join(root, 'routes.json')
  if (!existsSync(file)) return undefined
  return clientRouteMatcher(JSON.parse(readFileSync(file, 'utf8')) as string[])
}

interface Page {
  mtimeMs: number
  html: string
  csp: string
}

export interface SpaOptions {
  /** Behind a proxy (TRUST_PROXY=1): HSTS follows X-Forwarded-Proto. */
  trustProxy?: boolean
  /** The captcha provider's name (`recaptcha`, `turnstile`): the page's CSP allows its script and frame. */
  captchaProvider?: string
}

export function serveSpa(app: Hono<AppEnv>, root: string, options: SpaOptions = {}) {
  const index = join(root, 'index.html')
  const isPage = loadMatcher(root)
  // The page and its CSP (hashes of its inline scripts), read at start-up and again only after a rebuild.
  let page: Page | undefined = existsSync(index) ? read(readFileSync(index, 'utf8'), 0) : undefined
  function read(html: string, mtimeMs: number): Page {
    return { mtimeMs, html, csp: spaCsp(html, options.captchaProvider) }
  }
  async function currentPage(): Promise<Page> {
    const { mtimeMs } = await stat(index)
    if (!page || page.mtimeMs !== mtimeMs) page = read(await readFile(index, 'utf8'), mtimeMs)
    return page
  }

  const text = (c: Context<AppEnv>, status: number, body: string) =>
    new Response(body, {
      status,
      headers: {
        ...documentHeaders(c, API_CSP, options.trustProxy),
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
      },
    })

  app.get('*', async (c) => {
    // As the browser's router sees it: dot segments resolved, escapes kept.
    const pathname = new URL(c.req.url).pathname
    let path: string
    try {
      // A malformed escape (`/%`, `/%E0%A4%A`) is the caller's mistake: a 400, never a 500.
      path = decodeURIComponent(pathname)
    } catch {
      return text(c, 400, 'Bad request: the path is not valid percent-encoding.')
    }
    if (path.includes('\0')) return text(c, 400, 'Bad request.')
    const requested = normalize(join(root, path))
    if (requested.startsWith(root + sep)) {
      const info = await stat(requested).catch(() => undefined)
      // index.html itself is the page below, with its CSP.
      if (info?.isFile() && requested !== index) {
        const immutable = requested.includes(`${sep}assets${sep}`)
        return new Response(await readFile(requested), {
          headers: {
            ...documentHeaders(c, API_CSP, options.trustProxy),
            'content-type': types[extname(requested)] ?? 'application/octet-stream',
            'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
          },
        })
      }
    }
    const known = requested === index || (isPage ? isPage(pathname) : true)
    // A missing file (an old hashed chunk, a typo) is not a page: a short 404, not HTML the browser would
    // try to run as a script.
    if (!known && extname(path) !== '') return text(c, 404, 'Not found.')
    const { html, csp } = await currentPage()
    return new Response(html, {
      status: known ? 200 : 404,
      headers: {
        ...documentHeaders(c, csp, options.trustProxy),
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
      },
    })
  })
}
