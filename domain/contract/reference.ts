/**
 * Reference data (spec section 7): payout institutions, classification lists, the footer's contact entries and
 * the PSGC address tree. Everything here is public and read-only; every list is answered in pages. The
 * calculator's configuration is in pricing.ts.
 */
import * as v from 'valibot'
import {
  classificationLocales,
  classificationSchema,
  contactSchema,
  geoItemSchema,
  institutionParents,
  institutionSchema,
  psgcCodePattern,
} from '../reference'
import { safeString } from '../safe-text'
import { defineContract } from './define'

/** A page number or page size in the query: a whole number from 1 up to `max`, `fallback` when absent. */
export const pageNumber = /* @__NO_SIDE_EFFECTS__ */ (fallback: string, max: number) =>
  v.optional(
    v.pipe(
      safeString(),
      v.regex(/^[1-9]\d{0,6}$/, 'Must be a whole number from 1.'),
      v.transform(Number),
      v.maxValue(max, `Must be at most ${max}.`),
    ),
    fallback,
  )

/** The query entries of a paged list (spread into a contract's query, next to its own filters). */
export const pagingQuery = /* @__NO_SIDE_EFFECTS__ */ (defaultPerPage: number, maxPerPage: number) => ({
  page: pageNumber('1', 1_000_000),
  perPage: pageNumber(String(defaultPerPage), maxPerPage),
})

/** Reference lists are short and edited by the operator: one page of up to 200 holds each of them whole. */
export const REFERENCE_PER_PAGE = 200

const referencePaging = v.object(pagingQuery(REFERENCE_PER_PAGE, REFERENCE_PER_PAGE))

const psgcCode = v.pipe(safeString(), v.regex(psgcCodePattern, 'Must be a 10-digit PSGC code.'))

/** Search and paging shared by the PSGC lists. A select shows at most 1000 options at once. */
const geoPaging = {
  q: v.optional(v.pipe(safeString(), v.trim(), v.maxLength(100, 'Must be at most 100 characters.'))),
  page: pageNumber('1', 1_000_000),
  perPage: pageNumber('500', 1000),
}
const geoList = v.array(geoItemSchema)
const institutionList = v.array(institutionSchema)

export const listBanks = defineContract({
  method: 'get',
  path: '/public/bank',
  summary: 'Every payout institution: banks (parent bank_account), then e-wallets (parent e-wallet)',
  tags: ['reference'],
  access: 'public',
  paginated: true,
  query: referencePaging,
  response: institutionList,
})

export const listInstitutions = defineContract({
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
  response: institutionList,
})

export const getClassification = defineContract({
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
})

export const listContacts = defineContract({
  method: 'get',
  path: '/public/contact',
  summary: 'Contact entries: cc, cc1 (customer care) and dc, dc1 (debt collection)',
  tags: ['reference'],
  access: 'public',
  paginated: true,
  query: referencePaging,
  response: v.array(contactSchema),
})

export const listRegions = defineContract({
  method: 'get',
  path: '/public/address/region',
  summary: 'PSGC regions, sorted by title',
  tags: ['address'],
  access: 'public',
  query: v.object(geoPaging),
  response: geoList,
  paginated: true,
})

export const listRegionCities = defineContract({
  method: 'get',
  path: '/public/address/region/:id/city',
  summary: 'Provinces and independent cities of a region (for NCR: its cities and Pateros)',
  tags: ['address'],
  access: 'public',
  params: v.object({ id: psgcCode }),
  query: v.object(geoPaging),
  response: geoList,
  paginated: true,
})

export const listCities = defineContract({
  method: 'get',
  path: '/public/address/city',
  summary: 'Same as /public/address/region/{id}/city, with the region in the query',
  tags: ['address'],
  access: 'public',
  query: v.object({ regionId: psgcCode, ...geoPaging }),
  response: geoList,
  paginated: true,
})

export const listDistricts = defineContract({
  method: 'get',
  path: '/public/address/district',
  summary:
    'Cities and municipalities of a province, districts of Manila, or the chosen city itself when undivided',
  tags: ['address'],
  access: 'public',
  query: v.object({ cityId: psgcCode, ...geoPaging }),
  response: geoList,
  paginated: true,
})

export const listWards = defineContract({
  method: 'get',
  path: '/public/address/ward',
  summary: 'Barangays of a city, municipality or Manila district',
  tags: ['address'],
  access: 'public',
  query: v.object({ districtId: psgcCode, ...geoPaging }),
  response: geoList,
  paginated: true,
})
