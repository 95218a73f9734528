/**
 * The spec's response envelope: `{ success, data, response }`. `response` carries the HTTP status and, on
 * failure, a machine-readable code, a message and field violations `{ propertyPath, message }`.
 */
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Violation } from './errors'

export interface Envelope<T> {
  success: boolean
  data: T
  response: { status: number; code?: string; message?: string; violations?: Violation[] }
}

export function ok<T>(c: Context, data: T, status: ContentfulStatusCode = 200) {
  return c.json({ success: true, data, response: { status } } satisfies Envelope<T>, status)
}

export function fail(
  c: Context,
  status: ContentfulStatusCode,
  code: string,
  message: string,
  violations?: Violation[],
) {
  const response: Envelope<null>['response'] = { status, code, message }
  if (violations?.length) response.violations = violations
  return c.json({ success: false, data: null, response } satisfies Envelope<null>, status)
}

export interface Page {
  page: number
  perPage: number
  total: number
}

/** A paginated list: the items in `data`, the position in the x-* headers the spec reads. */
export function okPage<T>(c: Context, items: T[], page: Page) {
  c.header('x-page', String(page.page))
  c.header('x-per-page', String(page.perPage))
  c.header('x-total-count', String(page.total))
  c.header('x-count', String(items.length))
  return ok(c, items)
}
