/**
 * The one HTTP client of the app. It adds the bearer token, keeps the token the server sends back in the
 * Authorization header, unwraps the `{ success, data, response }` envelope and maps failures:
 * 500+ -> full-page error, 401/403 -> logout (except a back-office role's refusal of one action), 4xx -> ApiError
 * with field violations for the form.
 */
import { FetchError, ofetch } from 'ofetch'
import {
  type AnswerOf,
  type AnyContract,
  type CallArgs,
  type Page,
  pathOf,
} from '../../domain/contract/define'
import type { ApiFailure, Envelope, Violation } from '../../domain/contract/wire'

export type { Violation }

/** The header the server reads the device id from (server/auth/transport.ts). */
export const DEVICE_HEADER = 'x-device-id'

/** A refused call (4xx, or a 5xx after the shell was told): the envelope's failure, with the path it was for. */
export class ApiError extends Error implements ApiFailure {
  constructor(
    readonly status: number,
    readonly path: string,
    readonly code: string,
    message: string,
    readonly violations: Violation[],
    /** A 429's `Retry-After` in seconds: how long until the same request may succeed (code screens count it down). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** `Retry-After` as whole seconds: a delay in seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSecondsOf(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined
  const trimmed = header.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}

export interface ApiHooks {
  getToken(): string | null
  setToken(token: string): void
  /** A 500+ answer (or no answer at all): the shell shows 'ERP response {status} {path}'. */
  onServerFailure(status: number, path: string): void
  onUnauthorized(status: 401 | 403, path: string): void
  /**
   * The browser's device id, sent as `x-device-id` on every call: the server knows the owner's trusted device by
   * it before login too (password recovery and other code requests get that device's own budget).
   */
  getDeviceId?(): string | null
  /**
   * Where the calls go: the browser's fetch by default; the server's own handler when the server renders a
   * client's page (src/entry-server.tsx, docs/decisions/0052).
   */
  fetch?: typeof globalThis.fetch
}

type Query = Record<string, string | number | boolean | undefined>

/** How one call is made; what it sends comes from its contract and input. */
export interface CallOptions {
  signal?: AbortSignal
  /** Request headers to add. */
  headers?: Record<string, string>
  /**
   * A background call (the 10-second flow poll): a 500+ still rejects, but does not replace the page with the
   * full-page error; the caller keeps what it had and tries again on its next tick.
   */
  quiet?: boolean
}

interface RequestOptions extends CallOptions {
  query?: Query
  body?: unknown
}

export function createApiClient(hooks: ApiHooks) {
  const raw = ofetch.create(
    {
      baseURL: '/web',
      retry: 0,
      onRequest({ options }) {
        const token = hooks.getToken()
        if (token) options.headers.set('Authorization', `Bearer ${token}`)
        const device = hooks.getDeviceId?.()
        if (device && !options.headers.has(DEVICE_HEADER)) options.headers.set(DEVICE_HEADER, device)
      },
      onResponse({ response }) {
        const auth = response.headers.get('authorization')
        if (auth) hooks.setToken(auth.replace(/^Bearer\s+/i, ''))
      },
    },
    hooks.fetch ? { fetch: hooks.fetch } : undefined,
  )

  function failure(error: unknown, fullPath: string, signal?: AbortSignal, quiet = false): unknown {
    if (!(error instanceof FetchError)) return error
    if (error.name === 'AbortError' || signal?.aborted) return error
    const status = error.response?.status ?? 500
    const body = error.data as Envelope<unknown> | undefined
    if (status >= 500 && !quiet) hooks.onServerFailure(status, fullPath)
    // A back-office role refused one action (403 roleNotAllowed): the session is fine, the screen says so.
    else if ((status === 401 || status === 403) && body?.response?.code !== 'roleNotAllowed')
      hooks.onUnauthorized(status, fullPath)
    return new ApiError(
      status,
      fullPath,
      body?.response?.code ?? 'error',
      body?.response?.message ?? error.message,
      body?.response?.violations ?? [],
      retryAfterSecondsOf(error.response?.headers.get('retry-after')),
    )
  }

  async function request<T>(method: string, path: string, options: RequestOptions = {}) {
    try {
      const response = await raw.raw<Envelope<T>>(path, {
        method,
        query: options.query,
        body: options.body as BodyInit | Record<string, unknown> | undefined,
        signal: options.signal,
        headers: options.headers,
      })
      return { data: response._data?.data as T, headers: response.headers }
    } catch (error) {
      throw failure(error, `/web${path}`, options.signal, options.quiet)
    }
  }

  /** A binary answer (a PDF download): no envelope, the same failure handling. */
  async function blob(method: string, path: string, options: RequestOptions): Promise<Blob> {
    try {
      return await raw(path, {
        method,
        query: options.query,
        body: options.body as BodyInit | Record<string, unknown> | undefined,
        signal: options.signal,
        headers: options.headers,
        responseType: 'blob',
      })
    } catch (error) {
      throw failure(error, `/web${path}`, options.signal, options.quiet)
    }
  }

  /** A paginated list: items plus the x-* headers of spec section 7. */
  async function page<T>(path: string, options: RequestOptions): Promise<Page<T>> {
    const { data, headers } = await request<T[]>('GET', path, options)
    const num = (name: string) => Number(headers.get(name) ?? 0)
    const perPage = num('x-per-page')
    const total = num('x-total-count')
    return {
      items: data,
      page: num('x-page'),
      perPage,
      total,
      count: num('x-count'),
      totalPages: perPage > 0 ? Math.ceil(total / perPage) : 0,
    }
  }

  /**
   * The one way the app calls the API: an operation of domain/contract/ and its input. The path, the method and
   * the body come from the contract, so no page writes a URL; the answer is typed by it.
   */
  async function call<C extends AnyContract>(
    contract: C,
    ...[input, options = {}]: CallArgs<C, CallOptions>
  ): Promise<AnswerOf<C>> {
    assertCallType(contract)
    const given = (input ?? {}) as { params?: Record<string, string | number>; query?: Query; body?: unknown }
    const path = pathOf(contract, given.params)
    const sent: RequestOptions = { ...options, query: given.query, body: given.body }
    if (contract.answer === 'binary')
      return (await blob(contract.method.toUpperCase(), path, sent)) as AnswerOf<C>
    if (contract.paginated) return (await page(path, sent)) as AnswerOf<C>
    return (await request(contract.method.toUpperCase(), path, sent)).data as AnswerOf<C>
  }

  return { call }
}

export type ApiClient = ReturnType<typeof createApiClient>

/** Spec section 8, "Unknown API call type": a contract whose method or answer kind the client cannot make. */
export class UnknownCallTypeError extends Error {
  readonly callType: string
  constructor(callType: string) {
    super(`Unknown API call type: ${callType}`)
    this.name = 'UnknownCallTypeError'
    this.callType = callType
  }
}

const callMethods: ReadonlySet<string> = new Set(['get', 'post', 'put', 'patch', 'delete'])
const answerKinds: ReadonlySet<string> = new Set(['json', 'binary'])

/** Refuses, before any request, a contract built outside the types (a method or answer kind no route has). */
export function assertCallType(contract: { method: string; answer?: string }) {
  if (!callMethods.has(contract.method)) throw new UnknownCallTypeError(String(contract.method))
  if (contract.answer !== undefined && !answerKinds.has(contract.answer))
    throw new UnknownCallTypeError(String(contract.answer))
}
