/**
 * Probes for an orchestrator (Kubernetes, a load balancer). Liveness says the process answers HTTP at all, so it
 * never touches the database: restarting a healthy process because PostgreSQL is down would only add a cold start
 * to the outage. Readiness says whether requests can be served now, so it asks the database for `select 1`.
 * (`GET /web/health`, older and outside the OpenAPI document, stays in app.ts: Playwright waits on it.)
 */
import { sql } from 'drizzle-orm'
import * as v from 'valibot'
import { DomainError } from '../../../domain/errors'
import { errorForLog } from '../../db/errors'
import { ok } from '../envelope'
import { type AnyRoute, defineRoute } from '../route'

/** Longer than a healthy `select 1` under load, shorter than a probe's usual 1 s to 5 s timeout. */
export const READY_TIMEOUT_MS = 1500

class ProbeTimeout extends Error {
  override name = 'ProbeTimeout'
  readonly code = 'ETIMEDOUT'
}

/** Resolves when `select 1` answers, rejects when it fails or takes longer than `ms`. */
async function selectOne(run: () => Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout('database probe timed out')), ms)
  })
  // The query may still finish after the timeout; nobody waits for it, and its failure must not go unhandled.
  const query = run()
  query.catch(() => {})
  try {
    await Promise.race([query, timeout])
  } finally {
    clearTimeout(timer)
  }
}

const status = v.object({ status: v.picklist(['ok']), database: v.picklist(['pglite', 'postgres']) })

export const healthRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/health/live',
    summary: 'Liveness: the process answers (never looks at the database)',
    tags: ['health'],
    access: 'public',
    response: v.object({ status: v.picklist(['ok']) }),
    handler: (c) => ok(c, { status: 'ok' as const }),
  }),

  defineRoute({
    method: 'get',
    path: '/health/ready',
    summary: 'Readiness: 200 when the database answers `select 1` in time, 503 serviceUnavailable otherwise',
    tags: ['health'],
    access: 'public',
    response: status,
    handler: async (c) => {
      const { database, logger } = c.get('deps')
      try {
        await selectOne(() => database.db.execute(sql`select 1`), READY_TIMEOUT_MS)
      } catch (error) {
        logger.warn(
          { requestId: c.get('requestId'), err: errorForLog(error) },
          'readiness: database unavailable',
        )
        throw new DomainError('unavailable', 'serviceUnavailable', 'The database is not available.')
      }
      return ok(c, { status: 'ok' as const, database: database.kind })
    },
  }),
]
