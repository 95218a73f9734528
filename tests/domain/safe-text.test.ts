import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { BIGINT_ID_MAX, INT4_ID_MAX, idNumber, idString } from '../../domain/ids'
import {
  isSafeText,
  safeMultilineString,
  safeString,
  UNSAFE_TEXT_MESSAGE,
  unsafeValuePaths,
} from '../../domain/safe-text'

describe('safe text', () => {
  it('accepts ordinary text in any script, emoji (paired surrogates) included', () => {
    for (const text of ['', 'Juan Dela Cruz', 'Ñiño', 'ア', '😀 ok', 'a\u00a0b', '𝔘𝔫𝔦'])
      expect(isSafeText(text), text).toBe(true)
  })

  it('refuses NUL, C0 and C1 control characters and DEL', () => {
    for (const text of ['a\u0000b', '\u0001', 'x\u001b[31m', '\u007f', 'a\u0085', '\u009f'])
      expect(isSafeText(text), JSON.stringify(text)).toBe(false)
  })

  it('allows tabs and line breaks only in multi-line text', () => {
    expect(isSafeText('a\nb\tc\r\n')).toBe(false)
    expect(isSafeText('a\nb\tc\r\n', true)).toBe(true)
    expect(isSafeText('a\u0000\n', true)).toBe(false)
  })

  it('refuses unpaired surrogates wherever they stand', () => {
    for (const text of [
      'a\ud800',
      '\ud800',
      '\udc00z',
      'x\udc00',
      '\ud800\ud800',
      '\udc00\ud800',
      '😀\udc00',
    ])
      expect(isSafeText(text), JSON.stringify(text)).toBe(false)
  })

  it('answers the violation on the field, with the same message in the forms and the API', () => {
    const schema = v.object({ name: v.pipe(safeString('required'), v.trim(), v.nonEmpty('required')) })
    const result = v.safeParse(schema, { name: 'Juan\u0000' })
    expect(result.success).toBe(false)
    expect(result.issues?.[0]?.message).toBe(UNSAFE_TEXT_MESSAGE)
    expect(v.getDotPath(result.issues![0]!)).toBe('name')
    expect(v.safeParse(safeString('required'), 1).issues?.[0]?.message).toBe('required')
    expect(v.is(safeMultilineString(), 'line 1\nline 2')).toBe(true)
  })

  it('finds unsafe strings, keys and infinite numbers anywhere in decoded input', () => {
    expect(unsafeValuePaths({ a: 'ok', b: ['x', 'y\u0000'], c: { 'k\ud800': 1 }, d: Infinity })).toEqual([
      'b.1',
      'c',
      'd',
    ])
    expect(unsafeValuePaths({ note: 'two\nlines', n: 1.5 })).toEqual([])
  })
})

describe('ids', () => {
  it('range-checks body ids to their column type', () => {
    expect(v.is(idNumber(INT4_ID_MAX), INT4_ID_MAX)).toBe(true)
    for (const bad of [INT4_ID_MAX + 1, 0, -1, 1.5, Infinity, Number.NaN, '1'])
      expect(v.is(idNumber(INT4_ID_MAX), bad), String(bad)).toBe(false)
    expect(v.is(idNumber(), BIGINT_ID_MAX)).toBe(true)
    expect(v.is(idNumber(), BIGINT_ID_MAX + 1)).toBe(false)
  })

  it('reads path ids as numbers within the column type', () => {
    expect(v.parse(idString(), '42')).toBe(42)
    for (const bad of ['0', '01', '-1', '1.5', '1e3', '9007199254740992', '99999999999999999', '1\u0000', ''])
      expect(v.is(idString(), bad), bad).toBe(false)
    expect(v.is(idString(INT4_ID_MAX), '2147483648')).toBe(false)
  })
})
