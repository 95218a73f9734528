/**
 * An ApiClient for component and actor tests: `call` answers from a function of the request the contract
 * describes (method, the path with its parameters filled in, query, body), and every call is recorded. A test
 * states what the browser sends in the API's own terms, as the server will see it, without a server.
 */
import { vi } from 'vitest'
import { type AnyContract, pathOf } from '../../domain/contract/define'
import type { ApiClient, CallOptions } from '../../src/api/client'

export interface FakeCall {
  /** `GET`, `POST`, ... */
  method: string
  /** Relative to /web, parameters filled in: `/private/client/application/7/offer/actual`. */
  path: string
  query?: Record<string, string>
  body?: unknown
  options?: CallOptions
}

/** The query as the wire carries it: values as text, those left undefined not sent (as ofetch does). */
export function wireQuery(query: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (!query) return undefined
  const sent: Record<string, string> = {}
  for (const [name, value] of Object.entries(query)) if (value !== undefined) sent[name] = String(value)
  return sent
}

export type FakeAnswer = (call: FakeCall) => unknown

/** `answer` gives the `data` of the reply; throwing (an ApiError) is a refused call. */
export function fakeApi(answer: FakeAnswer) {
  const calls: FakeCall[] = []
  const call = vi.fn(async (contract: AnyContract, input?: unknown, options?: CallOptions) => {
    const given = (input ?? {}) as {
      params?: Record<string, string | number>
      query?: Record<string, unknown>
      body?: unknown
    }
    const request: FakeCall = {
      method: contract.method.toUpperCase(),
      path: pathOf(contract, given.params),
      query: wireQuery(given.query),
      body: given.body,
      options,
    }
    calls.push(request)
    return answer(request)
  })
  return { api: { call } as unknown as ApiClient, calls, call }
}

/** Answers by `"METHOD /path"`; a call to anything else fails the test loudly. */
export function routedApi(routes: Record<string, unknown | ((call: FakeCall) => unknown)>) {
  return fakeApi((request) => {
    const key = `${request.method} ${request.path}`
    if (!(key in routes)) throw new Error(`unexpected ${key}`)
    const route = routes[key]
    return typeof route === 'function' ? (route as (call: FakeCall) => unknown)(request) : route
  })
}

type MethodMock = (...args: never[]) => unknown

/**
 * A mock written per HTTP method (`get(path, options)`, `post(path, body, options)`, `put`, `delete`, `blob`,
 * `page`), given the `call` of the real client: each call reaches the method's mock with the path the contract
 * makes, so such a test still states the very path and body the browser sends.
 */
export function withCall<
  T extends Partial<Record<'get' | 'post' | 'put' | 'patch' | 'delete' | 'blob' | 'page', MethodMock>>,
>(methods: T): ApiClient & T {
  const mocks = methods as unknown as Record<string, ((...args: unknown[]) => unknown) | undefined>
  const call = async (contract: AnyContract, input?: unknown, options: CallOptions = {}) => {
    const given = (input ?? {}) as {
      params?: Record<string, string | number>
      query?: Record<string, unknown>
      body?: unknown
    }
    const path = pathOf(contract, given.params)
    const sent = given.query ? { ...options, query: wireQuery(given.query) } : options
    const method = contract.answer === 'binary' ? 'blob' : contract.paginated ? 'page' : contract.method
    const mock = mocks[method]
    if (!mock) throw new Error(`unexpected ${contract.method.toUpperCase()} ${path}`)
    // Options only when there are any, as a hand-written call would have passed them.
    const extra = Object.keys(sent).length ? [sent] : []
    if (method === 'post' || method === 'put' || method === 'patch') return mock(path, given.body, ...extra)
    return mock(path, ...extra)
  }
  return { ...methods, call } as unknown as ApiClient & T
}
