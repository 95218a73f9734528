/**
 * Extensions (rollovers, issue 17): what an extension of an open loan costs today, and whether the law and the
 * configuration allow it. Pure; the server feeds it the loan's facts from its ledger and rows.
 * docs/decisions/0025-extensions-and-payment-schedules.md.
 *
 * An extension is a renewal (SEC MC 3 s.2022, MC 14 s.2025): its fee is the whole price of the days it adds
 * (ADR 0005: no interest accrues on top), priced on the principal still owed, not the original principal, so a
 * loan mostly repaid pays for what it still borrows and the daily caps hold on what is really lent:
 *   fee ≤ 0.2% a day × principal owed × days          (nominal; the fee counts as interest)
 *   fee ≤ 12% per 30 days × principal owed × days     (effective, over the renewed term)
 *   charged so far + interest still to come + fee ≤ 100% of the principal   (lifetime, all costs together)
 * and at most `maxCount` extensions per loan. A quote that breaks any of them is not offered, and says why.
 */
import { formatPhp } from '../format'
import { roundHalfUpDiv } from '../money'
import {
  BPS,
  EFFECTIVE_CAP_PPM_PER_DAY,
  NOMINAL_CAP_PPM_PER_DAY,
  PPM,
  TOTAL_COST_CAP_BPS,
} from '../pricing/caps'
import type { PricingConfig } from '../pricing/config'
import { addDays, daysBetween } from '../pricing/manila-date'
import { isOnTerms, isScheduled, type LoanLeaf } from './loan-lifecycle.machine'
import { type ExtensionType, extensionTypes, type ServicingConfig } from './servicing-config'

export { type ExtensionType, extensionTypes } from './servicing-config'

/** What the quotes need to know of a loan, read from its row and ledger on one business day. */
export interface LoanFacts {
  leaf: LoanLeaf
  /** The contract's principal, centavos: the base of the 100% lifetime cap. */
  principal: number
  /** The principal still owed today. */
  principalOutstanding: number
  /** Everything charged so far (chargeKinds of domain/loan/ledger.ts), booked or due by today. */
  charged: number
  /** Interest the contract may still charge after today (an upper bound: the rest of the contract's interest). */
  interestToCome: number
  /** The current due date (Manila). */
  dueDate: string
  /** The business day (Manila). */
  today: string
  /** Extensions already in effect (paid). */
  extensionsTaken: number
}

/** What the law still allows this loan to cost: 100% of principal minus what it has cost or will. */
export function legalRoom(facts: Pick<LoanFacts, 'principal' | 'charged' | 'interestToCome'>): number {
  const cap = Number((BigInt(facts.principal) * BigInt(TOTAL_COST_CAP_BPS)) / BPS)
  return Math.max(0, cap - facts.charged - facts.interestToCome)
}

export type ExtensionRefusal =
  | 'notOnTerms'
  | 'tooEarly'
  | 'tooLate'
  | 'maxCount'
  | 'nothingToExtend'
  | 'nominalCap'
  | 'effectiveCap'
  | 'totalCap'

export interface ExtensionQuote {
  type: ExtensionType
  /** Days added to the due date. */
  term: number
  /** Centavos: the whole price of those days. */
  fee: number
  /** The principal the fee was priced on. */
  principalBasis: number
  /** The due date after the extension: the current one plus the term, in Manila days. */
  newDueDate: string
  /** The legal room today, and what would be left after paying this fee. */
  legalRoom: number
  legalRoomAfter: number
  available: boolean
  refusal: { code: ExtensionRefusal; message: string } | null
}

const dayWord = (n: number) => `${n} day${n === 1 ? '' : 's'}`

/** The fee of an extension on a principal: round half up of principal × feeBps / 10 000 (ADR 0005). */
export function extensionFee(principalOutstanding: number, feeBps: number): number {
  return Number(roundHalfUpDiv(BigInt(principalOutstanding) * BigInt(feeBps), BPS))
}

/** Which legal cap a fee for `term` days on `principal` owed breaks, if any (exact integer comparisons). */
export function extensionCapBreach(
  fee: number,
  principalOwed: number,
  term: number,
  room: number,
): 'nominalCap' | 'effectiveCap' | 'totalCap' | null {
  const feeMicro = BigInt(fee) * PPM
  const base = BigInt(principalOwed) * BigInt(term)
  if (feeMicro > base * BigInt(NOMINAL_CAP_PPM_PER_DAY)) return 'nominalCap'
  if (feeMicro > base * BigInt(EFFECTIVE_CAP_PPM_PER_DAY)) return 'effectiveCap'
  if (fee > room) return 'totalCap'
  return null
}

/** One quote per type, today, with the refusal when it may not be taken. */
export function extensionQuote(
  facts: LoanFacts,
  type: ExtensionType,
  pricing: PricingConfig['extensions'],
  window: ServicingConfig['extensions'],
): ExtensionQuote {
  const { term, feeBps } = pricing[type]
  const fee = facts.principalOutstanding > 0 ? extensionFee(facts.principalOutstanding, feeBps) : 0
  const room = legalRoom(facts)
  const dueDays = daysBetween(facts.today, facts.dueDate)
  const refuse = (code: ExtensionRefusal, message: string) => ({ code, message })
  let refusal: ExtensionQuote['refusal'] = null
  if (!isOnTerms(facts.leaf))
    refusal = refuse(
      'notOnTerms',
      isScheduled(facts.leaf) || facts.leaf === 'on_hold.scheduled'
        ? 'A loan on a payment schedule cannot be extended.'
        : facts.leaf.startsWith('on_hold')
          ? 'The loan is on hold; it cannot be extended now.'
          : 'Only an active loan can be extended.',
    )
  else if (facts.extensionsTaken >= pricing.maxCount)
    refusal = refuse(
      'maxCount',
      `A loan can be extended at most ${pricing.maxCount} time${pricing.maxCount === 1 ? '' : 's'}.`,
    )
  else if (dueDays > window.daysBeforeDue)
    refusal = refuse(
      'tooEarly',
      `An extension can be chosen from ${dayWord(window.daysBeforeDue)} before the due date (${addDays(facts.dueDate, -window.daysBeforeDue)}).`,
    )
  else if (-dueDays > window.graceDaysAfterDue)
    refusal = refuse(
      'tooLate',
      `An extension can be chosen until ${dayWord(window.graceDaysAfterDue)} after the due date; that was ${addDays(facts.dueDate, window.graceDaysAfterDue)}.`,
    )
  else if (facts.principalOutstanding <= 0 || fee <= 0)
    refusal = refuse(
      'nothingToExtend',
      'No principal is owed any more: pay what is left instead of extending.',
    )
  else {
    const breach = extensionCapBreach(fee, facts.principalOutstanding, term, room)
    if (breach === 'nominalCap')
      refusal = refuse('nominalCap', 'This extension would cost more than 0.2% a day of what you still owe.')
    else if (breach === 'effectiveCap')
      refusal = refuse(
        'effectiveCap',
        'This extension would cost more than 12% a month of what you still owe.',
      )
    else if (breach === 'totalCap')
      refusal = refuse(
        'totalCap',
        `This extension (${formatPhp(fee)}) would take the loan's total cost above 100% of its principal; ${formatPhp(room)} of room is left.`,
      )
  }
  return {
    type,
    term,
    fee,
    principalBasis: facts.principalOutstanding,
    newDueDate: addDays(facts.dueDate, term),
    legalRoom: room,
    legalRoomAfter: Math.max(0, room - fee),
    available: refusal === null,
    refusal,
  }
}

/** Both types' quotes, cheap first. */
export function extensionQuotes(
  facts: LoanFacts,
  pricing: PricingConfig['extensions'],
  window: ServicingConfig['extensions'],
): ExtensionQuote[] {
  return extensionTypes.map((type) => extensionQuote(facts, type, pricing, window))
}

/** The last Manila day a chosen extension's invoice can be paid: the configured days, never past the grace window. */
export function invoiceLastDay(
  today: string,
  dueDate: string,
  window: ServicingConfig['extensions'],
): string {
  const byValidity = addDays(today, window.invoiceValidDays - 1)
  const byGrace = addDays(dueDate, window.graceDaysAfterDue)
  return byValidity < byGrace ? byValidity : byGrace
}
