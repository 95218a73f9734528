/**
 * Refusals that come before a route reads anything (docs/decisions/0002): requests another website made a
 * visitor's browser send, bodies on methods that take none, and bodies of a type the route does not read.
 */
import type { Context } from 'hono'
import { JSON_BODY_LIMIT, payloadTooLarge } from './body-limit'
import type { AppEnv } from './context'
import { fail, setHeader } from './envelope'
import { HttpError } from './errors'

export const crossSiteRequest = () =>
  new HttpError(403, 'crossSiteRequest', 'Requests from another website are not accepted.')

export const unsupportedMediaType = (expected: string) =>
  new HttpError(415, 'unsupportedMediaType', `The request body must be ${expected}.`)

/** The host:port the caller addressed: X-Forwarded-Host behind a trusted proxy, else the request URL's. */
function ownHost(c: Context<AppEnv>): string {
  if (c.get('deps')?.trustProxy) {
    const forwarded = c.req.raw.headers.get('x-forwarded-host')?.split(',')[0]?.trim()
    if (forwarded) return forwarded.toLowerCase()
  }
  const url = c.req.url
  const start = url.indexOf('//') + 2
  const end = url.indexOf('/', start)
  return url.slice(start, end === -1 ? undefined : end).toLowerCase()
}

/**
 * Whether an Origin header names this server. The host must match; the scheme must be http or https, and the
 * one we know when we know it (a trusted X-Forwarded-Proto). Without a trusted proxy the scheme the browser
 * used is unknowable behind TLS termination, and an http page on our own host is what HSTS rules out.
 */
function isOwnOrigin(c: Context<AppEnv>, origin: string): boolean {
  const at = origin.indexOf('://')
  if (at === -1) return false // `null` (sandboxed frames, privacy redirects) names no origin: not ours.
  const scheme = origin.slice(0, at).toLowerCase()
  if (scheme !== 'http' && scheme !== 'https') return false
  if (c.get('deps')?.trustProxy) {
    const proto = c.req.raw.headers.get('x-forwarded-proto')
    if (proto && proto !== scheme) return false
  }
  return origin.slice(at + 3).toLowerCase() === ownHost(c)
}

/**
 * A mutating request is refused when the browser says another site made it (`Sec-Fetch-Site: cross-site`) or
 * its Origin names another origin. A request with neither header (a server, curl, an older browser's
 * same-origin call) passes: the rule stops browsers being used against their own user, and servers have no
 * visitor's browser to borrow.
 */
export function isCrossSite(c: Context<AppEnv>): boolean {
  const headers = c.req.raw.headers
  if (headers.get('sec-fetch-site') === 'cross-site') return true
  const origin = headers.get('origin')
  return origin !== null && !isOwnOrigin(c, origin)
}

/**
 * GET and HEAD routes read no body. One within the JSON limit is left for the server to skip; a larger or
 * chunked one (which only a client up to no good sends) is refused and the connection closed rather than read.
 */
export function refusesSafeMethodBody(c: Context<AppEnv>): boolean {
  const headers = c.req.raw.headers
  const length = headers.get('content-length')
  if (length !== null && length !== '0' && !(Number(length) <= JSON_BODY_LIMIT)) return true
  return headers.has('transfer-encoding')
}

/** The media type of the body, lower case, without parameters (`multipart/form-data`), or null. */
export function mediaTypeOf(c: Context<AppEnv>): string | null {
  const header = c.req.raw.headers.get('content-type')
  if (header === null) return null
  const semicolon = header.indexOf(';')
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase()
}

/**
 * A body of the wrong type is refused before it is read: a JSON route takes application/json, an upload route
 * multipart/form-data. A request that declares an empty body needs no type; one that declares a type for a
 * non-empty body must declare the right one. (A non-empty body with no type at all is caught by the route once
 * read: see route.ts.)
 */
export function assertMediaType(c: Context<AppEnv>, expected: 'application/json' | 'multipart/form-data') {
  const type = mediaTypeOf(c)
  if (type === expected) return
  if (c.req.raw.headers.get('content-length') === '0') return
  if (type === null && expected === 'application/json') return
  throw unsupportedMediaType(expected)
}

/**
 * What /web refuses before any route runs, as an answer (the request log still sees it), or undefined: a
 * cross-site mutating request (403), a body on GET or HEAD past the JSON limit or of unknown length (413, and
 * the connection is closed so Node does not read on to the end of it).
 */
export function guardRequest(c: Context<AppEnv>): Response | undefined {
  const method = c.req.method
  if (method === 'GET' || method === 'HEAD') {
    if (!refusesSafeMethodBody(c)) return undefined
    setHeader(c, 'connection', 'close')
    const error = payloadTooLarge(JSON_BODY_LIMIT)
    return fail(c, error.status, error.code, error.message)
  }
  if (!isCrossSite(c)) return undefined
  const error = crossSiteRequest()
  return fail(c, error.status, error.code, error.message)
}
