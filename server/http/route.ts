/**
 * Every API route is declared once with its valibot schemas. The same declaration validates the request,
 * types the handler and produces the OpenAPI document, so the three cannot drift apart.
 */
import type { Context, Hono } from 'hono'
import * as v from 'valibot'
import { authenticate } from '../auth/authenticate'
import type { AppEnv } from './context'
import { type Violation, validationFailed } from './errors'

type AnySchema = v.GenericSchema
type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined

export interface RouteSpec<
  P extends AnySchema | undefined,
  Q extends AnySchema | undefined,
  B extends AnySchema | undefined,
> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** Path relative to /web, in Hono syntax (`/public/address/region/:id/city`). */
  path: string
  summary: string
  tags: string[]
  /** Who may call it: anyone, a logged-in client, or a back-office user. */
  access: 'public' | 'client' | 'user'
  /** A private client route a single-link (my-loan only) session may call. */
  singleLink?: boolean
  /** A private route callable while the second factor is pending. */
  mfaPending?: boolean
  params?: P
  query?: Q
  body?: B
  /** Schema of `data` in a successful answer, for the OpenAPI document only. */
  response?: AnySchema
  paginated?: boolean
  handler: (
    c: Context<AppEnv>,
    input: { params: Out<P>; query: Out<Q>; body: Out<B> },
  ) => Response | Promise<Response>
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds routes of every input shape
export type AnyRoute = RouteSpec<any, any, any>

export function defineRoute<
  P extends AnySchema | undefined = undefined,
  Q extends AnySchema | undefined = undefined,
  B extends AnySchema | undefined = undefined,
>(spec: RouteSpec<P, Q, B>): RouteSpec<P, Q, B> {
  return spec
}

export function toViolations(issues: readonly v.BaseIssue<unknown>[], prefix = ''): Violation[] {
  return issues.map((issue) => {
    const path = v.getDotPath(issue)
    return { propertyPath: [prefix, path].filter(Boolean).join('.') || prefix, message: issue.message }
  })
}

async function parse(schema: AnySchema | undefined, value: unknown, where: string) {
  if (!schema) return { value: undefined, violations: [] as Violation[] }
  const result = await v.safeParseAsync(schema, value)
  if (result.success) return { value: result.output, violations: [] as Violation[] }
  // Body violations use the field's own path so forms can map them; params and query are prefixed.
  return { value: undefined, violations: toViolations(result.issues, where === 'body' ? '' : where) }
}

async function readBody(c: Context): Promise<unknown> {
  const text = await c.req.text()
  if (!text) return {}
  try {
    return JSON.parse(text)
  } catch {
    throw validationFailed([{ propertyPath: '', message: 'The body is not valid JSON.' }])
  }
}

export function mountRoutes(app: Hono<AppEnv>, routes: AnyRoute[]) {
  for (const route of routes) {
    app.on(route.method.toUpperCase(), route.path, async (c) => {
      if (route.access !== 'public') {
        c.set(
          'principal',
          await authenticate(c, {
            access: route.access,
            singleLink: route.singleLink,
            mfaPending: route.mfaPending,
          }),
        )
      }
      const params = await parse(route.params, c.req.param(), 'params')
      const query = await parse(route.query, c.req.query(), 'query')
      const body = route.body
        ? await parse(route.body, await readBody(c), 'body')
        : { value: undefined, violations: [] }
      const violations = [...params.violations, ...query.violations, ...body.violations]
      if (violations.length) throw validationFailed(violations)
      return route.handler(c, { params: params.value, query: query.value, body: body.value })
    })
  }
}
