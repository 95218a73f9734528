/**
 * Probes for an orchestrator (Kubernetes, a load balancer): liveness never looks at the database, readiness
 * asks it for `select 1`. (`GET /web/health`, older and outside the OpenAPI document, is served by the app.)
 */
import * as v from 'valibot'
import { defineContract } from './define'

export const getLiveness = defineContract({
  method: 'get',
  path: '/health/live',
  summary: 'Liveness: the process answers (never looks at the database)',
  tags: ['health'],
  access: 'public',
  response: v.object({ status: v.picklist(['ok']) }),
})

export const getReadiness = defineContract({
  method: 'get',
  path: '/health/ready',
  summary: 'Readiness: 200 when the database answers `select 1` in time, 503 serviceUnavailable otherwise',
  tags: ['health'],
  access: 'public',
  response: v.object({ status: v.picklist(['ok']), database: v.picklist(['pglite', 'postgres']) }),
})
