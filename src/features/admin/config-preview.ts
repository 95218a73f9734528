/**
 * What a configuration form needs besides the calls: a document's numeric and yes/no values as fields (by dotted
 * path), a document rebuilt from them, and the sample offers priced before and after, with the same domain
 * functions the server prices and checks with (domain/pricing/offer.ts, domain/pricing/config.ts).
 */
import type { CalculatorConfig } from '../../../domain/calculator-config'
import type { Violation } from '../../../domain/contract/wire'
import type { ClientKind } from '../../../domain/offer'
import { type PricingConfig, validateLendingConfig } from '../../../domain/pricing/config'
import { manilaDate } from '../../../domain/pricing/manila-date'
import { computeOffer } from '../../../domain/pricing/offer'

export interface Leaf {
  path: string
  value: number | boolean
}

/** Every number and yes/no in a document, by dotted path (`interestPpmPerDay.new`, `extensions.cheap.term`). */
export function leavesOf(value: unknown, path = ''): Leaf[] {
  if (typeof value === 'number' || typeof value === 'boolean') return [{ path, value }]
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) => leavesOf(inner, path ? `${path}.${key}` : key))
  return []
}

/** A copy of `document` with the value at a dotted path replaced. */
export function withValue(document: unknown, path: string, next: number | boolean): unknown {
  const [head, ...rest] = path.split('.')
  if (head === undefined || !document || typeof document !== 'object') return next
  const copy: Record<string, unknown> = Array.isArray(document)
    ? ([...document] as unknown as Record<string, unknown>)
    : { ...(document as Record<string, unknown>) }
  copy[head] = rest.length ? withValue(copy[head], rest.join('.'), next) : next
  return copy
}

export interface Lending {
  calculator: CalculatorConfig
  pricing: PricingConfig
}

export interface SampleRow {
  key: string
  kind: ClientKind
  amount: number
  term: number
  /** Total to repay, centavos, or null when the configuration does not offer it. */
  before: number | null
  after: number | null
}

function totalOf(config: Lending, kind: ClientKind, amount: number, term: number): number | null {
  try {
    return computeOffer({
      ...config,
      kind,
      amount,
      term,
      withPackageFee: true,
      today: manilaDate(new Date()),
    }).total.amount
  } catch {
    return null
  }
}

/** A few offers, new and repeat clients, smallest and largest amount and term, priced by both configurations. */
export function sampleOffers(before: Lending, after: Lending): SampleRow[] {
  const rows: SampleRow[] = []
  const limits = before.calculator.initialStates
  const terms = before.calculator.termLimits
  const samples: [ClientKind, CalculatorConfig['initialStates']['new'], number, number][] = [
    ['new', limits.new, terms.minTermForNew, terms.maxTermForNew],
    ['repeat', limits.repeated, terms.minTermForRepeated, terms.maxTermForRepeated],
  ]
  for (const [kind, state, minTerm, maxTerm] of samples) {
    for (const amount of new Set([state.minAmount, state.initialAmount, state.maxAmount])) {
      for (const term of new Set([minTerm, maxTerm])) {
        rows.push({
          key: `${kind}-${amount}-${term}`,
          kind,
          amount,
          term,
          before: totalOf(before, kind, amount, term),
          after: totalOf(after, kind, amount, term),
        })
      }
    }
  }
  return rows
}

/** The legal caps and ranges the server checks a proposal against, checked here before it is sent. */
export function lendingViolations(next: { calculator: unknown; pricing: unknown }): Violation[] {
  return validateLendingConfig(next)
}

/** An ISO time from a `datetime-local` value read as Manila time (UTC+8, no daylight saving). */
export function manilaInputToIso(local: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local)) return null
  const at = new Date(`${local}:00+08:00`)
  return Number.isNaN(at.getTime()) ? null : at.toISOString()
}
