/**
 * Read side of the reference data: payout institutions, classification lists, contact entries and the PSGC
 * address tree. Everything here is public and read-only.
 */
import { and, asc, eq } from 'drizzle-orm'
import * as v from 'valibot'
import {
  type Classification,
  type ClassificationLocale,
  type Contact,
  contactSchema,
  type GeoItem,
  type Institution,
  type InstitutionParent,
  institutionSchema,
} from '../../domain/reference'
import type { DbOrTx } from '../db/client'
import { classification, contact, institution, psgcArea } from '../db/schema'

const institutionList = v.array(institutionSchema)
const contactList = v.array(contactSchema)

/** Banks first, then e-wallets; within each, the seeded order (most used first), then name. */
export async function listInstitutions(db: DbOrTx, parent?: InstitutionParent): Promise<Institution[]> {
  const rows = await db
    .select({
      id: institution.id,
      code: institution.code,
      name: institution.name,
      parent: institution.parent,
    })
    .from(institution)
    .where(parent ? eq(institution.parent, parent) : undefined)
    .orderBy(asc(institution.parent), asc(institution.sortOrder), asc(institution.name))
  // The columns are plain text; parsing keeps a hand-edited row with a bad parent from reaching the app.
  return v.parse(institutionList, rows)
}

/** The code-to-label map in display order, or undefined when the list does not exist in that locale. */
export async function readClassification(
  db: DbOrTx,
  path: string,
  locale: ClassificationLocale,
): Promise<Classification | undefined> {
  const rows = await db
    .select({ code: classification.code, label: classification.label })
    .from(classification)
    .where(and(eq(classification.path, path), eq(classification.locale, locale)))
    .orderBy(asc(classification.sortOrder), asc(classification.code))
  if (!rows.length) return undefined
  // Insertion order is the display order as long as no code looks like an integer (JSON objects would
  // reorder those); every seeded code is a word.
  return Object.fromEntries(rows.map((row) => [row.code, row.label]))
}

export async function listContacts(db: DbOrTx): Promise<Contact[]> {
  const rows = await db
    .select({
      key: contact.key,
      kind: contact.kind,
      link: contact.link,
      display: contact.display,
      hours: contact.hours,
    })
    .from(contact)
    .orderBy(asc(contact.key))
  return v.parse(contactList, rows)
}

export interface GeoQuery {
  q?: string
  page: number
  perPage: number
}

export interface GeoPage {
  items: GeoItem[]
  total: number
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })
// Borrowers type "Paranaque" and "Las Pinas" without the tilde; folding both sides makes those match.
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()

/**
 * Filters, sorts and pages one sibling list. This runs in JS rather than SQL on purpose: a list is the
 * children of one parent (at most a few hundred rows), and JS gives the same natural, accent-folded order on
 * PGlite and PostgreSQL ("Barangay 2" before "Barangay 10", "Parañaque" among the P's), which the databases'
 * collations do not.
 */
function toPage(rows: GeoItem[], { q, page, perPage }: GeoQuery): GeoPage {
  const needle = q ? fold(q) : ''
  const matching = needle ? rows.filter((row) => fold(row.title).includes(needle)) : rows
  matching.sort((a, b) => collator.compare(a.title, b.title) || a.id.localeCompare(b.id))
  const start = (page - 1) * perPage
  return { items: matching.slice(start, start + perPage), total: matching.length }
}

const geoColumns = { id: psgcArea.code, title: psgcArea.name }

/** First select: the 18 regions. */
export async function listRegions(db: DbOrTx, query: GeoQuery): Promise<GeoPage> {
  const rows = await db.select(geoColumns).from(psgcArea).where(eq(psgcArea.level, 'region'))
  return toPage(rows, query)
}

/**
 * Second select ("city"): everything directly under the region, i.e. provinces and highly urbanised cities
 * plus the few municipalities with no province (Pateros, Isabela City, BARMM's Special Geographic Area). For
 * NCR that is its 16 cities and Pateros. Matching on the region code as well as the parent makes a province
 * id answer an empty list rather than its municipalities.
 */
export async function listRegionChildren(db: DbOrTx, regionId: string, query: GeoQuery): Promise<GeoPage> {
  const rows = await db
    .select(geoColumns)
    .from(psgcArea)
    .where(and(eq(psgcArea.parentCode, regionId), eq(psgcArea.regionCode, regionId)))
  return toPage(rows, query)
}

/**
 * Third select ("district"): the cities and municipalities of a province, the sub-municipalities of Manila,
 * or, for a city with no subdivisions (Quezon City, Cebu City, Pateros), that city itself so the borrower
 * can still go on to its barangays. Only ids the second select offers are answered.
 */
export async function listDistricts(db: DbOrTx, cityId: string, query: GeoQuery): Promise<GeoPage> {
  const [city] = await db
    .select({ ...geoColumns, level: psgcArea.level, parentCode: psgcArea.parentCode })
    .from(psgcArea)
    .where(and(eq(psgcArea.code, cityId), eq(psgcArea.parentCode, psgcArea.regionCode)))
  if (!city) return { items: [], total: 0 }
  const rows = await db
    .select(geoColumns)
    .from(psgcArea)
    .where(and(eq(psgcArea.parentCode, cityId), eq(psgcArea.level, 'muncity')))
  if (!rows.length && city.level !== 'province') rows.push({ id: city.id, title: city.title })
  return toPage(rows, query)
}

/** Fourth select ("ward"): the barangays of a city, municipality or Manila sub-municipality. */
export async function listWards(db: DbOrTx, districtId: string, query: GeoQuery): Promise<GeoPage> {
  const rows = await db
    .select(geoColumns)
    .from(psgcArea)
    .where(and(eq(psgcArea.parentCode, districtId), eq(psgcArea.level, 'barangay')))
  return toPage(rows, query)
}
