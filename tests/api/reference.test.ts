import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Classification, Contact, GeoItem, Institution } from '../../domain/reference'
import { classification, contact, institution, psgcArea } from '../../server/db/schema'
import { seedReferenceData } from '../../server/db/seed'
import { classificationLists } from '../../server/db/seed/classification'
import { buildPsgcAreas, loadPsgcDataset } from '../../server/db/seed/psgc'
import { createTestApp } from '../support/app'

let t: Awaited<ReturnType<typeof createTestApp>>

beforeAll(async () => {
  t = await createTestApp({ psgc: true })
})
afterAll(async () => {
  await t?.close()
})

const NCR = '1300000000'
const CENTRAL_VISAYAS = '0700000000'
const CEBU_PROVINCE = '0702200000'
const CEBU_CITY = '0730600000'
const MANILA = '1380600000'
const TONDO = '1380601000'
const QUEZON_CITY = '1381300000'
const PATEROS = '1381701000'
const ARGAO = '0702205000'

type Violations = { propertyPath: string; message: string }[]

async function geo(path: string) {
  const { res, body } = await t.json<GeoItem[]>(`/web${path}`)
  expect(res.status, path).toBe(200)
  const header = (name: string) => Number(res.headers.get(name))
  return {
    items: body.data,
    titles: body.data.map((item) => item.title),
    page: {
      page: header('x-page'),
      perPage: header('x-per-page'),
      total: header('x-total-count'),
      count: header('x-count'),
    },
  }
}

async function violations(path: string) {
  const { res, body } = await t.json<null>(`/web${path}`)
  expect(res.status, path).toBe(400)
  expect(body.success).toBe(false)
  expect(body.response.code).toBe('validationError')
  return (body.response.violations as Violations).map((v) => v.propertyPath)
}

const byTitle = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })
const isSorted = (titles: string[]) =>
  titles.every((title, i) => i === 0 || byTitle.compare(titles[i - 1]!, title) <= 0)

describe('GET /public/bank', () => {
  it('lists every bank, then every e-wallet, in seeded order', async () => {
    const { res, body } = await t.json<Institution[]>('/web/public/bank')
    expect(res.status).toBe(200)
    expect(body.success).toBe(true)
    const banks = body.data.filter((i) => i.parent === 'bank_account')
    const wallets = body.data.filter((i) => i.parent === 'e-wallet')
    expect(banks.length).toBeGreaterThanOrEqual(25)
    expect(wallets.map((w) => w.code)).toEqual([
      'gcash',
      'maya',
      'grabpay',
      'shopeepay',
      'coinsph',
      'palawanpay',
    ])
    expect(body.data.slice(0, banks.length)).toEqual(banks)
    expect(body.data[0]).toEqual({ id: 1, code: 'bdo', name: 'BDO Unibank', parent: 'bank_account' })
    expect(new Set(body.data.map((i) => i.id)).size).toBe(body.data.length)
  })
})

describe('GET /public/list', () => {
  it('answers the e-wallet list for parent=e-wallet', async () => {
    const { res, body } = await t.json<Institution[]>(
      '/web/public/list?group=payments&name=banks&parent=e-wallet',
    )
    expect(res.status).toBe(200)
    expect(body.data.every((i) => i.parent === 'e-wallet')).toBe(true)
    expect(body.data).toContainEqual({ id: 101, code: 'gcash', name: 'GCash', parent: 'e-wallet' })
    expect(body.data).toContainEqual({ id: 102, code: 'maya', name: 'Maya', parent: 'e-wallet' })
  })

  it('answers the bank list for parent=bank_account', async () => {
    const { body } = await t.json<Institution[]>(
      '/web/public/list?group=payments&name=banks&parent=bank_account',
    )
    const codes = body.data.map((i) => i.code)
    expect(codes).toEqual(
      expect.arrayContaining(['bdo', 'bpi', 'metrobank', 'landbank', 'gotyme', 'mayabank']),
    )
    expect(codes).not.toContain('gcash')
  })

  it('refuses unknown or missing group, name and parent', async () => {
    expect(await violations('/public/list?group=payments&name=banks&parent=crypto')).toEqual(['query.parent'])
    expect(await violations('/public/list?group=loans&name=cards&parent=e-wallet')).toEqual([
      'query.group',
      'query.name',
    ])
    expect(await violations('/public/list')).toEqual(['query.group', 'query.name', 'query.parent'])
  })
})

describe('GET /public/classification/:path', () => {
  it('answers a code-to-label map in display order', async () => {
    const { res, body } = await t.json<Classification>('/web/public/classification/civil-status')
    expect(res.status).toBe(200)
    expect(Object.keys(body.data)).toEqual([
      'single',
      'married',
      'widowed',
      'separated',
      'annulled',
      'live_in',
    ])
    expect(body.data.single).toBe('Single')
  })

  it('answers every seeded list, with locale=en the same as the default', async () => {
    for (const [path, labels] of Object.entries(classificationLists)) {
      const { body } = await t.json<Classification>(`/web/public/classification/${path}?locale=en`)
      expect(body.data, path).toEqual(labels)
      expect(Object.keys(body.data), path).toEqual(Object.keys(labels))
    }
    const { body } = await t.json<Classification>('/web/public/classification/id-document-type')
    expect(Object.keys(body.data)).toEqual(['SSS', 'UMID', 'PP', 'DL', 'POSTAL_ID', 'NATIONAL_ID'])
    expect(body.data.NATIONAL_ID).toMatch(/PhilSys/)
  })

  it('answers 404 for an unknown list', async () => {
    const { res, body } = await t.json<null>('/web/public/classification/shoe-size')
    expect(res.status).toBe(404)
    expect(body).toEqual({
      success: false,
      data: null,
      response: { status: 404, code: 'notFound', message: 'Classification not found.' },
    })
  })

  it('refuses an unsupported locale and a malformed path', async () => {
    expect(await violations('/public/classification/gender?locale=xx')).toEqual(['query.locale'])
    expect(await violations('/public/classification/Gender_List')).toEqual(['params.path'])
  })
})

describe('GET /public/contact', () => {
  it('answers the four contact entries', async () => {
    const { res, body } = await t.json<Contact[]>('/web/public/contact')
    expect(res.status).toBe(200)
    expect(body.data.map((c) => c.key)).toEqual(['cc', 'cc1', 'dc', 'dc1'])
    const [cc, cc1, dc, dc1] = body.data
    expect(cc).toMatchObject({ kind: 'tel', link: 'tel:+639171234567', display: '0917 123 4567' })
    expect(cc1).toMatchObject({ kind: 'email', link: 'mailto:care@hiram.ph', display: 'care@hiram.ph' })
    expect(dc?.kind).toBe('tel')
    expect(dc?.link).toMatch(/^tel:\+639\d{9}$/)
    expect(dc1).toMatchObject({ kind: 'email', link: 'mailto:collections@hiram.ph' })
    for (const entry of body.data) expect(entry.hours).toMatch(/AM to .* PM/)
  })
})

describe('GET /public/address/region', () => {
  it('lists the 18 regions sorted by title, with pagination headers', async () => {
    const { items, titles, page } = await geo('/public/address/region')
    expect(items).toHaveLength(18)
    expect(items).toContainEqual({ id: NCR, title: 'National Capital Region (NCR)' })
    expect(isSorted(titles)).toBe(true)
    expect(page).toEqual({ page: 1, perPage: 500, total: 18, count: 18 })
  })

  it('pages with page and perPage', async () => {
    const all = await geo('/public/address/region')
    const second = await geo('/public/address/region?page=2&perPage=5')
    expect(second.items).toEqual(all.items.slice(5, 10))
    expect(second.page).toEqual({ page: 2, perPage: 5, total: 18, count: 5 })
    const last = await geo('/public/address/region?page=4&perPage=5')
    expect(last.page).toEqual({ page: 4, perPage: 5, total: 18, count: 3 })
    const beyond = await geo('/public/address/region?page=9&perPage=5')
    expect(beyond.items).toEqual([])
    expect(beyond.page).toEqual({ page: 9, perPage: 5, total: 18, count: 0 })
  })

  it('filters by q, case-insensitively, anywhere in the title', async () => {
    const { titles, page } = await geo('/public/address/region?q=VISAYAS')
    expect(titles).toEqual([
      'Region VI (Western Visayas)',
      'Region VII (Central Visayas)',
      'Region VIII (Eastern Visayas)',
    ])
    expect(page.total).toBe(3)
  })

  it('refuses bad paging', async () => {
    expect(await violations('/public/address/region?perPage=1001')).toEqual(['query.perPage'])
    expect(await violations('/public/address/region?page=0')).toEqual(['query.page'])
    expect(await violations('/public/address/region?page=two&perPage=-1')).toEqual([
      'query.page',
      'query.perPage',
    ])
  })
})

describe('GET /public/address/region/:id/city and /public/address/city', () => {
  it('lists the cities of NCR and Pateros, which hang directly off the region', async () => {
    const { items, titles, page } = await geo(`/public/address/region/${NCR}/city`)
    expect(items).toHaveLength(17)
    expect(items).toContainEqual({ id: QUEZON_CITY, title: 'Quezon City' })
    expect(items).toContainEqual({ id: MANILA, title: 'City of Manila' })
    expect(items).toContainEqual({ id: PATEROS, title: 'Pateros' })
    expect(titles).not.toContain('Tondo I/II')
    expect(isSorted(titles)).toBe(true)
    expect(page).toEqual({ page: 1, perPage: 500, total: 17, count: 17 })
  })

  it('lists provinces and independent cities elsewhere', async () => {
    const { items } = await geo(`/public/address/region/${CENTRAL_VISAYAS}/city`)
    expect(items).toContainEqual({ id: CEBU_PROVINCE, title: 'Cebu' })
    expect(items).toContainEqual({ id: CEBU_CITY, title: 'City of Cebu' })
    expect(items.map((i) => i.title)).toContain('Bohol')
    expect(items.map((i) => i.title)).not.toContain('Argao')
  })

  it('answers the same by query', async () => {
    const byPath = await geo(`/public/address/region/${NCR}/city`)
    const byQuery = await geo(`/public/address/city?regionId=${NCR}`)
    expect(byQuery.items).toEqual(byPath.items)
    expect(byQuery.page).toEqual(byPath.page)
  })

  it('matches q without the tilde', async () => {
    const { titles } = await geo(`/public/address/city?regionId=${NCR}&q=paranaque`)
    expect(titles).toEqual(['City of Parañaque'])
  })

  it('answers an empty list for an unknown or non-region code', async () => {
    expect((await geo('/public/address/region/9900000000/city')).items).toEqual([])
    const province = await geo(`/public/address/city?regionId=${CEBU_PROVINCE}`)
    expect(province.items).toEqual([])
    expect(province.page).toEqual({ page: 1, perPage: 500, total: 0, count: 0 })
  })

  it('refuses a malformed id', async () => {
    expect(await violations('/public/address/region/13/city')).toEqual(['params.id'])
    expect(await violations('/public/address/city')).toEqual(['query.regionId'])
    expect(await violations('/public/address/city?regionId=13000000OO')).toEqual(['query.regionId'])
  })
})

describe('GET /public/address/district', () => {
  it('lists the cities and municipalities of a province', async () => {
    const { items, titles } = await geo(`/public/address/district?cityId=${CEBU_PROVINCE}`)
    expect(items).toHaveLength(50)
    expect(items).toContainEqual({ id: ARGAO, title: 'Argao' })
    expect(titles).toContain('City of Talisay')
    expect(titles).not.toContain('City of Cebu')
    expect(isSorted(titles)).toBe(true)
  })

  it('lists the districts of Manila', async () => {
    const { items, titles } = await geo(`/public/address/district?cityId=${MANILA}`)
    expect(items).toHaveLength(14)
    expect(items).toContainEqual({ id: TONDO, title: 'Tondo I/II' })
    expect(titles).toEqual(expect.arrayContaining(['Binondo', 'Ermita', 'Sampaloc', 'Port Area']))
  })

  it('answers an undivided city or municipality with itself', async () => {
    expect((await geo(`/public/address/district?cityId=${QUEZON_CITY}`)).items).toEqual([
      { id: QUEZON_CITY, title: 'Quezon City' },
    ])
    expect((await geo(`/public/address/district?cityId=${PATEROS}`)).items).toEqual([
      { id: PATEROS, title: 'Pateros' },
    ])
    expect((await geo(`/public/address/district?cityId=${CEBU_CITY}`)).items).toEqual([
      { id: CEBU_CITY, title: 'City of Cebu' },
    ])
  })

  it('answers an empty list for codes the city select never offers', async () => {
    expect((await geo(`/public/address/district?cityId=${NCR}`)).items).toEqual([])
    expect((await geo(`/public/address/district?cityId=${ARGAO}`)).items).toEqual([])
    expect((await geo('/public/address/district?cityId=0799900000')).items).toEqual([])
  })

  it('refuses a malformed id', async () => {
    expect(await violations('/public/address/district?cityId=cebu')).toEqual(['query.cityId'])
  })
})

describe('GET /public/address/ward', () => {
  it('lists the barangays of a municipality', async () => {
    const { items, page } = await geo(`/public/address/ward?districtId=${ARGAO}`)
    expect(items).toContainEqual({ id: '0702205035', title: 'Poblacion' })
    expect(items).toContainEqual({ id: '0702205001', title: 'Alambijud' })
    expect(page.total).toBe(45)
  })

  it('lists the barangays of an undivided city, with trimmed names', async () => {
    const { items } = await geo(`/public/address/ward?districtId=${CEBU_CITY}`)
    expect(items).toContainEqual({ id: '0730600041', title: 'Lahug' })
    expect(items).toContainEqual({ id: '0730600046', title: 'Mabolo' })
  })

  it('sorts numbered barangays naturally and pages through them', async () => {
    const first = await geo(`/public/address/ward?districtId=${TONDO}&perPage=3`)
    expect(first.titles).toEqual(['Barangay 1', 'Barangay 2', 'Barangay 3'])
    expect(first.page).toEqual({ page: 1, perPage: 3, total: 259, count: 3 })
    const all = await geo(`/public/address/ward?districtId=${TONDO}&perPage=1000`)
    expect(all.items).toHaveLength(259)
    expect(isSorted(all.titles)).toBe(true)
  })

  it('filters by q', async () => {
    const { titles } = await geo(`/public/address/ward?districtId=${QUEZON_CITY}&q=bagong`)
    expect(titles.length).toBeGreaterThan(1)
    for (const title of titles) expect(title.toLowerCase()).toContain('bagong')
  })

  it('answers an empty list for a city whose barangays belong to its districts, and for unknown codes', async () => {
    expect((await geo(`/public/address/ward?districtId=${MANILA}`)).items).toEqual([])
    expect((await geo('/public/address/ward?districtId=0000000000')).items).toEqual([])
  })

  it('refuses a malformed id', async () => {
    expect(await violations('/public/address/ward?districtId=07022050001')).toEqual(['query.districtId'])
  })
})

describe('OpenAPI', () => {
  it('documents the reference routes, with pagination headers on the PSGC lists', async () => {
    const { body } = (await t.json('/web/openapi.json')) as unknown as {
      body: { paths: Record<string, { get: { responses: { '200': { headers?: object } } } }> }
    }
    for (const path of [
      '/web/public/bank',
      '/web/public/list',
      '/web/public/classification/{path}',
      '/web/public/contact',
    ])
      expect(body.paths[path], path).toBeDefined()
    expect(body.paths['/web/public/address/region/{id}/city']?.get.responses['200'].headers).toHaveProperty(
      'x-total-count',
    )
  })
})

describe('PSGC mapping', () => {
  it('keeps every area of the dataset once, under an existing parent', async () => {
    const areas = buildPsgcAreas(loadPsgcDataset())
    const levels: Record<string, number> = {}
    for (const area of areas) levels[area.level] = (levels[area.level] ?? 0) + 1
    // The 33 highly urbanised cities are kept once though the source lists them twice.
    expect(levels).toEqual({ region: 18, province: 82, city: 33, muncity: 1623, barangay: 42011 })
    const [{ value }] = (await t.database.db.select({ value: count() }).from(psgcArea)) as [{ value: number }]
    expect(Number(value)).toBe(areas.length)
  })
})

describe('seeding', () => {
  const counts = async () => {
    const db = t.database.db
    const tally = async (
      table: typeof institution | typeof classification | typeof contact | typeof psgcArea,
    ) => Number((await db.select({ value: count() }).from(table))[0]?.value)
    return {
      institution: await tally(institution),
      classification: await tally(classification),
      contact: await tally(contact),
      psgcArea: await tally(psgcArea),
    }
  }

  it('inserts nothing twice and never overwrites an edited row, but restores a missing one', async () => {
    const db = t.database.db
    const before = await counts()
    await db.update(contact).set({ display: '0917 000 0000' }).where(eq(contact.key, 'cc'))
    await db.delete(psgcArea).where(eq(psgcArea.code, '0702205035'))

    await seedReferenceData(db, { psgc: true })

    expect(await counts()).toEqual(before)
    const [cc] = await db.select().from(contact).where(eq(contact.key, 'cc'))
    expect(cc?.display).toBe('0917 000 0000')
    const [poblacion] = await db.select().from(psgcArea).where(eq(psgcArea.code, '0702205035'))
    expect(poblacion).toMatchObject({ level: 'barangay', name: 'Poblacion', parentCode: ARGAO })

    await db.update(contact).set({ display: '0917 123 4567' }).where(eq(contact.key, 'cc'))
  })
})
