/**
 * Every route that answers a list answers a page of it (issue 13, item 8): `page` and `perPage` in the query
 * (`pagingQuery` in domain/contract/reference.ts, part of each list's contract), a largest `perPage` per route, and the x-page, x-per-page, x-total-count and x-count headers (envelope.ts
 * okPage). The defaults are at least as large as the lists the web app reads today, so a caller that knows
 * nothing of paging still gets everything it got before.
 */
import type { Context } from 'hono'
import type { AppEnv } from './context'
import { okPage } from './envelope'

export interface PageQuery {
  page: number
  perPage: number
}

export const offsetOf = (q: PageQuery) => (q.page - 1) * q.perPage

/** A list bounded already (reference data, a per-client list with a cap): one page of it, cut in memory. */
export function okSlice<T>(c: Context<AppEnv>, all: readonly T[], q: PageQuery) {
  const start = offsetOf(q)
  return okPage(c, all.slice(start, start + q.perPage), { ...q, total: all.length })
}
