/**
 * The calculator state kept for 24 hours (spec section 9) so the next page, and the next visit, start where the
 * borrower left off. The cookie is untrusted: it is parsed defensively here and the machine re-validates every
 * value against the configuration (`input.initial`).
 */
import {
  type CalculatorContext,
  OPTIONAL_FEE,
  type RestoredCalculatorState,
  sanitizeRestored,
} from '../../../machines/calculator.machine'
import { CALCULATOR_COOKIE, CALCULATOR_COOKIE_MAX_AGE_S } from '../../app/calculator-form'
import { readCookie, writeCookie } from '../../app/cookies'

export {
  CALCULATOR_COOKIE,
  CALCULATOR_COOKIE_MAX_AGE_S,
  CALCULATOR_FORM_ACTION,
} from '../../app/calculator-form'

export function stateToStore(context: CalculatorContext): RestoredCalculatorState {
  return {
    amount: context.amount.current,
    term: context.term.current,
    tab: context.tab,
    optionalFee: context.optionalFees[OPTIONAL_FEE],
    promoCode: context.promoCode,
  }
}

export function serializeCalculatorState(state: RestoredCalculatorState): string {
  return JSON.stringify(state)
}

export function parseCalculatorState(raw: string | null): Partial<RestoredCalculatorState> | null {
  if (!raw) return null
  try {
    return sanitizeRestored(JSON.parse(raw))
  } catch {
    return null
  }
}

export function readCalculatorCookie(): Partial<RestoredCalculatorState> | null {
  return parseCalculatorState(readCookie(CALCULATOR_COOKIE))
}

export function writeCalculatorCookie(state: RestoredCalculatorState) {
  writeCookie(CALCULATOR_COOKIE, serializeCalculatorState(state), CALCULATOR_COOKIE_MAX_AGE_S)
}
