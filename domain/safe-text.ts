/**
 * Text that PostgreSQL can store. A `text` or `jsonb` value refuses the NUL character (U+0000), and a string
 * holding an unpaired UTF-16 surrogate (`"a\ud800"`) cannot be encoded as UTF-8: either one used to reach the
 * database through a field whose shape was valid and came back as a 500. Every string an API route accepts
 * starts from `safeString` (docs/decisions/0002-api-conventions.md), so such input is a 400 on its field, and
 * the forms, which use the same schemas, say so on the field too.
 */
import * as v from 'valibot'

export const UNSAFE_TEXT_MESSAGE = 'Must not contain control characters or broken (unpaired) surrogates.'

/** C0 and C1 control characters and DEL; tab, line feed and carriage return are allowed in multi-line text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/
/**
 * A high surrogate not followed by a low one, or a low one not preceded by a high one. A regex rather than
 * String.prototype.isWellFormed, which older phone browsers lack (the forms run this schema too).
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/

/**
 * True when the text holds no control characters (except tab and line breaks in multi-line text) and is
 * well-formed UTF-16 (every surrogate paired), so it encodes to UTF-8 and PostgreSQL stores it.
 */
export function isSafeText(value: string, multiline = false): boolean {
  return !(multiline ? CONTROL_EXCEPT_LINES : CONTROL).test(value) && !LONE_SURROGATE.test(value)
}

/** A single-line string (names, e-mails, codes, ids in the path, query values, marketing fields). */
// Pure: a bundler may drop a schema nobody uses (docs/decisions/0023-one-contract.md).
export const safeString = /* @__NO_SIDE_EFFECTS__ */ (message?: string) =>
  v.pipe(
    v.string(message),
    v.check((value) => isSafeText(value), UNSAFE_TEXT_MESSAGE),
  )

/** Free text that may hold tabs and line breaks (a back-office reason, a note). */
export const safeMultilineString = /* @__NO_SIDE_EFFECTS__ */ (message?: string) =>
  v.pipe(
    v.string(message),
    v.check((value) => isSafeText(value, true), UNSAFE_TEXT_MESSAGE),
  )

/**
 * The dotted paths of every value in decoded input that no route may receive whatever its schema says: a string
 * or an object key that is not safe multi-line text, or a number JSON.parse turned into Infinity (`1e400`).
 * The route layer refuses these before a schema runs, so a route whose schema forgot `safeString` (a
 * `v.unknown()` config value, a record's keys) still cannot pass them on to the database.
 */
export function unsafeValuePaths(value: unknown, path = '', found: string[] = [], depth = 0): string[] {
  if (found.length >= 20) return found
  if (typeof value === 'string') {
    if (!isSafeText(value, true)) found.push(path)
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) found.push(path)
  } else if (value !== null && typeof value === 'object' && depth < 64) {
    for (const [key, inner] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key
      if (!isSafeText(key, true)) found.push(path)
      else unsafeValuePaths(inner, at, found, depth + 1)
    }
  }
  return found
}

/**
 * A calendar day YYYY-MM-DD that exists (2026-02-30 is refused, not rolled over) and is not before 2000: what a
 * date filter or a promised day may be. One definition, so no route passes an impossible day to the date code
 * (domain/pricing/manila-date.ts throws on one, which was a 500 before).
 */
export const calendarDaySchema = /* @__NO_SIDE_EFFECTS__ */ () =>
  v.pipe(
    safeString(),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is YYYY-MM-DD.'),
    v.check((day) => {
      const at = new Date(`${day}T00:00:00Z`)
      return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day && day >= '2000-01-01'
    }, 'Not a calendar date.'),
  )
