/**
 * The calculator's form before the app runs (issue 21): the server's page is usable without JavaScript, and its
 * Apply now is a real form that takes a visitor to registration with the figures the sliders hold
 * (src/features/calculator/calculator.tsx). The app keeps them at start (`takeCalculatorQuery`, called by
 * src/main.tsx: app wiring, since a feature never changes the address itself). This module
 * stays small and free of the calculator's machine, since the app's entry loads it on every page.
 */
import { readCookie, writeCookie } from './cookies'

/** The calculator state kept for 24 hours (spec section 9); read and checked by calculator-cookie.ts. */
export const CALCULATOR_COOKIE = 'calculator'
export const CALCULATOR_COOKIE_MAX_AGE_S = 24 * 60 * 60

/** Where the calculator's form goes when the server's page submits it before the app runs. */
export const CALCULATOR_FORM_ACTION = '/registration'
const FORM_FIELDS = ['amount', 'term', 'fee'] as const

/** What the cookie held, as an object (the reader, calculator-cookie.ts, checks every value). */
function keptState(): Record<string, unknown> {
  try {
    const kept = JSON.parse(readCookie(CALCULATOR_COOKIE) ?? 'null') as unknown
    return typeof kept === 'object' && kept !== null && !Array.isArray(kept)
      ? (kept as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

/**
 * The figures a server-rendered calculator sent with its form before the app ran (`?amount=…&term=…[&fee=1]` on
 * /registration): kept in the calculator cookie as the app's own submit keeps them, over what the cookie held
 * (its tab and promo code stay), and taken out of the address so a reload or a shared link does not carry them.
 * Untrusted like the cookie: whole positive numbers only here; the calculator's machine clamps them to the
 * configuration when it reads the cookie.
 */
export function takeCalculatorQuery(
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
  history: Pick<History, 'replaceState' | 'state'>,
) {
  if (location.pathname.replace(/\/+$/, '') !== CALCULATOR_FORM_ACTION) return
  const params = new URLSearchParams(location.search)
  if (!params.has('amount') || !params.has('term')) return
  const amount = Number(params.get('amount'))
  const term = Number(params.get('term'))
  const optionalFee = params.get('fee') === '1'
  for (const field of FORM_FIELDS) params.delete(field)
  const rest = params.toString()
  history.replaceState(history.state, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`)
  if (!Number.isSafeInteger(amount) || !Number.isSafeInteger(term) || amount <= 0 || term <= 0) return
  const state = { ...keptState(), amount, term, optionalFee }
  writeCookie(CALCULATOR_COOKIE, JSON.stringify(state), CALCULATOR_COOKIE_MAX_AGE_S)
}
