/**
 * Money is integer centavos (PHP) everywhere in the product; pesos exist only at the edges (display, admin
 * input). Pricing arithmetic runs on bigint so amount × rate × days can never lose precision, and comes back
 * to a JavaScript number only through `toSafeCentavos`, which refuses anything outside the safe integers.
 */

/** A whole number of centavos that a JavaScript number holds exactly. */
export function isCentavos(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value)
}

export function assertCentavos(value: unknown, label = 'amount'): asserts value is number {
  if (!isCentavos(value))
    throw new RangeError(`${label} must be a whole number of centavos, got ${String(value)}`)
}

export function assertNonNegativeCentavos(value: unknown, label = 'amount'): asserts value is number {
  assertCentavos(value, label)
  if (value < 0) throw new RangeError(`${label} must not be negative, got ${value}`)
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** Back from bigint arithmetic to a number, refusing silently rounded results. */
export function toSafeCentavos(value: bigint, label = 'amount'): number {
  if (value > MAX_SAFE || value < -MAX_SAFE)
    throw new RangeError(`${label} ${value} exceeds the safe integer range`)
  return Number(value)
}

/**
 * numerator / denominator rounded half up (0.5 goes to 1), for non-negative numerators. The single rounding
 * rule of pricing: each charge is rounded to the centavo once, then charges are summed.
 */
export function roundHalfUpDiv(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive')
  if (numerator < 0n) throw new RangeError('roundHalfUpDiv takes a non-negative numerator')
  return (2n * numerator + denominator) / (2n * denominator)
}

/** numerator / denominator rounded up; non-negative numerator. */
export function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive')
  if (numerator < 0n) throw new RangeError('ceilDiv takes a non-negative numerator')
  return (numerator + denominator - 1n) / denominator
}

/**
 * Pesos (as typed by a person or an admin form) to centavos. Accepts `12345.67`, `'12 345.67'`, `'12,345.6'`;
 * refuses anything finer than a centavo instead of rounding it away, because a silently changed amount is
 * worse than an error at an edge.
 */
export function pesosToCentavos(pesos: number | string): number {
  if (typeof pesos === 'string') {
    const text = pesos
      .trim()
      .replace(/^₱\s*/, '')
      .replace(/[ ,\u00a0]/g, '')
    const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text)
    if (!match) throw new RangeError(`not a peso amount with at most 2 decimals: ${JSON.stringify(pesos)}`)
    const [, sign, whole = '0', fraction = ''] = match
    const centavos = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'))
    return toSafeCentavos(sign ? -centavos : centavos, 'pesos')
  }
  if (!Number.isFinite(pesos)) throw new RangeError(`not a peso amount: ${pesos}`)
  const scaled = pesos * 100
  const centavos = Math.round(scaled)
  // A float like 12345.67 is 1234566.9999999998 centavos: tolerate representation error, refuse real fractions.
  if (Math.abs(scaled - centavos) > 1e-6 * Math.max(1, Math.abs(scaled)))
    throw new RangeError(`${pesos} has a fraction of a centavo`)
  assertCentavos(centavos, 'pesos')
  return centavos
}

// Display formats (the peso sign, thousands separators, the calculator's spaced format) live in domain/format.ts.
