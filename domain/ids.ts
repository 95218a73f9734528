/**
 * Row ids as the API accepts them, range-checked to the column they are looked up in: an id beyond the column's
 * type (`bankId` 2147483648 against an `integer` column) used to reach PostgreSQL and come back as a 500, and a
 * bigint id beyond 2^53 loses digits in a JavaScript number. See docs/decisions/0002-api-conventions.md.
 */
import * as v from 'valibot'
import { safeString } from './safe-text'

/** `integer` / `serial` columns (reference tables such as institution). */
export const INT4_ID_MAX = 2_147_483_647
/** `bigint` identity columns read in mode 'number': exact up to 2^53 - 1. */
export const BIGINT_ID_MAX = Number.MAX_SAFE_INTEGER

const ID_MESSAGE = 'Must be a positive whole number.'

/** An id in a JSON body: a positive integer no larger than the column holds. */
export const idNumber = /* @__NO_SIDE_EFFECTS__ */ (max: number = BIGINT_ID_MAX, message = ID_MESSAGE) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(1, message), v.maxValue(max, message))

/** An id in a path or query string: decimal digits, no leading zero, as a number no larger than the column holds. */
export const idString = /* @__NO_SIDE_EFFECTS__ */ (max: number = BIGINT_ID_MAX, message = ID_MESSAGE) =>
  v.pipe(
    safeString(message),
    v.regex(/^[1-9]\d{0,15}$/, message),
    v.transform(Number),
    v.maxValue(max, message),
  )
