/**
 * The Hono application: /web API (JSON, envelope, logging, errors) and, in production, the built SPA.
 */
import { randomUUID } from 'node:crypto'
import { type Context, Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import pkg from '../../package.json' with { type: 'json' }
import { TOKEN_COOKIE } from '../auth/transport'
import { errorForLog, isDatabaseUnavailable } from '../db/errors'
import type { AppDeps } from '../deps'
import type { AppEnv } from './context'
import { fail, ok, respond, setHeader } from './envelope'
import { failureOf } from './errors'
import { guardRequest } from './guards'
import { serveManifest } from './manifest'
import { buildOpenApi } from './openapi'
import { type Prerenderer, prerendererFor, type ServerBundle } from './prerender'
import { type AnyRoute, mountRoutes } from './route'
import { allRoutes } from './routes'
import { API_CSP, documentHeaders } from './security-headers'
import { serveSpa } from './spa'

export interface AppOptions {
  /** Directory of the built SPA; omit to serve the API only (tests, dev behind Vite). */
  staticDir?: string
  routes?: AnyRoute[]
  /** The server render of the public pages; default: the bundle beside `staticDir` (server/http/prerender.ts). */
  serverBundle?: Promise<ServerBundle | undefined>
  /** How long a session's page may take on the server (ADR 0052); tests rendering from the sources allow more. */
  sessionRenderMs?: number
}

/** The pattern of the route that answered (`/web/private/client/application/:id`), for the request log. */
function routeOf(c: Context<AppEnv>) {
  const route = c.get('route')
  if (route) return `/web${route}`
  return c.req.routePath === '/web/*' ? '(unmatched)' : c.req.routePath
}

export function createApp(deps: AppDeps, options: AppOptions = {}) {
  const routes = options.routes ?? allRoutes
  const app = new Hono<AppEnv>()
  // Same router as `app`, with every path under /web.
  const api = app.basePath('/web')

  api.use('*', (c, next) => {
    c.set('deps', deps)
    const requestId = c.req.header('x-request-id')?.slice(0, 64) || randomUUID()
    c.set('requestId', requestId)
    // Cross-site mutating requests and bodies on GET are answered here, before any route (guards.ts).
    const refused = guardRequest(c)
    // Without a request log there is nothing to do after the route: no await, no extra promise per request.
    if (!deps.logger.isLevelEnabled('info')) return refused ? Promise.resolve(refused) : next()
    const started = performance.now()
    const log = (status: number) =>
      // The route pattern, never the concrete path: paths can hold e-mails and phone numbers.
      deps.logger.info(
        {
          requestId,
          method: c.req.method,
          route: routeOf(c),
          status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      )
    if (refused) {
      log(refused.status)
      return Promise.resolve(refused)
    }
    return next().then(() => log(c.res.status))
  })

  let openApi: ReturnType<typeof buildOpenApi> | undefined
  api.get('/openapi.json', (c) => {
    openApi ??= buildOpenApi(
      routes.map((route) => route.contract),
      pkg.version,
    )
    return respond(c, JSON.stringify(openApi), 200, 'application/json')
  })
  api.get('/health', (c) => ok(c, { status: 'ok', database: deps.database.kind }))
  mountRoutes(api, routes)

  api.all('*', (c) => fail(c, 404, 'notFound', 'No such API endpoint.'))
  app.onError((error, c) => {
    const failure = failureOf(error)
    if (failure) {
      if (failure.retryAfterSeconds) setHeader(c, 'retry-after', String(failure.retryAfterSeconds))
      return fail(c, failure.status, failure.code, failure.message, failure.violations)
    }
    // Never the error's message: a failed query's message is its SQL with the bound (personal) values.
    const err = errorForLog(error)
    if (isDatabaseUnavailable(error)) {
      deps.logger.warn({ requestId: c.get('requestId'), route: routeOf(c), err }, 'database unavailable')
      return fail(c, 503, 'serviceUnavailable', 'The service is briefly unavailable. Please try again.')
    }
    deps.logger.error({ requestId: c.get('requestId'), route: routeOf(c), err }, 'unhandled error')
    return fail(c, 500, 'internalError', 'Internal server error.')
  })

  /**
   * A page for the request's session (ADR 0052): the server asks its own API in process, as the browser would,
   * with the session's token and the caller's address and headers (rate limits and logs see the same caller).
   */
  function sessionPage(c: Context<AppEnv>, path: string, prerendered: Prerenderer) {
    const cookies = c.req.header('cookie') ?? ''
    const token = getCookie(c, TOKEN_COOKIE)
    // No session, or one the app would not send (a token is a JWT: three base64url parts).
    if (!token || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token) || token.length > 4096)
      return Promise.resolve(undefined)
    const requestId = c.get('requestId') ?? randomUUID()
    const passed = ['user-agent', 'accept-language', 'x-forwarded-for', 'x-forwarded-proto']
    const origin = new URL(c.req.url).origin
    const fetchInProcess: typeof fetch = (input, init) => {
      const request = new Request(new URL(String(input), origin), init)
      for (const name of passed) {
        const value = c.req.header(name)
        if (value !== undefined) request.headers.set(name, value)
      }
      request.headers.set('x-request-id', requestId)
      return Promise.resolve(app.fetch(request, c.env))
    }
    return prerendered.sessionPage(path, { token, cookies, fetch: fetchInProcess, requestId })
  }

  // The web app manifest, built from the back office's app entry (issue 22 item 3): before the SPA's catch-all.
  serveManifest(app, deps)
  if (options.staticDir) {
    // The public pages rendered on the server when the build has its server bundle (ADR 0040).
    const prerendered = prerendererFor(deps, options.staticDir, options.serverBundle, options.sessionRenderMs)
    serveSpa(app, options.staticDir, {
      trustProxy: deps.trustProxy,
      captchaProvider: deps.captcha?.name,
      renderPage: prerendered && ((path) => prerendered.page(path)),
      renderSessionPage: prerendered && ((c, path) => sessionPage(c, path, prerendered)),
    })
  }
  // Outside /web and the web app's GETs (a POST to /, any path without a built app): still with the headers.
  app.notFound(
    (c) =>
      new Response('Not found.', {
        status: 404,
        headers: {
          ...documentHeaders(c, API_CSP, deps.trustProxy),
          'content-type': 'text/plain; charset=utf-8',
        },
      }),
  )
  return app
}
