/**
 * Checks of an API answer against its contract (docs/decisions/0023-one-contract.md), for the API tests that
 * call every operation of an area: which exports of a contract module are contracts, and which fields of an
 * answer its response schema does not name (valibot's objects drop unnamed keys silently, so a schema that
 * forgot a field would still parse).
 */
import type * as v from 'valibot'
import type { AnyContract } from '../../domain/contract/define'

/** An export of a contract module that is a contract (the modules also export schemas and types). */
export const isContract = (value: unknown): value is AnyContract =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value

/** The contracts a module exports. */
export const contractsOf = (module: Record<string, unknown>): AnyContract[] =>
  Object.values(module).filter(isContract)

export type Schema = v.GenericSchema & {
  type: string
  entries?: Record<string, Schema>
  item?: Schema
  wrapped?: Schema
  options?: Schema[]
  pipe?: Schema[]
}

/** The dotted paths of the object keys in `data` that `schema` does not name (a record names any key). */
export function unnamedKeys(schema: Schema, data: unknown, at = ''): string[] {
  if (data === null || data === undefined || typeof data !== 'object') return []
  const inner = schema.pipe?.[0] ?? schema
  switch (inner.type) {
    case 'nullable':
    case 'optional':
    case 'nullish':
      return unnamedKeys(inner.wrapped!, data, at)
    case 'array':
      return (data as unknown[]).flatMap((item, i) => unnamedKeys(inner.item!, item, `${at}[${i}]`))
    case 'union':
    case 'intersect': {
      // A union answers as its closest option; an intersection names what any of its parts names.
      const misses = inner.options!.map((option) => unnamedKeys(option, data, at))
      return inner.type === 'union'
        ? misses.reduce((closest, m) => (m.length < closest.length ? m : closest))
        : misses.reduce((common, m) => common.filter((path) => m.includes(path)))
    }
    case 'object':
    case 'loose_object':
    case 'strict_object': {
      const entries = inner.entries!
      return Object.entries(data).flatMap(([key, value]) =>
        key in entries ? unnamedKeys(entries[key]!, value, `${at}.${key}`) : [`${at}.${key}`],
      )
    }
    default:
      return []
  }
}
