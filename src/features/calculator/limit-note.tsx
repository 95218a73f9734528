/**
 * What a logged-in client may borrow now, in words (issue 18, /profile/no-loan): the limit from their repayment
 * history less what their open loans owe (domain/loan/limits.ts, ADR 0030), or why nothing can be offered. The
 * calculator hides itself when there is nothing to offer (spec section 2), so this is what such a client reads.
 */
import { useQuery } from '@tanstack/react-query'
import { getClient } from '../../../domain/contract/identity'
import { useApi } from '../../app/app-context'
import { displayMoney } from './format'
import { currentClientQueryKey } from './use-calculator-client'

export function LimitNote({ loggedIn }: { loggedIn: boolean }) {
  const api = useApi()
  const query = useQuery({
    queryKey: currentClientQueryKey,
    queryFn: ({ signal }) => api.call(getClient, {}, { signal }),
    enabled: loggedIn,
  })
  const client = loggedIn ? query.data : undefined
  if (!client) return null
  const available = client.availableLoanAmount.amount
  const text = client.additionalLoan?.defaulted
    ? 'No new loan can be offered after a debt was sold or written off.'
    : available > 0
      ? `You can borrow up to ${displayMoney(available)} now. Each loan repaid on time raises your limit.`
      : 'Nothing more can be borrowed while your loans run: repay one first.'
  return (
    <p className="calculator-page__limit" data-figure="available-amount">
      {text}
    </p>
  )
}
