/**
 * `?amount=custom` on /profile/repayment ("Pay another amount" on My loan): the form starts on another amount,
 * with its field focused. Anything else is ignored rather than refused. A plain function, not a schema: the route
 * tree (and so this) is part of every page's JavaScript.
 */
export interface RepaymentSearch {
  amount?: 'custom'
}

export function validateRepaymentSearch(search: Record<string, unknown>): RepaymentSearch {
  return search.amount === 'custom' ? { amount: 'custom' } : {}
}
