/**
 * The search of /profile/repayment: `?amount=custom` ("Pay another amount" on My loan) starts the form on another
 * amount, with its field focused; `?purpose=instalment` ("Pay ... now" under a payment schedule) starts it on what
 * to pay now. Anything else is ignored rather than refused. A plain function, not a schema: the route tree (and so
 * this) is part of every page's JavaScript.
 */
export interface RepaymentSearch {
  amount?: 'custom'
  purpose?: 'instalment'
}

export function validateRepaymentSearch(search: Record<string, unknown>): RepaymentSearch {
  return {
    ...(search.amount === 'custom' ? { amount: 'custom' } : {}),
    ...(search.purpose === 'instalment' ? { purpose: 'instalment' } : {}),
  }
}
