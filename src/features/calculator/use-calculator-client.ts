/**
 * What the calculator needs to know about the person using it. A visitor is `guestClient`; a logged-in
 * client's facts come from GET /private/client (spec section 3, Client). The auth session decides `loggedIn`;
 * this hook only loads and maps.
 */
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { getClient } from '../../../domain/contract/identity'
import type { ClientView } from '../../../domain/contract/identity-answers'
import { type CalculatorClient, guestClient } from '../../../machines/calculator.machine'
import { useApi } from '../../app/app-context'

/**
 * The fields of GET /private/client the calculator reads; the rest of the Client is not its business. Any may
 * be missing: a client the calculator knows nothing of prices like a first-time one.
 */
type CalculatorFacts = Partial<
  Pick<
    ClientView,
    'availableLoanAmount' | 'closedLoansCount' | 'hasActiveLoan' | 'hasActiveRefinancing' | 'additionalLoan'
  >
>

export const currentClientQueryKey = ['client', 'current'] as const

export function calculatorClientOf(facts: CalculatorFacts): CalculatorClient {
  const available = facts.availableLoanAmount?.amount
  return {
    ...guestClient,
    loggedIn: true,
    availableAmount: typeof available === 'number' && Number.isFinite(available) ? available : null,
    closedLoansCount: facts.closedLoansCount ?? 0,
    hasActiveLoan: facts.hasActiveLoan ?? false,
    hasActiveRefinancing: facts.hasActiveRefinancing ?? false,
    // The additional-loan rule's facts as the server knows them (issue 18); the calculator adds its own max.
    activeLoan: activeLoanOf(facts.additionalLoan),
    // A pending increase offer comes from the application call (issue 7): until then the increase rule stays off.
  }
}

function activeLoanOf(facts: ClientView['additionalLoan']): CalculatorClient['activeLoan'] {
  return facts?.loan ? { ...facts.loan, openLoans: facts.openLoans, defaulted: facts.defaulted } : null
}

export function useCalculatorClient(loggedIn: boolean): CalculatorClient {
  const api = useApi()
  const query = useQuery({
    queryKey: currentClientQueryKey,
    queryFn: ({ signal }) => api.call(getClient, {}, { signal }),
    enabled: loggedIn,
  })
  const data = loggedIn ? query.data : undefined
  // One object per answer, so the calculator forwards a change only when the facts changed.
  return useMemo(() => (data ? calculatorClientOf(data) : guestClient), [data])
}
