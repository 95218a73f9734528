/**
 * Every API route is declared once with its valibot schemas. The same declaration validates the request,
 * types the handler and produces the OpenAPI document, so the three cannot drift apart.
 */
import type { Context, Hono } from 'hono'
import { TrieRouter } from 'hono/router/trie-router'
import * as v from 'valibot'
import type { AnyContract, HandlerInput } from '../../domain/contract/define'
import { toViolations } from '../../domain/contract/wire'
import { UNSAFE_TEXT_MESSAGE, unsafeValuePaths } from '../../domain/safe-text'
import { authenticate, RoleNotAllowed } from '../auth/authenticate'
import { type AuditActor, auditCall, noteInput, recordRefusal, redact } from '../services/audit/audit'
import { assertDeclaredLength, JSON_BODY_LIMIT, readLimitedText } from './body-limit'
import type { AppEnv } from './context'
import { type Violation, validationFailed } from './errors'
import { assertMediaType, mediaTypeOf, unsupportedMediaType } from './guards'

type AnySchema = v.GenericSchema

/** A contract (domain/contract/) with the server's handler for it. */
export interface RouteSpec<C extends AnyContract = AnyContract> {
  contract: C
  /**
   * A public route's answer before validation: the very answer it gave to the very same request, when the route
   * can tell nothing it depends on has changed (the guest offer, per configuration and day). Undefined: go on.
   */
  replay?: (c: Context<AppEnv>) => Response | undefined
  handler: (c: Context<AppEnv>, input: HandlerInput<C>) => Response | Promise<Response>
}

export type AnyRoute = RouteSpec<AnyContract>

/**
 * The server's side of a contract: the handler receives the request as the contract declared it, authenticated
 * and validated (params, query and body together, every violation answered at once).
 */
export function implement<C extends AnyContract>(
  contract: C,
  handler: RouteSpec<C>['handler'],
  options: Pick<RouteSpec<C>, 'replay'> = {},
): AnyRoute {
  return { contract, handler, ...options } as AnyRoute
}

const joinPath = (prefix: string, path: string) => [prefix, path].filter(Boolean).join('.') || prefix

/** The one conversion of valibot issues (domain/contract/wire.ts), for the route files. */
export { toViolations }

function parse(schema: AnySchema | undefined, value: unknown, where: string) {
  if (!schema) return { value: undefined, violations: [] as Violation[] }
  // Route schemas are synchronous (GenericSchema): the async parser would only add promises to every request.
  const result = v.safeParse(schema, value)
  // Whatever the route's schema says, no string PostgreSQL cannot store (NUL, unpaired surrogates) and no
  // infinite number reaches a handler (docs/decisions/0002-api-conventions.md, safe strings and ids).
  const unsafe = unsafeValuePaths(value)
  if (result.success && !unsafe.length) return { value: result.output, violations: [] as Violation[] }
  // Body violations use the field's own path so forms can map them; params and query are prefixed.
  const prefix = where === 'body' ? '' : where
  const violations = result.success ? [] : toViolations(result.issues, prefix)
  for (const path of unsafe) {
    const propertyPath = joinPath(prefix, path)
    if (!violations.some((violation) => violation.propertyPath === propertyPath))
      violations.push({ propertyPath, message: UNSAFE_TEXT_MESSAGE })
  }
  return { value: undefined, violations }
}

async function readBody(c: Context<AppEnv>, limit: number): Promise<unknown> {
  const text = await readLimitedText(c, limit)
  if (!text) return {}
  // A body with no type at all: what `fetch(url, { body: blob })` from another page would send.
  if (mediaTypeOf(c) === null) throw unsupportedMediaType('application/json')
  try {
    return JSON.parse(text)
  } catch {
    throw validationFailed([{ propertyPath: '', message: 'The body is not valid JSON.' }])
  }
}

type Handler = (c: Context<AppEnv>, rawParams: () => Record<string, string>) => Promise<Response> | Response

const noViolations = { value: undefined, violations: [] as Violation[] }

/**
 * The request as the route declared it: authenticated, then parameters, query and body validated together so
 * every violation is answered at once. Only what the route declares is read (parsing a query costs every
 * request), and nothing is awaited that need not be: this runs on every request, the offer most of all.
 */
function handlerOf({ contract: route, handler: handle, replay }: AnyRoute): Handler {
  // A back-office write's audit entry carries the input as validated and the row it touches, read before it runs.
  const writes = route.access === 'user' && route.method !== 'get'
  const handler: AnyRoute['handler'] = writes
    ? async (c, input) => {
        await noteInput(c.get('deps').database.db, route.path, input as Record<string, unknown>)
        return handle(c, input)
      }
    : handle
  const validated = (c: Context<AppEnv>, rawParams: () => Record<string, string>, rawBody?: unknown) => {
    const params = route.params ? parse(route.params, rawParams(), 'params') : noViolations
    const query = route.query ? parse(route.query, queryOf(c.req.url), 'query') : noViolations
    const body = route.body ? parse(route.body, rawBody, 'body') : noViolations
    if (params.violations.length || query.violations.length || body.violations.length)
      throw validationFailed([...params.violations, ...query.violations, ...body.violations])
    return handler(c, { params: params.value, query: query.value, body: body.value })
  }
  const validatedRaw = (c: Context<AppEnv>, rawParams: () => Record<string, string>, text: string) => {
    const params = route.params ? parse(route.params, rawParams(), 'params') : noViolations
    const query = route.query ? parse(route.query, queryOf(c.req.url), 'query') : noViolations
    if (params.violations.length || query.violations.length)
      throw validationFailed([...params.violations, ...query.violations])
    return handler(c, { params: params.value, query: query.value, body: text })
  }
  const limit = route.bodyLimit ?? JSON_BODY_LIMIT
  const multipart = route.bodyType === 'multipart'
  const raw = route.bodyType === 'raw'
  const withBody = (c: Context<AppEnv>, rawParams: () => Record<string, string>) => {
    // A signed body (a gateway's webhook): the handler checks the signature over the exact text, then parses it.
    if (raw) return readLimitedText(c, limit).then((text) => validatedRaw(c, rawParams, text))
    if (route.body && !multipart) return readBody(c, limit).then((raw) => validated(c, rawParams, raw))
    // A chunked body the route will not read is still counted against the limit, then dropped.
    if (!multipart && c.req.raw.headers.has('transfer-encoding'))
      return readLimitedText(c, limit).then(() => validated(c, rawParams))
    return validated(c, rawParams)
  }
  /**
   * Before authentication, which may cost a database read: a declared length over the limit and a body of the
   * wrong type are refused unread. GET and HEAD bodies are refused by the /web guard (guards.ts).
   */
  const bounded = (c: Context<AppEnv>) => {
    const method = c.req.method
    if (method === 'GET' || method === 'HEAD') return
    assertDeclaredLength(c, limit)
    assertMediaType(c, multipart ? 'multipart/form-data' : 'application/json')
  }

  if (route.access === 'public') {
    return (c, rawParams) => {
      c.set('route', route.path)
      const replayed = replay?.(c)
      if (replayed) return replayed
      bounded(c)
      return withBody(c, rawParams)
    }
  }
  const access = {
    access: route.access,
    singleLink: route.singleLink,
    mfaPending: route.mfaPending,
    permission: route.permission,
  }
  return async (c, rawParams) => {
    c.set('route', route.path)
    bounded(c)
    try {
      c.set('principal', await authenticate(c, access))
    } catch (error) {
      if (error instanceof RoleNotAllowed) {
        c.set('principal', error.principal)
        await recordRefusal(c.get('deps').database.db, auditActorOf(c, route, { params: rawParams() }))
      }
      throw error
    }
    if (!writes) return withBody(c, rawParams)
    // Every back-office write leaves an audit entry, done or failed (server/services/audit/audit.ts).
    const answerOf = async (response: Response) =>
      route.answer === 'binary'
        ? null
        : (
            (await response
              .clone()
              .json()
              .catch(() => null)) as { data?: unknown } | null
          )?.data
    return auditCall(
      c.get('deps').database.db,
      auditActorOf(c, route, { params: rawParams() }),
      async () => withBody(c, rawParams),
      answerOf,
    )
  }
}

/** Who makes a back-office call and with what input, for its audit entry. */
export function auditActorOf(
  c: Context<AppEnv>,
  route: AnyContract,
  request: Record<string, unknown>,
): AuditActor {
  const principal = c.get('principal')
  const pattern = route.path.replace(/:(\w+)/g, '{$1}')
  return {
    userId: principal.id,
    sessionId: principal.sessionId,
    deviceHash: principal.deviceHash,
    call: `${route.method.toUpperCase()} /web${pattern}`,
    permission: route.permission ?? 'none',
    requestId: c.get('requestId') ?? null,
    request: redact(request) as Record<string, unknown>,
  }
}

/**
 * The query string as a record, the first of repeated names as Hono's c.req.query() gives it, by
 * URLSearchParams: about twice as fast, on every request that declares a query.
 */
function queryOf(url: string): Record<string, string> {
  const query: Record<string, string> = {}
  const at = url.indexOf('?')
  if (at === -1) return query
  for (const [name, value] of new URLSearchParams(url.slice(at + 1))) query[name] ??= value
  return query
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean)
const isParam = (segment: string) => segment.startsWith(':')

/**
 * Where a route's parameter stands beside a static segment of another route (`application/:id` beside
 * `application/actual`, both spec paths), the path before it: Hono's RegExpRouter cannot compile such a pair,
 * and Hono's default router then falls back to its trie for EVERY request, which costs each one several
 * microseconds. Such routes are served from one wildcard route per prefix instead (see mountRoutes).
 */
function ambiguousPrefix(route: AnyContract, routes: AnyRoute[]): string | undefined {
  const segments = segmentsOf(route.path)
  for (const [at, segment] of segments.entries()) {
    if (!isParam(segment)) continue
    const before = segments.slice(0, at).join('/')
    const beside = routes.some((other) => {
      const theirs = segmentsOf(other.contract.path)
      return theirs.length > at && !isParam(theirs[at]!) && theirs.slice(0, at).join('/') === before
    })
    if (beside) return `/${before}/`
  }
  return undefined
}

/**
 * Mounts every route on the Hono app. Routes the RegExpRouter can compile are mounted as they are; the few with
 * an ambiguous parameter (ambiguousPrefix) are matched by a small trie of their own behind one `prefix*` route,
 * mounted after the others so the static routes of that prefix still answer first. tests/api/router.test.ts
 * checks that the app ends up on the RegExpRouter.
 */
export function mountRoutes(app: Hono<AppEnv>, routes: AnyRoute[]) {
  const nested = new Map<string, TrieRouter<Handler>>()
  for (const route of routes) {
    const { method: lower, path } = route.contract
    const method = lower.toUpperCase()
    const handler = handlerOf(route)
    const prefix = ambiguousPrefix(route.contract, routes)
    if (!prefix) {
      app.on(method, path, (c) => handler(c, () => c.req.param()))
      continue
    }
    let router = nested.get(prefix)
    if (!router) {
      router = new TrieRouter<Handler>()
      nested.set(prefix, router)
    }
    router.add(method, path, handler)
  }
  for (const [prefix, router] of nested) {
    app.all(`${prefix}*`, (c, next) => {
      const path = c.req.path.slice(c.req.path.indexOf(prefix))
      const [found] = router.match(c.req.method, path)[0]
      if (!found) return next()
      const [handler, params] = found as [Handler, Record<string, string>]
      return handler(c, () => decodeParams(params))
    })
  }
}

function decodeParams(params: Record<string, string>) {
  const decoded: Record<string, string> = {}
  for (const [name, value] of Object.entries(params)) {
    try {
      decoded[name] = decodeURIComponent(value)
    } catch {
      decoded[name] = value
    }
  }
  return decoded
}
