import type { Context } from 'hono'
import * as v from 'valibot'
import { getCalculatorConfig } from '../../../domain/contract/pricing'
import { notFound } from '../../../domain/errors'
import {
  classificationLocales,
  classificationSchema,
  contactSchema,
  geoItemSchema,
  institutionParents,
  institutionSchema,
  psgcCodePattern,
} from '../../../domain/reference'
import { safeString } from '../../../domain/safe-text'
import { lendingConfig } from '../../services/pricing'
import {
  type GeoPage,
  type GeoQuery,
  listContacts,
  listDistricts,
  listInstitutions,
  listRegionChildren,
  listRegions,
  listWards,
  readClassification,
} from '../../services/reference'
import type { AppEnv } from '../context'
import { ok, okPage } from '../envelope'
import { okSlice, pagingQuery, pagingSchema } from '../paging'
import { pageNumber } from '../params'
import { type AnyRoute, defineRoute, implement } from '../route'

/** Reference lists are short and edited by the operator: one page of up to 200 holds each of them whole. */
const REFERENCE_PER_PAGE = 200

const psgcCode = v.pipe(safeString(), v.regex(psgcCodePattern, 'Must be a 10-digit PSGC code.'))

/** Search and paging shared by the PSGC lists. A select shows at most 1000 options at once. */
const geoPaging = {
  q: v.optional(v.pipe(safeString(), v.trim(), v.maxLength(100, 'Must be at most 100 characters.'))),
  page: pageNumber('1', 1_000_000),
  perPage: pageNumber('500', 1000),
}

const geoList = v.array(geoItemSchema)

const answerPage = (c: Context<AppEnv>, result: GeoPage, query: GeoQuery) =>
  okPage(c, result.items, { page: query.page, perPage: query.perPage, total: result.total })

const db = (c: Context<AppEnv>) => c.get('deps').database.db

export const referenceRoutes: AnyRoute[] = [
  // The same cached read the offers are priced from: the limits a visitor sees and the prices agree, and
  // every page load does not cost a database query.
  implement(getCalculatorConfig, async (c) => ok(c, (await lendingConfig(db(c))).calculator)),

  defineRoute({
    method: 'get',
    path: '/public/bank',
    summary: 'Every payout institution: banks (parent bank_account), then e-wallets (parent e-wallet)',
    tags: ['reference'],
    access: 'public',
    paginated: true,
    query: pagingSchema(REFERENCE_PER_PAGE, REFERENCE_PER_PAGE),
    response: v.array(institutionSchema),
    handler: async (c, { query }) => okSlice(c, await listInstitutions(db(c)), query),
  }),

  defineRoute({
    method: 'get',
    path: '/public/list',
    summary: 'List lookup: the bank list (parent=bank_account) or the e-wallet list (parent=e-wallet)',
    tags: ['reference'],
    access: 'public',
    // Only the payments/banks lists exist; anything else is a client bug worth a 400 rather than an empty list.
    query: v.object({
      group: v.picklist(['payments'], 'Must be payments.'),
      name: v.picklist(['banks'], 'Must be banks.'),
      parent: v.picklist(institutionParents, `Must be one of ${institutionParents.join(', ')}.`),
      ...pagingQuery(REFERENCE_PER_PAGE, REFERENCE_PER_PAGE),
    }),
    paginated: true,
    response: v.array(institutionSchema),
    handler: async (c, { query }) => okSlice(c, await listInstitutions(db(c), query.parent), query),
  }),

  defineRoute({
    method: 'get',
    path: '/public/classification/:path',
    summary: 'One classification list as a { code: label } map, in display order',
    tags: ['reference'],
    access: 'public',
    params: v.object({
      path: v.pipe(
        safeString(),
        v.regex(/^[a-z][a-z0-9-]{0,63}$/, 'Must be a list name such as civil-status.'),
      ),
    }),
    query: v.object({
      locale: v.optional(
        v.picklist(classificationLocales, `Must be one of ${classificationLocales.join(', ')}.`),
        'en',
      ),
    }),
    response: classificationSchema,
    handler: async (c, { params, query }) => {
      const labels = await readClassification(db(c), params.path, query.locale)
      if (!labels) throw notFound('Classification')
      return ok(c, labels)
    },
  }),

  defineRoute({
    method: 'get',
    path: '/public/contact',
    summary: 'Contact entries: cc, cc1 (customer care) and dc, dc1 (debt collection)',
    tags: ['reference'],
    access: 'public',
    paginated: true,
    query: pagingSchema(REFERENCE_PER_PAGE, REFERENCE_PER_PAGE),
    response: v.array(contactSchema),
    handler: async (c, { query }) => okSlice(c, await listContacts(db(c)), query),
  }),

  defineRoute({
    method: 'get',
    path: '/public/address/region',
    summary: 'PSGC regions, sorted by title',
    tags: ['address'],
    access: 'public',
    query: v.object(geoPaging),
    response: geoList,
    paginated: true,
    handler: async (c, { query }) => answerPage(c, await listRegions(db(c), query), query),
  }),

  defineRoute({
    method: 'get',
    path: '/public/address/region/:id/city',
    summary: 'Provinces and independent cities of a region (for NCR: its cities and Pateros)',
    tags: ['address'],
    access: 'public',
    params: v.object({ id: psgcCode }),
    query: v.object(geoPaging),
    response: geoList,
    paginated: true,
    handler: async (c, { params, query }) =>
      answerPage(c, await listRegionChildren(db(c), params.id, query), query),
  }),

  defineRoute({
    method: 'get',
    path: '/public/address/city',
    summary: 'Same as /public/address/region/{id}/city, with the region in the query',
    tags: ['address'],
    access: 'public',
    query: v.object({ regionId: psgcCode, ...geoPaging }),
    response: geoList,
    paginated: true,
    handler: async (c, { query }) =>
      answerPage(c, await listRegionChildren(db(c), query.regionId, query), query),
  }),

  defineRoute({
    method: 'get',
    path: '/public/address/district',
    summary:
      'Cities and municipalities of a province, districts of Manila, or the chosen city itself when undivided',
    tags: ['address'],
    access: 'public',
    query: v.object({ cityId: psgcCode, ...geoPaging }),
    response: geoList,
    paginated: true,
    handler: async (c, { query }) => answerPage(c, await listDistricts(db(c), query.cityId, query), query),
  }),

  defineRoute({
    method: 'get',
    path: '/public/address/ward',
    summary: 'Barangays of a city, municipality or Manila district',
    tags: ['address'],
    access: 'public',
    query: v.object({ districtId: psgcCode, ...geoPaging }),
    response: geoList,
    paginated: true,
    handler: async (c, { query }) => answerPage(c, await listWards(db(c), query.districtId, query), query),
  }),
]
