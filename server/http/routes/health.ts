/**
 * Probes for an orchestrator (Kubernetes, a load balancer). Liveness says the process answers HTTP at all, so it
 * never touches the database: restarting a healthy process because PostgreSQL is down would only add a cold start
 * to the outage. Readiness says whether requests can be served now, so it asks the database for `select 1`.
 * (`GET /web/health`, older and outside the OpenAPI document, stays in app.ts: Playwright waits on it.)
 */
import { getLiveness, getReadiness } from '../../../domain/contract/health'
import { unavailable } from '../../../domain/errors'
import { errorForLog } from '../../db/errors'
import { pingDatabase } from '../../services/health'
import { ok } from '../envelope'
import { deps } from '../request'
import { type AnyRoute, implement } from '../route'

export const healthRoutes: AnyRoute[] = [
  implement(getLiveness, (c) => ok(c, { status: 'ok' })),

  implement(getReadiness, async (c) => {
    const { database, logger } = deps(c)
    try {
      await pingDatabase(database)
    } catch (error) {
      logger.warn(
        { requestId: c.get('requestId'), err: errorForLog(error) },
        'readiness: database unavailable',
      )
      throw unavailable('serviceUnavailable', 'The database is not available.')
    }
    return ok(c, { status: 'ok', database: database.kind })
  }),
]
