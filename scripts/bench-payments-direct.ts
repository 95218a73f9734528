/**
 * The payments benchmark's side inside the bench server (scripts/bench-server.ts, BENCH_PAYMENTS=1): the fixture,
 * the direct baselines (the same payment posted in this process with no HTTP in between), the check that every
 * event became a posted payment, and a query counter for profiling. The bench (scripts/bench-payments.ts) drives
 * them over the bench server's side port, so they run on the very database and runtime the webhook runs on.
 *
 * Two baselines, so the cost of each layer shows:
 * - `posting`: `receivePayment` (server/services/payments/posting.ts) called directly: the posting transaction
 *   and the lookups around it, nothing else;
 * - `service`: `receiveWebhook` (server/services/payments/gateway.ts) called directly with the signed raw body:
 *   signature, parsing, the inbox row, the posting, the inbox update and the receipts (afterPosting): everything
 *   the webhook route does but HTTP.
 */
import { sql } from 'drizzle-orm'
import pg from 'pg'
import type { Database } from '../server/db/client'
import type { AppDeps } from '../server/deps'
import { receiveWebhook } from '../server/services/payments/gateway'
import { RECEIPT_JOB } from '../server/services/payments/job-kinds'
import { receivePayment } from '../server/services/payments/posting'
import { chargeIdOf, incomingPayment, paidEventBody, signedHeaders } from './bench-payments-events'
import { type LoadStats, runLoad } from './bench-payments-load'

export type { LoadStats }

export type DirectMode = 'posting' | 'service'

export interface LoadOptions {
  mode: DirectMode
  tag: string
  clientIds: number[]
  concurrency: number
  /** Requests per second for a paced run (each request starts at its slot); closed loop when absent. */
  rate?: number
}

/** One direct baseline run: each client's payment posted in this process, `concurrency` at a time. */
export function runDirect(deps: AppDeps, options: LoadOptions): Promise<LoadStats> {
  const { mode, tag } = options
  const call =
    mode === 'posting'
      ? async (clientId: number) => {
          const { outcome } = await receivePayment(deps, incomingPayment(tag, clientId, deps.now()))
          return outcome === 'posted'
        }
      : async (clientId: number) => {
          const at = deps.now()
          const body = paidEventBody(tag, clientId, at)
          const { outcome } = await receiveWebhook(
            deps,
            'sandbox',
            new Headers(signedHeaders(body, at)),
            body,
          )
          return outcome === 'posted'
        }
  return runLoad(options.clientIds, options.concurrency, options.rate, call)
}

/** What the database holds for a run: its payments posted to a loan, and the receipts sent for them. */
export async function verifyRun(database: Database, tag: string) {
  const prefix = chargeIdOf(tag, 0).slice(0, -1)
  const rows = (
    (await database.db.execute(sql`
      select count(*) filter (where p.status = 'posted' and p.loan_id is not null)::int as posted,
             count(*)::int as payments,
             (select count(*)::int from payment_event ev where starts_with(ev.provider_payment_id, ${prefix})
                and ev.outcome = 'posted') as events,
             (select count(*)::int from servicing_job j where j.kind = ${RECEIPT_JOB} and j.done_at is not null
                and j.subject_id in (select p2.id::text from payment p2 where starts_with(p2.provider_payment_id, ${prefix})))
               as receipts
      from payment p where p.provider = 'sandbox' and starts_with(p.provider_payment_id, ${prefix})`)) as unknown as {
      rows: { posted: number; payments: number; events: number; receipts: number }[]
    }
  ).rows
  return rows[0]!
}

/**
 * Counts the statements this process sends to its database (BEGIN and COMMIT included), for profiling: PGlite's
 * every query and exec go through `_runExclusiveQuery`; node-postgres's through `Client.prototype.query`.
 */
export function installQueryCounter(database: Database): () => number {
  let count = 0
  if (database.kind === 'postgres') {
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }
    const original = proto.query
    proto.query = function (this: unknown, ...args: unknown[]) {
      count++
      return original.apply(this, args)
    }
  } else {
    const client = (database.db as unknown as { $client: Record<string, unknown> }).$client
    const original = client._runExclusiveQuery as (fn: unknown) => Promise<unknown>
    client._runExclusiveQuery = function (this: unknown, fn: unknown) {
      count++
      return original.call(this, fn)
    }
  }
  return () => count
}
