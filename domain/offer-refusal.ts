/**
 * Why the server refuses to price a logged-in client's amount and term, in words that say how to fix it (issue
 * 13 item 11). The calculator never asks for these (domain/calculator-rules.ts follows the same ranges), so a
 * refusal means the two disagree: a configuration changed since the page loaded, an old cookie, a hand-made
 * request. The client must still be told what to choose, not "we could not price this loan".
 *
 * The ranges are the API's own (`offerRange`, domain/pricing/ranges.ts), so the advice and the validation
 * cannot drift apart: an empty answer means `validateOfferRequest` accepts the request as well.
 */
import type { CalculatorConfig } from './calculator-config'
import { formatCalculatorPhp } from './calculator-format'
import type { Violation } from './contract/wire'
import { offerRange } from './pricing/ranges'

export interface ClientOfferFacts {
  /** How the server prices the client: by their history. */
  kind: 'new' | 'repeat'
  /** What the client may borrow now, centavos (the limit less the principal owed on open loans). */
  availableAmount: number
  /** A loan is open: the amount would be an additional loan, whose minimum is minAdditionLoan (issue 18). */
  additionalLoan?: boolean
}

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`

/** The highest value of a grid at or below `value`, and the lowest above it. */
function neighbours(value: number, min: number, interval: number) {
  const below = min + Math.floor((value - min) / interval) * interval
  return [below, below + interval] as const
}

/** Reasons, each saying why and what to choose instead; empty when the request can be priced. */
export function offerRefusal(
  calculator: CalculatorConfig,
  facts: ClientOfferFacts,
  amount: number,
  term: number,
): Violation[] {
  const range = offerRange(calculator, facts.kind, facts.additionalLoan ?? false)
  if (!range) {
    return [{ propertyPath: 'amount', message: 'No loan can be offered to you just now: please contact us.' }]
  }
  const repeat = facts.kind === 'new' ? offerRange(calculator, 'repeat') : undefined
  const reasons: Violation[] = []

  const maxAmount = Math.min(range.amount.max, facts.availableAmount)
  if (maxAmount < range.amount.min) {
    reasons.push({
      propertyPath: 'amount',
      message: 'You cannot borrow more while a loan is open: repay it first, then apply again.',
    })
  } else if (amount > maxAmount) {
    const why =
      repeat && amount <= repeat.amount.max && maxAmount === range.amount.max
        ? `Amounts over ${formatCalculatorPhp(maxAmount)} need a repaid loan`
        : `You can borrow up to ${formatCalculatorPhp(maxAmount)} now`
    reasons.push({
      propertyPath: 'amount',
      message: `${why}: choose up to ${formatCalculatorPhp(maxAmount)}.`,
    })
  } else if (amount < range.amount.min) {
    reasons.push({
      propertyPath: 'amount',
      message: `The smallest loan is ${formatCalculatorPhp(range.amount.min)}: choose at least that.`,
    })
  } else if ((amount - range.amount.min) % range.amount.interval !== 0) {
    const [below, above] = neighbours(amount, range.amount.min, range.amount.interval)
    reasons.push({
      propertyPath: 'amount',
      message: `Amounts go in steps of ${formatCalculatorPhp(range.amount.interval)}: choose ${formatCalculatorPhp(below)}${above <= maxAmount ? ` or ${formatCalculatorPhp(above)}` : ''}.`,
    })
  }

  if (term > range.term.max) {
    const why =
      repeat && term <= repeat.term.max ? 'Repeat-client terms need a repaid loan' : 'That term is too long'
    reasons.push({ propertyPath: 'term', message: `${why}: choose up to ${days(range.term.max)}.` })
  } else if (term < range.term.min) {
    reasons.push({
      propertyPath: 'term',
      message: `The shortest term is ${days(range.term.min)}: choose at least that.`,
    })
  } else if ((term - range.term.min) % range.term.interval !== 0) {
    const [below, above] = neighbours(term, range.term.min, range.term.interval)
    reasons.push({
      propertyPath: 'term',
      message: `Terms go in steps of ${days(range.term.interval)}: choose ${days(below)}${above <= range.term.max ? ` or ${days(above)}` : ''}.`,
    })
  }
  return reasons
}
