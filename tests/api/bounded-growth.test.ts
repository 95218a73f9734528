/**
 * Issue 13, item 8: nothing a client does grows without bound. Supporting documents are replaced per type (old
 * file removed after the commit) and capped in number of types; every list the API answers is a page, with the
 * x-page, x-per-page, x-total-count and x-count headers and a largest page size, found from /web/openapi.json so a
 * new list route is covered without anyone writing a case.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uploadedFile } from '../../server/db/schema-journey'
import { MAX_SUPPORTING_TYPES } from '../../server/services/journey/uploads'
import { createTestApp } from '../support/app'
import { call, type SignedUp, type TestApp } from './identity-helpers'
import { JPEG, NCR, PDF, PNG, QUEZON_CITY, seedSmallPsgc, upload } from './journey-helpers'
import { adminToken, apply, expectStatus, readyClient, runJobs } from './lending-helpers'

let t: TestApp
let c: SignedUp
let admin: string

beforeAll(async () => {
  t = await createTestApp()
  await seedSmallPsgc(t)
  c = await readyClient(t)
  admin = await adminToken(t)
  // An approved application with its documents rendered, so the document lists are not empty.
  await expectStatus(apply(t, c), 201)
  await runJobs(t)
  await expectStatus(call(t, 'POST', '/private/client/render/document', {}, { token: c.token }), 201)
}, 240_000)
afterAll(() => t?.close())

const liveDocuments = () =>
  t.database.db
    .select()
    .from(uploadedFile)
    .where(and(eq(uploadedFile.clientId, c.clientId), isNull(uploadedFile.deletedAt)))

describe('supporting documents are replaced, not accumulated', () => {
  it('a second upload of a type replaces the first: one row, the old file gone from disk', async () => {
    const first = await upload(t, '/private/client/document/upload', c.token, { type: 'payslip', file: PNG })
    expect(first.status).toBe(201)
    expect(first.body.data).toMatchObject({ replaced: false })
    const [before] = (await liveDocuments()).filter((r) => r.kind === 'payslip')
    const oldFile = join(t.deps.uploadsDir, before!.storageName)
    expect(existsSync(oldFile)).toBe(true)

    const second = await upload(t, '/private/client/document/upload', c.token, { type: 'payslip', file: PDF })
    expect(second.status).toBe(201)
    expect(second.body.data).toMatchObject({ replaced: true, mime: 'application/pdf' })
    const payslips = (await liveDocuments()).filter((r) => r.kind === 'payslip')
    expect(payslips).toHaveLength(1)
    expect(payslips[0]!.mime).toBe('application/pdf')
    expect(existsSync(oldFile)).toBe(false)
    expect(existsSync(join(t.deps.uploadsDir, payslips[0]!.storageName))).toBe(true)

    // Ten parallel uploads of one type leave one live file and one file on disk.
    await Promise.all(
      Array.from({ length: 10 }, () =>
        upload(t, '/private/client/bank-statement/upload', c.token, { file: PDF }),
      ),
    )
    const statements = (await liveDocuments()).filter((r) => r.category === 'bank_statement')
    expect(statements).toHaveLength(1)
  })

  it(`at most ${MAX_SUPPORTING_TYPES} types are kept; a type already kept can still be replaced`, async () => {
    const kept = new Set(
      (await liveDocuments()).filter((r) => r.category !== 'id_document').map((r) => r.kind),
    )
    for (let i = 0; kept.size < MAX_SUPPORTING_TYPES; i++) {
      const type = `extra_${String.fromCharCode(97 + i)}`
      expect((await upload(t, '/private/client/document/upload', c.token, { type, file: JPEG })).status).toBe(
        201,
      )
      kept.add(type)
    }
    const over = await upload(t, '/private/client/document/upload', c.token, { type: 'one_more', file: JPEG })
    expect([over.status, over.body.response.code]).toEqual([422, 'documentLimit'])
    expect(over.body.response.violations).toEqual([{ propertyPath: 'type', message: 'documentLimit' }])
    const again = await upload(t, '/private/client/document/upload', c.token, { type: 'payslip', file: PNG })
    expect(again.status).toBe(201)
    expect((await liveDocuments()).filter((r) => r.category !== 'id_document')).toHaveLength(
      MAX_SUPPORTING_TYPES,
    )
  })
})

interface Operation {
  path: string
  parameters?: { in: string; name: string; required?: boolean }[]
}

/** Values for the path and query parameters the GET operations declare (unknown ones fail the test). */
const samples = (): Record<string, string> => ({
  id: '1',
  type: 'loan_agreement',
  path: 'gender',
  key: 'phone',
  value: c.phone,
  sequence_type: 'new',
  amount: '500000',
  term: '14',
  regionId: NCR,
  cityId: QUEZON_CITY,
  districtId: QUEZON_CITY,
  group: 'payments',
  name: 'banks',
  parent: 'bank_account',
})

function urlOf(op: Operation, extra: Record<string, string> = {}) {
  const values = samples()
  let path = op.path.replace(/^\/web/, '')
  const query = new URLSearchParams()
  for (const p of op.parameters ?? []) {
    if (p.in === 'path') path = path.replace(`{${p.name}}`, values[p.name] ?? 'x')
    else if (p.in === 'query' && p.required) query.set(p.name, values[p.name] ?? 'x')
  }
  for (const [k, v] of Object.entries(extra)) query.set(k, v)
  const qs = query.toString()
  return qs ? `${path}?${qs}` : path
}

const tokenFor = (path: string) =>
  path.startsWith('/web/private/back-office') ? admin : path.startsWith('/web/private/') ? c.token : undefined

describe('every list the API answers is a bounded page', () => {
  it('GET operations answering an array carry the paging headers, honour perPage and refuse a huge one', async () => {
    const spec = (await (await t.request('/web/openapi.json')).json()) as {
      paths: Record<
        string,
        { get?: Omit<Operation, 'path'> & { responses: { '200': { headers?: Record<string, unknown> } } } }
      >
    }
    const lists: string[] = []
    for (const [path, ops] of Object.entries(spec.paths)) {
      if (!ops.get) continue
      const op: Operation = { path, ...ops.get }
      const token = tokenFor(path)
      const probe = await t.request(`/web${urlOf(op)}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      })
      // Files (PDFs, photos) and failures are not lists.
      if (probe.status !== 200 || !probe.headers.get('content-type')?.startsWith('application/json')) continue
      const answer = await call<unknown>(t, 'GET', urlOf(op), undefined, { token })
      if (!Array.isArray(answer.body.data)) continue
      lists.push(path)
      const h = (name: string) => answer.res.headers.get(name)
      const items = answer.body.data as unknown[]
      expect(h('x-page'), `${path} x-page`).toBe('1')
      expect(Number(h('x-count')), `${path} x-count`).toBe(items.length)
      expect(Number(h('x-per-page')), `${path} x-per-page`).toBeGreaterThanOrEqual(items.length)
      expect(Number(h('x-total-count')), `${path} x-total-count`).toBeGreaterThanOrEqual(items.length)
      expect(ops.get.responses['200'].headers, `${path} documents its paging headers`).toHaveProperty(
        'x-total-count',
      )
      const declared = (op.parameters ?? []).map((p) => p.name)
      expect(declared, `${path} declares page and perPage`).toEqual(
        expect.arrayContaining(['page', 'perPage']),
      )
      const huge = await call(t, 'GET', urlOf(op, { perPage: '100000' }), undefined, { token })
      expect(huge.status, `${path} perPage=100000`).toBe(400)
      const one = await call<unknown[]>(t, 'GET', urlOf(op, { perPage: '1' }), undefined, { token })
      expect(one.body.data.length, `${path} perPage=1`).toBeLessThanOrEqual(1)
      expect(one.res.headers.get('x-total-count'), `${path} total with perPage=1`).toBe(h('x-total-count'))
    }
    // The lists the web app reads, and those this test would not see if a sample broke.
    expect(lists).toEqual(
      expect.arrayContaining([
        '/web/public/bank',
        '/web/public/list',
        '/web/public/contact',
        '/web/private/client/disbursement-type',
        '/web/private/client/document',
        '/web/private/client/document/list',
        '/web/private/back-office/review-queue',
        '/web/private/back-office/outbox',
        '/web/public/address/region',
      ]),
    )
  })

  it('without paging parameters a list answers as before: the whole bank list, both loan documents', async () => {
    const banks = await call<unknown[]>(
      t,
      'GET',
      '/public/list?group=payments&name=banks&parent=bank_account',
    )
    expect(banks.body.data.length).toBeGreaterThan(10)
    expect(banks.res.headers.get('x-total-count')).toBe(String(banks.body.data.length))
    const docs = await call<{ type: string }[]>(t, 'GET', '/private/client/document/list', undefined, {
      token: c.token,
    })
    expect(docs.body.data.map((d) => d.type).sort()).toEqual(['disclosure_statement', 'loan_agreement'])
    const second = await call<unknown[]>(
      t,
      'GET',
      '/private/client/document/list?perPage=1&page=2',
      undefined,
      {
        token: c.token,
      },
    )
    expect([second.body.data.length, second.res.headers.get('x-page')]).toEqual([1, '2'])
  })
})
