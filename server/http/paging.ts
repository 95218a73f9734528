/**
 * Every route that answers a list answers a page of it (issue 13, item 8): `page` and `perPage` in the query,
 * a largest `perPage` per route, and the x-page, x-per-page, x-total-count and x-count headers (envelope.ts
 * okPage). The defaults are at least as large as the lists the web app reads today, so a caller that knows
 * nothing of paging still gets everything it got before.
 */
import type { Context } from 'hono'
import * as v from 'valibot'
import type { AppEnv } from './context'
import { okPage } from './envelope'
import { pageNumber } from './params'

export interface PageQuery {
  page: number
  perPage: number
}

/** The query entries of a paged list (spread into a route's query object, next to its own filters). */
export const pagingQuery = (defaultPerPage: number, maxPerPage: number) => ({
  page: pageNumber('1', 1_000_000),
  perPage: pageNumber(String(defaultPerPage), maxPerPage),
})

export const pagingSchema = (defaultPerPage: number, maxPerPage: number) =>
  v.object(pagingQuery(defaultPerPage, maxPerPage))

export const offsetOf = (q: PageQuery) => (q.page - 1) * q.perPage

/** A list bounded already (reference data, a per-client list with a cap): one page of it, cut in memory. */
export function okSlice<T>(c: Context<AppEnv>, all: readonly T[], q: PageQuery) {
  const start = offsetOf(q)
  return okPage(c, all.slice(start, start + q.perPage), { ...q, total: all.length })
}
