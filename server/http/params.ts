/** Query and path parameter schemas shared by several resources. */
import * as v from 'valibot'
import { safeString } from '../../domain/safe-text'

/** A page number or page size from the query string: a whole number from 1 up to `max`, `fallback` when absent. */
export const pageNumber = (fallback: string, max: number) =>
  v.optional(
    v.pipe(
      safeString(),
      v.regex(/^[1-9]\d{0,6}$/, 'Must be a whole number from 1.'),
      v.transform(Number),
      v.maxValue(max, `Must be at most ${max}.`),
    ),
    fallback,
  )
