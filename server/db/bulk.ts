/**
 * Set-based inserts for batches (server/services/payments/batch-posting.ts): every row goes in ONE parameter, a
 * JSON array read with `jsonb_to_recordset`, instead of drizzle's multi-row VALUES with a parameter per cell.
 * Building and binding hundreds of parameters cost more CPU than the insert itself (drizzle's query builder and
 * PGlite's bind were a fifth of a batch). Rows are inserted in the array's order, so identity ids follow it (a
 * ledger's entries keep the order they were booked in).
 */
import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from './client'

/** A column and its PostgreSQL type, as the recordset reads it (timestamps: ISO strings). */
export type BulkColumn = readonly [name: string, type: string]

const identifier = /^[a-z_][a-z0-9_]*$/
const typeName = /^[a-z0-9_ ]+$/

function checked(table: string, columns: readonly BulkColumn[]) {
  if (!identifier.test(table)) throw new Error(`bad bulk table ${table}`)
  for (const [name, type] of columns)
    if (!identifier.test(name) || !typeName.test(type)) throw new Error(`bad bulk column ${name} ${type}`)
}

/** `rows from (jsonb_to_recordset(<rows>)) with ordinality as r(columns..., ord)`: the rows, one parameter. */
export function recordset(columns: readonly BulkColumn[], rows: readonly Record<string, unknown>[]): SQL {
  checked('r', columns)
  const names = columns.map(([name]) => name).join(', ')
  const definitions = columns.map(([name, type]) => `${name} ${type}`).join(', ')
  const json = JSON.stringify(
    rows.map((row) => Object.fromEntries(columns.map(([name]) => [name, row[name] ?? null]))),
  )
  return sql`rows from (jsonb_to_recordset(${json}::jsonb) as (${sql.raw(definitions)})) with ordinality as r(${sql.raw(names)}, ord)`
}

/**
 * `insert into table (columns) select ... from the rows, in order` plus `tail` (on conflict, returning). Table
 * and column names are the caller's constants, never input.
 */
export function insertSql(
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly Record<string, unknown>[],
  tail: SQL = sql``,
): SQL {
  checked(table, columns)
  const names = sql.raw(columns.map(([name]) => name).join(', '))
  return sql`insert into ${sql.raw(table)} (${names}) select ${names} from ${recordset(columns, rows)} order by ord ${tail}`
}

/** `insertSql` run; answers the returned rows (none for no rows). */
export async function insertRows<T = Record<string, unknown>>(
  db: DbOrTx,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly Record<string, unknown>[],
  tail: SQL = sql``,
): Promise<T[]> {
  if (!rows.length) return []
  const result = (await db.execute(insertSql(table, columns, rows, tail))) as unknown as { rows: T[] }
  return result.rows
}
