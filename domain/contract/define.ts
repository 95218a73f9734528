/**
 * The client–server contract (docs/decisions/0023-one-contract.md): every /web operation is declared once, here
 * under domain/contract/, with its method, its path, who may call it and the valibot schemas of its parameters,
 * query, body and answer. The server implements a contract (server/http/route.ts `implement`), the OpenAPI
 * document is built from the implemented contracts, and the browser calls one through the typed caller
 * (src/api/client.ts `api.call(contract, input)`), which builds the URL and the body: no page writes a path.
 *
 * A contract is plain data plus schemas, so it costs the browser only what it imports: each operation is its own
 * named export, and a production build drops the documentation strings (`summary`, `tags`) and the answer
 * schemas, which only the server and the OpenAPI document read (scripts/vite-strip-contract-docs.ts).
 */
import type * as v from 'valibot'
import type { Permission } from '../back-office/roles'

export type AnySchema = v.GenericSchema

/**
 * The shape of an answer that has no valibot schema yet: a type only, for the caller. The OpenAPI document shows
 * such an answer as undescribed; give it a schema when its shape settles (tests/api/contracts.test.ts counts them).
 */
export interface Typed<T> {
  readonly typed: true
  /** Never set: carries T for the type checker. */
  readonly __answer?: T
}

/** An answer typed by T with no runtime schema. */
export const typed = <T>(): Typed<T> => ({ typed: true })

export type Answer = AnySchema | Typed<unknown>

export interface Contract<
  P extends AnySchema | undefined = AnySchema | undefined,
  Q extends AnySchema | undefined = AnySchema | undefined,
  B extends AnySchema | undefined = AnySchema | undefined,
  R extends Answer | undefined = Answer | undefined,
> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** Path relative to /web, parameters as `:name` (`/public/address/region/:id/city`). */
  path: string
  summary: string
  tags: readonly string[]
  /** Who may call it: anyone, a logged-in client, or a back-office user. */
  access: 'public' | 'client' | 'user'
  /**
   * A back-office route's permission (domain/back-office/roles.ts), checked on every call against the user's
   * roles. A `user` route without one is refused to everybody (tests/api/back-office-roles.test.ts lists them).
   */
  permission?: Permission
  /** A private client route a single-link (my-loan only) session may call. */
  singleLink?: boolean
  /** A private route callable while the second factor is pending. */
  mfaPending?: boolean
  params?: P
  query?: Q
  body?: B
  /**
   * What the body is: JSON (the default; validated against `body`) or a multipart upload (FormData) the
   * handler reads itself. Any other Content-Type for a non-empty body is a 415.
   */
  bodyType?: 'json' | 'multipart' | 'raw'
  /** The largest body the route takes, in bytes (default 64 KB); past it, a 413. */
  bodyLimit?: number
  /** Schema (or type) of `data` in a successful answer. */
  response?: R
  /** `binary`: the answer is a file (a PDF), not the JSON envelope. */
  answer?: 'json' | 'binary'
  /** A list answered in pages, with the x-page, x-per-page, x-total-count and x-count headers. */
  paginated?: boolean
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds contracts of every shape
export type AnyContract = Contract<any, any, any, any>

/**
 * Declares one operation. The whole declaration keeps its literal type (`const`), so the caller knows a
 * `paginated: true` list answers a Page, `answer: 'binary'` a Blob and `bodyType: 'multipart'` takes FormData.
 */
export function defineContract<const C extends AnyContract>(contract: C): C {
  return contract
}

type SchemaOf<C, K extends 'params' | 'query' | 'body' | 'response'> = C extends { [key in K]?: infer S }
  ? S
  : undefined

/** A path parameter goes out as text; numbers are accepted and written in decimal. */
export type ParamsInput<C> =
  SchemaOf<C, 'params'> extends AnySchema
    ? { [K in keyof v.InferInput<SchemaOf<C, 'params'>>]: string | number }
    : undefined

/** Query values go out as text; numbers and booleans are written as they print. */
export type QueryInput<C> =
  SchemaOf<C, 'query'> extends AnySchema
    ? { [K in keyof v.InferInput<SchemaOf<C, 'query'>>]?: string | number | boolean | undefined }
    : undefined

export type BodyInput<C> = C extends { bodyType: 'multipart' }
  ? FormData
  : SchemaOf<C, 'body'> extends AnySchema
    ? v.InferInput<SchemaOf<C, 'body'>>
    : undefined

/** One page of a paginated list, with the position the x-* headers gave. */
export interface Page<T> {
  items: T[]
  page: number
  perPage: number
  total: number
  count: number
  totalPages: number
}

type DataOf<C> =
  SchemaOf<C, 'response'> extends Typed<infer T>
    ? T
    : SchemaOf<C, 'response'> extends AnySchema
      ? v.InferOutput<SchemaOf<C, 'response'>>
      : unknown

/** What a successful call gives the caller: the answer's `data`, typed by the contract. */
export type AnswerOf<C> = C extends { answer: 'binary' }
  ? Blob
  : C extends { paginated: true }
    ? Page<DataOf<C> extends (infer T)[] ? T : never>
    : DataOf<C>

/** The `data` of a successful answer as the server writes it (a paginated list's items, unpaged). */
export type ServerAnswerOf<C> = C extends { answer: 'binary' } ? never : DataOf<C>

/** What the handler receives after validation (the schemas' outputs). */
export type HandlerInput<C> = {
  params: SchemaOf<C, 'params'> extends AnySchema ? v.InferOutput<SchemaOf<C, 'params'>> : undefined
  query: SchemaOf<C, 'query'> extends AnySchema ? v.InferOutput<SchemaOf<C, 'query'>> : undefined
  /** A `raw` body reaches the handler as the text sent, unvalidated (it checks a signature over the bytes first). */
  body: C extends { bodyType: 'raw' }
    ? string
    : SchemaOf<C, 'body'> extends AnySchema
      ? v.InferOutput<SchemaOf<C, 'body'>>
      : undefined
}

/**
 * The input of a call: only the parts the contract declares, each required when declared (a query is
 * optional as a whole only when every value in it is).
 */
export type CallInput<C> = (SchemaOf<C, 'params'> extends AnySchema ? { params: ParamsInput<C> } : unknown) &
  (SchemaOf<C, 'query'> extends AnySchema ? { query?: QueryInput<C> } : unknown) &
  (C extends { bodyType: 'multipart' }
    ? { body: FormData }
    : SchemaOf<C, 'body'> extends AnySchema
      ? { body: BodyInput<C> }
      : unknown)

/** The arguments of a call after its contract: the input (optional when nothing in it is required), options. */
export type CallArgs<C, O> =
  Record<never, never> extends CallInput<C>
    ? [input?: CallInput<C>, options?: O]
    : [input: CallInput<C>, options?: O]

/** The path of a call, relative to /web, its parameters encoded. A declared parameter left out is an error. */
export function pathOf(
  contract: Pick<AnyContract, 'path'>,
  params?: Record<string, string | number>,
): string {
  return contract.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name]
    if (value === undefined) throw new Error(`${contract.path}: the parameter ${name} is missing`)
    return encodeURIComponent(String(value))
  })
}
