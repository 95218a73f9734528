/**
 * Personal values the back office shows only in part (Data Privacy Act, RA 10173: no more than the purpose needs).
 * A support call confirms an ID by its last characters; the whole number never leaves the server.
 */

const MASK = '••••'

/** An ID number as its last 4 characters (`••••67-8`); a number of 4 characters or fewer is masked whole. */
export function maskIdNumber(number: string): string {
  const text = number.trim()
  return text.length > 4 ? `${MASK}${text.slice(-4)}` : MASK
}
