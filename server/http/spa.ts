/**
 * Serves the built SPA: files as they are (hashed assets with a long cache), the pages the client router knows
 * as index.html, and anything else as index.html with HTTP 404, which the router renders as its 404 page.
 * The pages come from `routes.json`, written at build time from the router's own route tree
 * (scripts/vite-client-routes.ts). Paths under /web never reach here.
 *
 * Compression and caching (issue 21, item 1; docs/decisions/0043): a text file goes out as the Brotli or gzip
 * copy the build wrote beside it (scripts/vite-precompress.ts) when the request accepts it; hashed assets are
 * cached for a year, other files for 5 minutes then revalidated by ETag. Every HTML answer goes through
 * `sendHtml`: compressed in memory once per distinct page, `no-cache` with an ETag, 304 when it still matches.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { basename, extname, join, normalize, sep } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Context, Hono } from 'hono'
import { type Coding, negotiateCoding } from './compression'
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

/** The files the build writes compressed copies of (scripts/vite-precompress.ts): the text types. */
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.svg',
  '.txt',
  '.webmanifest',
  '.map',
])

/** A file the build named by its content (`index-B4x9Qk2L.js` under assets/): it never changes, cache it for good. */
const isHashed = (file: string) =>
  file.split(sep).at(-2) === 'assets' && /-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/i.test(basename(file))

const IMMUTABLE = 'public, max-age=31536000, immutable'

/** Whether an `If-None-Match` header matches an ETag (weak comparison, RFC 9110 13.1.2). */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  const opaque = etag.replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim()
    return trimmed === '*' || trimmed.replace(/^W\//, '') === opaque
  })
}

/** Which compressed copies of a file exist, and are no older than it (a rebuild rewrites both). */
interface Variants {
  mtimeMs: number
  br?: number
  gzip?: number
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
}

/** An HTML answer ready to send: its CSP, its ETag and its bytes in each coding. */
interface HtmlAnswer {
  csp: string
  etag: string
  identity: Bytes
  br?: Bytes
  gzip?: Bytes
}

/** Bytes a Response takes as they are (a Buffer owns a plain ArrayBuffer). */
type Bytes = Uint8Array<ArrayBuffer>
const bytesOf = (buffer: Buffer) => buffer as Uint8Array as Bytes

/**
 * Brotli's quality for a page compressed per request: about as small as gzip's best at a small part of the time
 * of quality 11 (tens of milliseconds on a 50 KB page), which the shared pages can afford once and these cannot.
 */
const SESSION_BROTLI_QUALITY = 5

/** Text compressed with Brotli at a quality: the shared pages once at the best, a session's page fast. */
const brotliText = (text: Buffer, quality: number) =>
  brotliCompressSync(text, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
    },
  })

/** HTML answers kept (index.html and any page rendered on the server): enough for every page, bounded. */
const HTML_ANSWERS_KEPT = 64

export interface SpaOptions {
  /** Behind a proxy (TRUST_PROXY=1): HSTS follows X-Forwarded-Proto. */
  trustProxy?: boolean
  /** The captcha provider's name (`recaptcha`, `turnstile`): the page's CSP allows its script and frame. */
  captchaProvider?: string
  /** A known page rendered on the server (server/http/prerender.ts, ADR 0040); undefined: index.html. */
  renderPage?: (pathname: string) => Promise<string | undefined>
  /**
   * A known page rendered for the request's session (ADR 0052); undefined: the page above, or index.html.
   * Asked only for a request that carries a session.
   */
  renderSessionPage?: (c: Context<AppEnv>, pathname: string) => Promise<string | undefined>
}

export function serveSpa(app: Hono<AppEnv>, root: string, options: SpaOptions = {}) {
  const index = join(root, 'index.html')
  const isPage = loadMatcher(root)
  // index.html, read at start-up and again only after a rebuild.
  let page: Page | undefined = existsSync(index)
    ? { mtimeMs: 0, html: readFileSync(index, 'utf8') }
    : undefined
  async function currentIndex(): Promise<string> {
    const { mtimeMs } = await stat(index)
    if (!page || page.mtimeMs !== mtimeMs) page = { mtimeMs, html: await readFile(index, 'utf8') }
    return page.html
  }

  // Each distinct HTML text prepared once: its CSP (hashes of its inline scripts), ETag and compressed bytes.
  const htmlAnswers = new Map<string, HtmlAnswer>()
  function htmlAnswer(html: string): HtmlAnswer {
    let answer = htmlAnswers.get(html)
    if (answer) return answer
    const identity = Buffer.from(html)
    const br = brotliText(identity, constants.BROTLI_MAX_QUALITY)
    const gzip = gzipSync(identity, { level: constants.Z_BEST_COMPRESSION })
    answer = {
      csp: spaCsp(html, options.captchaProvider),
      // Weak: the same page in any coding is the same page.
      etag: `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
      identity: bytesOf(identity),
      br: br.length < identity.length ? bytesOf(br) : undefined,
      gzip: gzip.length < identity.length ? bytesOf(gzip) : undefined,
    }
    if (htmlAnswers.size >= HTML_ANSWERS_KEPT) htmlAnswers.delete(htmlAnswers.keys().next().value!)
    htmlAnswers.set(html, answer)
    return answer
  }

  /**
   * Every HTML answer (the app's shell, its 404, a page rendered on the server): compressed as the request
   * accepts, never cached without revalidation, 304 when the browser's copy is still this page.
   */
  function sendHtml(c: Context<AppEnv>, html: string, status = 200): Response {
    const answer = htmlAnswer(html)
    const headers: Record<string, string> = {
      ...documentHeaders(c, answer.csp, options.trustProxy),
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      vary: 'Accept-Encoding',
      etag: answer.etag,
    }
    if (status === 200 && matchesEtag(c.req.header('if-none-match'), answer.etag))
      return new Response(null, { status: 304, headers })
    const available: Coding[] = ['identity']
    if (answer.br) available.push('br')
    if (answer.gzip) available.push('gzip')
    const coding = negotiateCoding(c.req.header('accept-encoding'), available)
    const body = coding === 'identity' ? answer.identity : answer[coding]!
    if (coding !== 'identity') headers['content-encoding'] = coding
    headers['content-length'] = String(body.byteLength)
    return new Response(body, { status, headers })
  }

  /**
   * A page rendered for one session (ADR 0052): the client's own data, so never kept (not in the answers above,
   * not by any cache: `private, no-store`), and compressed fast rather than small, once per request.
   */
  function sendSessionHtml(c: Context<AppEnv>, html: string): Response {
    const identity = Buffer.from(html)
    const headers: Record<string, string> = {
      ...documentHeaders(c, spaCsp(html, options.captchaProvider), options.trustProxy),
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'private, no-store',
      vary: 'Accept-Encoding, Cookie',
    }
    const coding = negotiateCoding(c.req.header('accept-encoding'), ['identity', 'br', 'gzip'])
    const body =
      coding === 'br'
        ? brotliText(identity, SESSION_BROTLI_QUALITY)
        : coding === 'gzip'
          ? gzipSync(identity, { level: 6 })
          : identity
    if (coding !== 'identity') headers['content-encoding'] = coding
    headers['content-length'] = String(body.byteLength)
    return new Response(bytesOf(body), { headers })
  }

  // The compressed copies of each file served so far; bounded by the files of the build.
  const variantsOf = new Map<string, Variants>()
  async function variants(file: string, mtimeMs: number): Promise<Variants> {
    const known = variantsOf.get(file)
    if (known && known.mtimeMs === mtimeMs) return known
    const copy = async (suffix: string) => {
      const info = await stat(file + suffix).catch(() => undefined)
      return info?.isFile() && info.mtimeMs >= mtimeMs ? info.size : undefined
    }
    const [br, gzip] = await Promise.all([copy('.br'), copy('.gz')])
    const found: Variants = { mtimeMs, br, gzip }
    if (variantsOf.size >= 10_000) variantsOf.clear()
    variantsOf.set(file, found)
    return found
  }

  /** A file of the build: its compressed copy when the request accepts one, cached by its name's hash or ETag. */
  async function sendFile(c: Context<AppEnv>, file: string, info: { size: number; mtimeMs: number }) {
    const extension = extname(file)
    const immutable = isHashed(file)
    const headers: Record<string, string> = {
      ...documentHeaders(c, API_CSP, options.trustProxy),
      'content-type': types[extension] ?? 'application/octet-stream',
      'cache-control': immutable ? IMMUTABLE : 'public, max-age=300',
    }
    const compressible = COMPRESSIBLE.has(extension)
    if (compressible) headers.vary = 'Accept-Encoding'
    if (!immutable) {
      headers.etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`
      if (matchesEtag(c.req.header('if-none-match'), headers.etag))
        return new Response(null, { status: 304, headers })
    }
    let coding: Coding = 'identity'
    if (compressible) {
      const found = await variants(file, info.mtimeMs)
      const available: Coding[] = ['identity']
      if (found.br !== undefined) available.push('br')
      if (found.gzip !== undefined) available.push('gzip')
      coding = negotiateCoding(c.req.header('accept-encoding'), available)
    }
    let bytes: Buffer
    try {
      bytes = await readFile(coding === 'br' ? `${file}.br` : coding === 'gzip' ? `${file}.gz` : file)
    } catch (error) {
      // A copy a rebuild removed since it was looked up: the file itself, as it is.
      if (coding === 'identity') throw error
      variantsOf.delete(file)
      coding = 'identity'
      bytes = await readFile(file)
    }
    if (coding !== 'identity') headers['content-encoding'] = coding
    headers['content-length'] = String(bytes.byteLength)
    return new Response(bytesOf(bytes), { headers })
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
      if (info?.isFile() && requested !== index) return sendFile(c, requested, info)
    }
    const known = requested === index || (isPage ? isPage(pathname) : true)
    // A missing file (an old hashed chunk, a typo) is not a page: a short 404, not HTML the browser would
    // try to run as a script.
    if (!known && extname(path) !== '') return text(c, 404, 'Not found.')
    const forSession =
      known && options.renderSessionPage ? await options.renderSessionPage(c, pathname) : undefined
    if (forSession) return sendSessionHtml(c, forSession)
    const rendered = known ? await options.renderPage?.(pathname) : undefined
    if (rendered) return sendHtml(c, rendered)
    return sendHtml(c, await currentIndex(), known ? 200 : 404)
  })
}
