/**
 * The typing mask of an identity-document number (spec section 5): `9` a digit, `a` a letter, anything else a
 * separator the mask writes itself. Characters that do not fit their place are dropped; letters are upper-cased.
 */
export function applyMask(mask: string, typed: string): string {
  const chars = typed.replace(/[\s-]/g, '').toUpperCase()
  let out = ''
  let next = 0
  for (const slot of mask) {
    if (next >= chars.length) break
    if (slot === '9' || slot === 'a') {
      const fits = slot === '9' ? /\d/ : /[A-Z]/
      while (next < chars.length && !fits.test(chars[next] as string)) next += 1
      if (next >= chars.length) break
      out += chars[next]
      next += 1
    } else out += slot
  }
  return out
}

/** The mask as a person reads it: 99-9999999-9 -> 12-3456789-0 style with letters as A. */
export const maskExample = (mask: string) => mask.replace(/9/g, '0').replace(/a/g, 'A')
