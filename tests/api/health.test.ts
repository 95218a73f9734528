/**
 * The orchestrator probes in-process, on the test database (PGlite, or PostgreSQL with DATABASE_URL): both are
 * OpenAPI routes, liveness never touches the database, readiness answers 503 when `select 1` fails or hangs. tests/api/db-resilience.test.ts does the same against a
 * real PostgreSQL that refuses connections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../server/http/app'
import { READY_TIMEOUT_MS } from '../../server/services/health'
import { createTestApp } from '../support/app'

type TestApp = Awaited<ReturnType<typeof createTestApp>>

describe('health probes', () => {
  let t: TestApp
  // Building the app costs a PGlite image: slow on a loaded machine.
  beforeAll(async () => {
    t = await createTestApp()
  }, 120_000)
  afterAll(() => t.close())

  it('are described in /web/openapi.json, beside the older /web/health', async () => {
    const doc = (await (await t.request('/web/openapi.json')).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/web/health/live', '/web/health/ready']))
    expect((await t.request('/web/health')).status).toBe(200)
  })

  it('answer 200 with a working database', async () => {
    const live = await t.json('/web/health/live')
    expect(live.res.status).toBe(200)
    expect(live.body.data).toEqual({ status: 'ok' })
    const ready = await t.json('/web/health/ready')
    expect(ready.res.status).toBe(200)
    expect(ready.body.data).toEqual({ status: 'ok', database: t.deps.database.kind })
  })

  it('readiness is 503 when the database fails or does not answer in time; liveness stays 200', async () => {
    const failing = {
      ...t.deps.database,
      db: { execute: () => Promise.reject(new Error('connect ECONNREFUSED')) },
    }
    const hanging = { ...t.deps.database, db: { execute: () => new Promise(() => {}) } }
    for (const database of [failing, hanging]) {
      const app = createApp({ ...t.deps, database: database as unknown as typeof t.deps.database })
      const started = Date.now()
      const ready = await app.request('/web/health/ready')
      expect(ready.status).toBe(503)
      expect(await ready.json()).toMatchObject({
        success: false,
        response: { status: 503, code: 'serviceUnavailable' },
      })
      expect(Date.now() - started).toBeLessThan(READY_TIMEOUT_MS + 1000)
      expect((await app.request('/web/health/live')).status).toBe(200)
    }
    // The failure is logged by class and code only.
    expect(t.rawLogs()).toContain('readiness: database unavailable')
    expect(t.rawLogs()).not.toContain('ECONNREFUSED')
  })
})
