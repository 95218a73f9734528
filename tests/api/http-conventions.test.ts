import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineContract } from '../../domain/contract/define'
import { conflict } from '../../domain/errors'
import { ok, okPage } from '../../server/http/envelope'
import { implement } from '../../server/http/route'
import { allRoutes } from '../../server/http/routes'
import { createTestApp } from '../support/app'

const root = join(import.meta.dirname, '../..')

// Extra routes that exercise the conventions: validation, pagination, a deliberate domain error and a crash.
const probeRoutes = [
  implement(
    defineContract({
      method: 'post',
      path: '/public/probe/:id',
      summary: 'probe',
      tags: ['probe'],
      access: 'public',
      params: v.object({ id: v.pipe(v.string(), v.regex(/^\d+$/, 'The id must be digits.')) }),
      body: v.object({
        email: v.pipe(v.string('Required.'), v.email('error-mail')),
        person: v.object({ age: v.pipe(v.number(), v.minValue(20, 'Too young.')) }),
      }),
    }),
    (c, { params, body }) => ok(c, { id: params.id, email: body.email }),
  ),
  implement(
    defineContract({
      method: 'get',
      path: '/public/probe-page',
      summary: 'paged',
      tags: ['probe'],
      access: 'public',
      query: v.object({
        page: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '1'),
      }),
    }),
    (c, { query }) => okPage(c, ['a', 'b'], { page: query.page, perPage: 2, total: 7 }),
  ),
  implement(
    defineContract({
      method: 'get',
      path: '/public/probe-conflict',
      summary: 'conflict',
      tags: ['probe'],
      access: 'public',
    }),
    () => {
      throw conflict('applicationExist', 'An application is already open.')
    },
  ),
  implement(
    defineContract({
      method: 'get',
      path: '/public/probe-crash',
      summary: 'crash',
      tags: ['probe'],
      access: 'public',
    }),
    () => {
      throw new Error('connection string postgres://secret@db failed at /srv/app/internal.ts:12')
    },
  ),
]

describe('HTTP conventions of the /web API', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>
  beforeAll(async () => {
    t = await createTestApp({}, { routes: [...allRoutes, ...probeRoutes] })
  })
  afterAll(() => t.close())

  it('wraps data in the success/data/response envelope', async () => {
    const res = await t.request('/web/public/config/calculator')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/json')
    const body = await res.json()
    expect(body.success).toBe(true)
    expect(body.response).toEqual({ status: 200 })
    expect(body.data.amountLimits.minMainLoan).toBe(100_000)
  })

  it('answers an unknown /web path with a JSON 404 envelope', async () => {
    const res = await t.request('/web/nope')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({
      success: false,
      data: null,
      response: { status: 404, code: 'notFound', message: 'No such API endpoint.' },
    })
  })

  it('reports every invalid field as { propertyPath, message } with a 400, without echoing the input', async () => {
    const res = await t.request('/web/public/probe/x1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'juan.delacruz@', person: { age: 12 } }),
    })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.success).toBe(false)
    expect(body.response.code).toBe('validationError')
    expect(body.response.violations).toEqual(
      expect.arrayContaining([
        { propertyPath: 'params.id', message: 'The id must be digits.' },
        { propertyPath: 'email', message: 'error-mail' },
        { propertyPath: 'person.age', message: 'Too young.' },
      ]),
    )
    expect(JSON.stringify(body)).not.toContain('juan.delacruz')
  })

  it('refuses a body that is not JSON with a 400, not a 500', async () => {
    const res = await t.request('/web/public/probe/1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    })
    expect(res.status).toBe(400)
    expect((await res.json()).response.violations[0].message).toBe('The body is not valid JSON.')
  })

  it('accepts a valid body', async () => {
    const res = await t.request('/web/public/probe/42', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'maria@example.ph', person: { age: 30 } }),
    })
    expect(res.status).toBe(200)
    expect((await res.json()).data).toEqual({ id: '42', email: 'maria@example.ph' })
  })

  it('puts pagination in the x-* headers', async () => {
    const res = await t.request('/web/public/probe-page?page=3')
    expect(res.headers.get('x-page')).toBe('3')
    expect(res.headers.get('x-per-page')).toBe('2')
    expect(res.headers.get('x-total-count')).toBe('7')
    expect(res.headers.get('x-count')).toBe('2')
    expect((await res.json()).data).toEqual(['a', 'b'])
  })

  it('answers a deliberate domain error with its status and code', async () => {
    const res = await t.request('/web/public/probe-conflict')
    expect(res.status).toBe(409)
    expect((await res.json()).response).toEqual({
      status: 409,
      code: 'applicationExist',
      message: 'An application is already open.',
    })
  })

  it('answers a crash with a bare JSON 500: no stack, no internals', async () => {
    const res = await t.request('/web/public/probe-crash')
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({
      success: false,
      data: null,
      response: { status: 500, code: 'internalError', message: 'Internal server error.' },
    })
    expect(text).not.toMatch(/secret|internal\.ts|at /)
  })

  it('serves an OpenAPI 3.1 document generated from the route schemas', async () => {
    const res = await t.request('/web/openapi.json')
    const doc = await res.json()
    expect(doc.openapi).toBe('3.1.0')
    const calc = doc.paths['/web/public/config/calculator'].get
    expect(
      calc.responses['200'].content['application/json'].schema.properties.data.properties.amountLimits,
    ).toBeDefined()
    for (const { contract: route } of allRoutes) {
      const path = `/web${route.path.replace(/:(\w+)/g, '{$1}')}`
      expect(doc.paths[path]?.[route.method], `${route.method} ${path} in OpenAPI`).toBeDefined()
    }
  })
})

describe('request logging', () => {
  it('logs one structured line per request with the route pattern, never the concrete path or body', async () => {
    const t = await createTestApp()
    try {
      await t.request('/web/public/config/calculator', { headers: { authorization: 'Bearer abc.def.ghi' } })
      await t.request('/web/public/client/check/email/juan%40example.ph')
      const lines = t.logs().filter((l) => l.msg === 'request')
      expect(lines).toHaveLength(2)
      expect(lines[0]).toMatchObject({ method: 'GET', route: '/web/public/config/calculator', status: 200 })
      expect(typeof lines[0]!.ms).toBe('number')
      expect(typeof lines[0]!.requestId).toBe('string')
      expect(t.rawLogs()).not.toContain('juan')
      expect(t.rawLogs()).not.toContain('abc.def.ghi')
    } finally {
      await t.close()
    }
  })
})

describe('response headers', () => {
  // The envelope builds every answer with a plain header record (server/http/envelope.ts); a header set with
  // Hono's c.header() before it would be lost (setCookie/deleteCookie from hono/cookie call c.header()), and an
  // answer made with c.json() or c.body() would miss the request id and no-store.
  it('every answer is built by the envelope', () => {
    const files = readdirSync(join(root, 'server'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      // The envelope itself, and the web app's files (served outside /web, cached by their own rules).
      .filter((file) => !file.endsWith('envelope.ts') && !file.endsWith('spa.ts'))
    const offenders = files.filter((file) => {
      const source = readFileSync(join(root, 'server', file), 'utf8')
      return /\bc\.(header|json|body|text|html)\(|\b(setCookie|deleteCookie)\(/.test(source)
    })
    expect(offenders).toEqual([])
  })

  it('sends the request id and no-store with every answer', async () => {
    const t = await createTestApp()
    try {
      const answer = await t.request('/web/public/config/calculator', {
        headers: { 'x-request-id': 'req-1' },
      })
      expect(answer.headers.get('x-request-id')).toBe('req-1')
      expect(answer.headers.get('cache-control')).toBe('no-store')
      expect(answer.headers.get('content-type')).toBe('application/json')
    } finally {
      await t.close()
    }
  })
})
