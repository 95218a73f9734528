/**
 * The client's payment reference: one 10-digit number for life, usable at every channel (the local practice of
 * lifetime IDs: Digido's Lifetime ID, Moneycat's 8-digit ID). docs/decisions/0024-ledger-payments-and-allocation.md.
 *
 * It is computed from the client id, so it needs no column, no sequence and no uniqueness check: nine digits
 * that are the id scrambled by a bijection modulo 10^9 (multiplication by a number coprime with 10, plus a
 * constant), so neighbouring clients do not get neighbouring references, followed by a Luhn check digit, so a
 * mistyped digit or a swap of two neighbours is recognised as no reference at all (the payment is then kept as
 * unmatched, never posted to someone else's loan).
 */

const MODULUS = 1_000_000_000n
const MULTIPLIER = 738_219_451n
const OFFSET = 104_729_357n
/** MULTIPLIER's inverse modulo 10^9 (MULTIPLIER * INVERSE ≡ 1), computed once. */
const INVERSE = modularInverse(MULTIPLIER, MODULUS)

/** The largest client id that has a reference of its own (ids are bigints; clients will not reach it). */
export const MAX_REFERENCED_CLIENT_ID = Number(MODULUS) - 1

function modularInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a % m, m]
  let [oldS, s] = [1n, 0n]
  while (r !== 0n) {
    const q = oldR / r
    ;[oldR, r] = [r, oldR - q * r]
    ;[oldS, s] = [s, oldS - q * s]
  }
  return ((oldS % m) + m) % m
}

/** The Luhn check digit of a string of digits. */
export function luhnDigit(digits: string): number {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 0) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return (10 - (sum % 10)) % 10
}

/** The payment reference of a client: 10 digits. */
export function paymentReferenceOf(clientId: number): string {
  if (!Number.isSafeInteger(clientId) || clientId < 1 || clientId > MAX_REFERENCED_CLIENT_ID)
    throw new RangeError(`no payment reference for client id ${clientId}`)
  const scrambled = (BigInt(clientId) * MULTIPLIER + OFFSET) % MODULUS
  const body = scrambled.toString().padStart(9, '0')
  return `${body}${luhnDigit(body)}`
}

/** What a payer typed, as a reference: digits only (spaces and dashes as printed on receipts are dropped). */
export function normaliseReference(typed: string): string {
  return typed.replace(/[\s-]/g, '')
}

/** The client id a reference stands for, or null when it is not one (wrong length, check digit or range). */
export function clientIdOfReference(typed: string): number | null {
  const reference = normaliseReference(typed)
  if (!/^\d{10}$/.test(reference)) return null
  const body = reference.slice(0, 9)
  if (luhnDigit(body) !== Number(reference[9])) return null
  const id = (((BigInt(body) - OFFSET) % MODULUS) + MODULUS) % MODULUS
  const clientId = Number((id * INVERSE) % MODULUS)
  return clientId >= 1 ? clientId : null
}

/** The loan number printed on My loan, the statement and receipts: L and the loan id, 8 digits at least. */
export const loanNumberOf = (loanId: number) => `L${String(loanId).padStart(8, '0')}`

/** The loan id of a loan number, or null. */
export function loanIdOfNumber(typed: string): number | null {
  const match = /^L(\d{1,15})$/i.exec(typed.trim())
  if (!match) return null
  const id = Number(match[1])
  return Number.isSafeInteger(id) && id >= 1 ? id : null
}

/**
 * The client's virtual account for InstaPay and PESONet transfers (a collection account per client, as the
 * gateways issue them): the bank's prefix and the payment reference, so a transfer to it needs no reference typed.
 */
export const VIRTUAL_ACCOUNT_PREFIX = '8801'
export const virtualAccountOf = (reference: string) => `${VIRTUAL_ACCOUNT_PREFIX}${reference}`
