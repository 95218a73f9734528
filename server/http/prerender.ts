/**
 * The public pages as HTML before the app runs (issue 21 item 2, docs/decisions/0040). The browser build's
 * index.html is the template; the server render (src/entry-server.tsx, built by vite.ssr.config.ts into
 * `<static dir>-ssr/`) fills its root with the page and the query cache the browser hydrates with. The data are
 * the answers of the public calls those pages make, read from the services themselves: the calculator's
 * configuration and its default offer, today's banners and promo menu, the contacts.
 *
 * Prices, banners and the promo menu change at run time (the back office, config versions, the Manila date), so
 * the pages are rendered at start-up and again whenever those answers change, never once at build time. Each
 * page asked checks (at most once per CHECK_MS) whether the data still are those it was rendered with, and
 * waits for the new render when not: nobody gets yesterday's offer after midnight.
 *
 * No server bundle (dev, tests, a build without it) or a render that fails: no pages, and the SPA serves
 * index.html as it always did.
 */
import { existsSync, statSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { CalculatorConfig } from '../../domain/calculator-config'
import type { SiteContent } from '../../domain/contract/content-public'
import type { OfferRequest } from '../../domain/contract/pricing'
import type { Environment } from '../../domain/environment'
import { SSR_STATE_ID } from '../../domain/page-shell'
import { manilaDate } from '../../domain/pricing/manila-date'
import type { Contact } from '../../domain/reference'
import { errorForLog } from '../db/errors'
import type { AppDeps } from '../deps'
import { siteContent } from '../services/content/site-content'
import { lendingConfig, priceOffer } from '../services/pricing'
import { listContacts } from '../services/reference'
import { deploymentEnvironment } from '../services/sandbox/environment'

/** How often a page request may look at the data again; between looks, the pages are served as they are. */
export const CHECK_MS = 1_000
/** The contacts are reference data: read again at most this often. */
const CONTACTS_MS = 60_000

/** What src/entry-server.tsx exports (the bundle is loaded at run time, so typed here by hand). */
export interface ServerBundle {
  publicPaths(): string[]
  defaultOfferRequest(config: CalculatorConfig): { key: string; request: OfferRequest } | null
  render(
    url: string,
    data: {
      calculatorConfig: CalculatorConfig
      offer: unknown
      siteContent: SiteContent
      contacts: Contact[]
      environment: Environment
    },
  ): Promise<{ html: string; title: string; state: string; status: number }>
  /** A logged-in client's page (ADR 0052); null when the browser is to render it itself. */
  renderSession?(
    url: string,
    input: {
      token: string
      cookies: string
      fetch: typeof globalThis.fetch
      environment: Environment
      signal?: AbortSignal
    },
  ): Promise<{ html: string; title: string; state: string; status: number } | null>
}

/** The request a session's page is rendered for: its token, its cookies, and the server's API to ask. */
export interface SessionRequest {
  token: string
  cookies: string
  fetch: typeof globalThis.fetch
  requestId?: string
}

export interface Prerenderer {
  /**
   * The HTML of the page at a path, rendered with the current data; undefined for a path that is not rendered.
   * The SPA sends it with the CSP of its inline blocks (spaCsp hashes them).
   */
  page(path: string): Promise<string | undefined>
  /** Renders every page (start-up); resolves when done, whether or not it worked. */
  ready: Promise<void>
  /**
   * The page at a path as the session's client sees it (ADR 0052), rendered for this request; undefined when
   * the browser is to render it (no bundle, a redirect, a failed call, slower than SESSION_RENDER_MS).
   */
  sessionPage(path: string, request: SessionRequest): Promise<string | undefined>
}

/**
 * How long a client's page may take to render on the server. Past it the browser gets the app's shell and
 * renders the page itself, as it did before the server rendered such pages: never slower than that.
 */
export const SESSION_RENDER_MS = 1_500
/**
 * How many sessions' pages render at once. Past it a request gets the app's shell at once: under a rush the
 * server answers pages and API calls instead of queueing renders the browsers could do themselves.
 */
export const MAX_SESSION_RENDERS = 8

/** Where the server bundle of a browser build lives: beside it, `dist` -> `dist-ssr`. */
export const serverBundleDir = (staticDir: string) => `${resolve(staticDir)}-ssr`

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** JSON inside a <script>: no `</script>`, no `<!--`, no line separators a parser might trip on. */
const scriptJson = (json: string) =>
  json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')

/**
 * index.html with the page in it: the title, the root's markup, the query cache, and the stylesheets inline
 * (the whole CSS of the build is one small file: inline, nothing blocks the first paint on another request).
 */
export async function fillTemplate(
  template: string,
  staticDir: string,
  page: { html: string; title: string; state: string },
  options: { forSession?: boolean } = {},
): Promise<string> {
  return fillInlined(await inlineStyles(template, staticDir), page, options)
}

/** index.html with its stylesheets inline. */
async function inlineStyles(template: string, staticDir: string): Promise<string> {
  let html = template
  for (const link of template.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*>/g)) {
    const href = /\bhref="(\/assets\/[^"?#]+\.css)"/.exec(link[0])?.[1]
    if (!href) continue
    const css = await readFile(join(staticDir, href), 'utf8')
    html = html.replace(link[0], () => `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`)
  }
  return html
}

/**
 * The page in a template whose styles are inline. A session's page (ADR 0052) is marked so the browser
 * hydrates it with that session, and is inert until it has: nothing on it works before the app does.
 */
function fillInlined(
  template: string,
  page: { html: string; title: string; state: string },
  options: { forSession?: boolean },
): string {
  const html = template.replace(/<title>[\s\S]*?<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`)
  const root = options.forSession ? '<div id="root" inert>' : '<div id="root">'
  const marker = options.forSession ? ' data-for="session"' : ''
  return html.replace(
    '<div id="root"></div>',
    () =>
      `${root}${page.html}</div><script type="application/json" id="${SSR_STATE_ID}"${marker}>${scriptJson(page.state)}</script>`,
  )
}

/** A path as the pages are kept: no trailing slash, lower case (the router ignores case). */
const pageKey = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path).toLowerCase()

export async function loadServerBundle(dir: string): Promise<ServerBundle | undefined> {
  const file = join(dir, 'entry-server.js')
  if (!existsSync(file)) return undefined
  return (await import(pathToFileURL(file).href)) as ServerBundle
}

export function createPrerenderer(
  deps: AppDeps,
  options: {
    staticDir: string
    bundle: Promise<ServerBundle | undefined>
    /** The deadline of a session's page; default SESSION_RENDER_MS (tests render from the sources: slower). */
    sessionRenderMs?: number
  },
): Prerenderer {
  const staticDir = resolve(options.staticDir)
  const db = deps.database.db
  let pages = new Map<string, string>()
  let renderedKey = ''
  let checkedAt = 0
  let pending: Promise<void> | undefined
  let broken = false
  /** The paths the bundle renders, known once it has loaded. */
  let publicKeys = new Set<string>()
  let contacts: { at: number; list: Promise<Contact[]> } | undefined

  const readContacts = () => {
    if (!contacts || Date.now() - contacts.at > CONTACTS_MS)
      contacts = { at: Date.now(), list: listContacts(db) }
    return contacts.list
  }

  /** Everything the pages show that can change while the server runs, and the key that tells it changed. */
  async function readData() {
    const [config, content, contactList, environment] = await Promise.all([
      lendingConfig(db),
      siteContent(deps),
      readContacts(),
      deploymentEnvironment(deps),
    ])
    const today = manilaDate(deps.now())
    // The instance's sandbox mode is switched at run time from the back office: the banner's markup follows.
    const key = JSON.stringify([today, config.versions, content, contactList, environment])
    return { config, content, contacts: contactList, environment, today, key }
  }

  async function renderAll(bundle: ServerBundle, data: Awaited<ReturnType<typeof readData>>) {
    const first = bundle.defaultOfferRequest(data.config.calculator)
    const offer = first
      ? await priceOffer(
          db,
          {
            kind: first.request.sequenceType === 'first' ? 'guest' : 'repeat',
            amount: first.request.amount,
            term: first.request.term,
            withPackageFee: first.request.optionalFee,
          },
          deps.now(),
        )
      : null
    const template = await readFile(join(staticDir, 'index.html'), 'utf8')
    const next = new Map<string, string>()
    for (const path of bundle.publicPaths()) {
      const page = await bundle.render(path, {
        calculatorConfig: data.config.calculator,
        offer,
        siteContent: data.content,
        contacts: data.contacts,
        environment: data.environment,
      })
      // The router's not-found or error page is not a page to keep: the SPA answers such a path itself.
      if (page.status !== 200) continue
      next.set(pageKey(path), await fillTemplate(template, staticDir, page))
    }
    return next
  }

  /** Renders again when the data changed since the last render (or never rendered). */
  async function refresh(): Promise<void> {
    const bundle = await options.bundle
    if (!bundle || broken) return
    if (publicKeys.size === 0) publicKeys = new Set(bundle.publicPaths().map(pageKey))
    const started = performance.now()
    let data: Awaited<ReturnType<typeof readData>>
    try {
      data = await readData()
    } catch (error) {
      // The database did not answer: index.html until it does (asked again after CHECK_MS), never old prices.
      checkedAt = Date.now()
      renderedKey = ''
      pages = new Map()
      deps.logger.warn(
        { event: 'prerender.data_unread', err: errorForLog(error) },
        'public pages not rendered',
      )
      return
    }
    checkedAt = Date.now()
    if (data.key === renderedKey) return
    try {
      pages = await renderAll(bundle, data)
      renderedKey = data.key
      deps.logger.info(
        { event: 'prerender.rendered', pages: pages.size, ms: Math.round(performance.now() - started) },
        'public pages rendered',
      )
    } catch (error) {
      // A render that throws once throws again (the bundle's own fault): index.html, as without a bundle, rather
      // than retry it forever.
      broken = true
      pages = new Map()
      deps.logger.error({ event: 'prerender.failed', err: errorForLog(error) }, 'public pages not rendered')
    }
  }

  const refreshOnce = () => {
    pending ??= refresh().finally(() => {
      pending = undefined
    })
    return pending
  }

  const ready = refreshOnce()

  /** index.html with its styles inline, for the sessions' pages: read again only when index.html changes. */
  let sessionTemplate: { mtimeMs: number; html: Promise<string> } | undefined
  const templateForSessions = async () => {
    const { mtimeMs } = await stat(join(staticDir, 'index.html'))
    if (sessionTemplate?.mtimeMs !== mtimeMs)
      sessionTemplate = {
        mtimeMs,
        html: readFile(join(staticDir, 'index.html'), 'utf8').then((html) => inlineStyles(html, staticDir)),
      }
    return sessionTemplate.html
  }

  async function renderForSession(
    bundle: ServerBundle,
    path: string,
    request: SessionRequest,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const started = performance.now()
    const [environment, template] = await Promise.all([
      deploymentEnvironment(deps, request.requestId),
      templateForSessions(),
    ])
    const page = signal.aborted
      ? null
      : await bundle.renderSession!(path, {
          token: request.token,
          cookies: request.cookies,
          fetch: request.fetch,
          environment,
          signal,
        })
    const late = signal.aborted
    deps.logger.info(
      {
        requestId: request.requestId,
        event: 'prerender.session',
        rendered: page !== null && !late,
        late,
        ms: Math.round(performance.now() - started),
      },
      page && !late ? 'session page rendered' : 'session page left to the browser',
    )
    return page && !late ? fillInlined(template, page, { forSession: true }) : undefined
  }

  let sessionRenders = 0

  return {
    ready,
    async sessionPage(path, request) {
      const bundle = await options.bundle
      if (!bundle?.renderSession || broken) return undefined
      if (sessionRenders >= MAX_SESSION_RENDERS) {
        deps.logger.info(
          { requestId: request.requestId, event: 'prerender.session_busy', rendering: sessionRenders },
          'session page left to the browser: the server is rendering enough of them',
        )
        return undefined
      }
      sessionRenders++
      // Past the deadline the browser gets the shell, and the render stops at its next step (it is told so).
      const deadline = new AbortController()
      let timer: Parameters<typeof clearTimeout>[0]
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => {
          deadline.abort()
          resolve(undefined)
        }, options.sessionRenderMs ?? SESSION_RENDER_MS)
      })
      const rendered = renderForSession(bundle, path, request, deadline.signal)
        .catch((error: unknown) => {
          deps.logger.warn(
            { requestId: request.requestId, event: 'prerender.session_failed', err: errorForLog(error) },
            'session page not rendered',
          )
          return undefined
        })
        .finally(() => {
          sessionRenders--
          clearTimeout(timer)
        })
      return Promise.race([rendered, late])
    },
    async page(path) {
      const key = pageKey(path)
      if (broken || (publicKeys.size > 0 && !publicKeys.has(key))) return undefined
      const due = Date.now() - checkedAt >= CHECK_MS
      // Until a render is done (start-up, a database that did not answer), index.html as before.
      if (renderedKey === '') {
        if (due) void refreshOnce()
        return undefined
      }
      // After it, never a page older than the data, which may mean waiting for the render of today's pages.
      if (due) await refreshOnce()
      return renderedKey === '' ? undefined : pages.get(key)
    },
  }
}

/**
 * The prerenderer of a browser build: with `bundle` (tests render from the sources), else with the server bundle
 * beside the build; undefined when there is none, or no index.html.
 */
export function prerendererFor(
  deps: AppDeps,
  staticDir: string,
  bundle?: Promise<ServerBundle | undefined>,
  sessionRenderMs?: number,
): Prerenderer | undefined {
  const index = join(staticDir, 'index.html')
  if (!existsSync(index)) return undefined
  if (bundle) return createPrerenderer(deps, { staticDir, bundle, sessionRenderMs })
  const dir = serverBundleDir(staticDir)
  const file = join(dir, 'entry-server.js')
  if (!existsSync(file)) return undefined
  // The server bundle is built after the browser build (`npm run build`): one older than index.html belongs to
  // an earlier build, and markup from other sources than the scripts would not hydrate.
  if (statSync(file).mtimeMs < statSync(index).mtimeMs) {
    deps.logger.warn(
      { event: 'prerender.stale_bundle' },
      'server bundle older than the build: pages not rendered',
    )
    return undefined
  }
  return createPrerenderer(deps, { staticDir, bundle: loadServerBundle(dir), sessionRenderMs })
}
