/**
 * Reference data: domain/contract/reference.ts over server/services/reference.ts, and the calculator's
 * configuration (domain/contract/pricing.ts).
 */
import type { Context } from 'hono'
import { getCalculatorConfig } from '../../../domain/contract/pricing'
import {
  getClassification,
  listBanks,
  listCities,
  listContacts,
  listDistricts,
  listInstitutions,
  listRegionCities,
  listRegions,
  listWards,
} from '../../../domain/contract/reference'
import { notFound } from '../../../domain/errors'
import { lendingConfig } from '../../services/pricing'
import {
  listContacts as contactsOf,
  listDistricts as districtsOf,
  type GeoPage,
  type GeoQuery,
  listInstitutions as institutionsOf,
  listRegionChildren,
  readClassification,
  listRegions as regionsOf,
  listWards as wardsOf,
} from '../../services/reference'
import type { AppEnv } from '../context'
import { ok, okPage } from '../envelope'
import { okSlice } from '../paging'
import { db } from '../request'
import { type AnyRoute, implement } from '../route'

const answerPage = (c: Context<AppEnv>, result: GeoPage, query: GeoQuery) =>
  okPage(c, result.items, { page: query.page, perPage: query.perPage, total: result.total })

export const referenceRoutes: AnyRoute[] = [
  // The same cached read the offers are priced from: the limits a visitor sees and the prices agree, and
  // every page load does not cost a database query.
  implement(getCalculatorConfig, async (c) => ok(c, (await lendingConfig(db(c))).calculator)),

  implement(listBanks, async (c, { query }) => okSlice(c, await institutionsOf(db(c)), query)),

  implement(listInstitutions, async (c, { query }) =>
    okSlice(c, await institutionsOf(db(c), query.parent), query),
  ),

  implement(getClassification, async (c, { params, query }) => {
    const labels = await readClassification(db(c), params.path, query.locale)
    if (!labels) throw notFound('Classification')
    return ok(c, labels)
  }),

  implement(listContacts, async (c, { query }) => okSlice(c, await contactsOf(db(c)), query)),

  implement(listRegions, async (c, { query }) => answerPage(c, await regionsOf(db(c), query), query)),

  implement(listRegionCities, async (c, { params, query }) =>
    answerPage(c, await listRegionChildren(db(c), params.id, query), query),
  ),

  implement(listCities, async (c, { query }) =>
    answerPage(c, await listRegionChildren(db(c), query.regionId, query), query),
  ),

  implement(listDistricts, async (c, { query }) =>
    answerPage(c, await districtsOf(db(c), query.cityId, query), query),
  ),

  implement(listWards, async (c, { query }) =>
    answerPage(c, await wardsOf(db(c), query.districtId, query), query),
  ),
]
