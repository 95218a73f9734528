/**
 * The spec's response envelope: `{ success, data, response }`. `response` carries the HTTP status and, on
 * failure, a machine-readable code, a message and field violations `{ propertyPath, message }`.
 *
 * Every /web response is built here, with its headers as a plain record. @hono/node-server writes such a
 * response straight to the socket; Hono's `c.header()` or more than one header passed to `c.json()` build a
 * WHATWG `Headers` object instead, which the server then copies back into a record: about a fifth of the CPU
 * time of a cheap request (docs/decisions/0017). So a route adds a header with `setHeader` or `addCookie`,
 * never `c.header()`, whose headers `ok` would not see, and answers with `ok`, `okPage`, `fail` or `binary`,
 * never `c.json()` or `c.body()` (tests/api/http-conventions.test.ts checks the source).
 */
import type { Context } from 'hono'
import { generateCookie } from 'hono/cookie'
import type { CookieOptions } from 'hono/utils/cookie'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Envelope, Violation } from '../../domain/contract/wire'
import { compressAnswer } from './compression'
import type { AppEnv } from './context'
import { API_CSP, HSTS, isSecure, PERMISSIONS_POLICY, REFERRER_POLICY } from './security-headers'

/** A response header of the current request, sent with whatever the route answers. */
export function setHeader(c: Context<AppEnv>, name: string, value: string) {
  extraHeaders(c)[name.toLowerCase()] = value
}

/** A `Set-Cookie` header of the current request (there may be several). */
export function addCookie(c: Context<AppEnv>, name: string, value: string, options: CookieOptions) {
  const cookies = c.get('cookies') ?? []
  cookies.push(generateCookie(name, value, options))
  c.set('cookies', cookies)
}

function extraHeaders(c: Context<AppEnv>) {
  let headers = c.get('headers')
  if (!headers) {
    headers = {}
    c.set('headers', headers)
  }
  return headers
}

/**
 * Data already serialised to JSON (a memoised offer, server/services/pricing.ts): `ok` splices the text into
 * the envelope instead of parsing and stringifying it again.
 */
export class SerialisedJson {
  #okBody: Uint8Array<ArrayBuffer> | undefined
  constructor(readonly text: string) {}

  /** The whole 200 envelope around the data, as bytes: made once, then written to the socket as is. */
  get okBody(): Uint8Array<ArrayBuffer> {
    // A Buffer from a string owns a plain ArrayBuffer.
    this.#okBody ??= Buffer.from(
      `{"success":true,"data":${this.text},"response":{"status":200}}`,
    ) as Uint8Array<ArrayBuffer>
    return this.#okBody
  }
}

/**
 * What every /web answer carries: its request id, no caching of personal or price data, and the browser
 * defences (security-headers.ts), all in one literal: the cheapest record to build on every request.
 */
function baseHeaders(c: Context<AppEnv>, contentType?: string): Record<string, string> {
  const headers: Record<string, string> = {
    'x-request-id': c.get('requestId') ?? '',
    'cache-control': 'no-store',
    'content-security-policy': API_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': REFERRER_POLICY,
    'permissions-policy': PERMISSIONS_POLICY,
  }
  if (contentType) headers['content-type'] = contentType
  if (isSecure(c, c.get('deps')?.trustProxy)) headers['strict-transport-security'] = HSTS
  return headers
}

/** A response with a plain header record (the fast path); a list of pairs only when cookies are set. */
export function respond(
  c: Context<AppEnv>,
  body: string | Uint8Array<ArrayBuffer>,
  status: number,
  contentType: string,
  headers?: Record<string, string>,
): Response {
  const added = c.get('headers')
  // The common answer (no added header) is one small literal: spreading records costs every request.
  let record =
    added || headers ? { ...baseHeaders(c, contentType), ...added, ...headers } : baseHeaders(c, contentType)
  // JSON of 1 KB and more compressed when the client accepts it (compression.ts); smaller answers as they are.
  const compressed = compressAnswer(body, contentType, record, () => c.req.header('accept-encoding'))
  if (compressed) {
    body = compressed.body
    record = compressed.headers
  }
  const cookies = c.get('cookies')
  const init: HeadersInit = cookies?.length
    ? [...Object.entries(record), ...cookies.map((cookie): [string, string] => ['set-cookie', cookie])]
    : record
  return new Response(body, { status, headers: init })
}

const JSON_TYPE = 'application/json'

export function ok<T>(c: Context<AppEnv>, data: T, status: ContentfulStatusCode = 200) {
  if (data instanceof SerialisedJson) {
    const body =
      status === 200 ? data.okBody : `{"success":true,"data":${data.text},"response":{"status":${status}}}`
    return respond(c, body, status, JSON_TYPE)
  }
  const text = JSON.stringify({ success: true, data, response: { status } } satisfies Envelope<T>)
  return respond(c, text, status, JSON_TYPE)
}

export function fail(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  code: string,
  message: string,
  violations?: Violation[],
) {
  const response: Envelope<null>['response'] = { status, code, message }
  if (violations?.length) response.violations = violations
  return respond(
    c,
    JSON.stringify({ success: false, data: null, response } satisfies Envelope<null>),
    status,
    JSON_TYPE,
  )
}

export interface Page {
  page: number
  perPage: number
  total: number
}

/** A paginated list: the items in `data`, the position in the x-* headers the spec reads. */
export function okPage<T>(c: Context<AppEnv>, items: T[], page: Page) {
  setHeader(c, 'x-page', String(page.page))
  setHeader(c, 'x-per-page', String(page.perPage))
  setHeader(c, 'x-total-count', String(page.total))
  setHeader(c, 'x-count', String(items.length))
  return ok(c, items)
}

/** A file (a signed PDF, an identity photo): its bytes with their own type and disposition, never sniffed. */
export function binary(c: Context<AppEnv>, bytes: Uint8Array<ArrayBuffer>, headers: Record<string, string>) {
  const { 'content-type': contentType = 'application/octet-stream', ...rest } = headers
  return respond(c, bytes, 200, contentType, { 'x-content-type-options': 'nosniff', ...rest })
}
