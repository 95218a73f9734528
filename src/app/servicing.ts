/**
 * Servicing the client's loan in the browser (issue 16 item 7), shared by My loan (src/features/application),
 * the repayment page (src/features/repayment) and the repay pages (src/features/repay), which may not import one
 * another (docs/decisions/0022): the active loan, its payments and statement, the payment intention, and the
 * calls of the payment watch (payment-watch.tsx, machines/payment-watch.machine.ts), which puts a posted payment
 * on screen with a toast.
 *
 * Every answer is checked against the contract's schema (domain/contract/payments.ts, lending-answers.ts), so a
 * screen never renders a guess. Money is integer centavos until it is shown.
 */
import { type QueryClient, useMutation, useQuery } from '@tanstack/react-query'
import { useSelector } from '@xstate/react'
import * as v from 'valibot'
import { fromPromise } from 'xstate'
import { getActiveLoan } from '../../domain/contract/lending'
import { type ActiveLoan, activeLoanSchema } from '../../domain/contract/lending-answers'
import {
  createPaymentIntention,
  downloadLoanStatement,
  getLoanStatement,
  listClientPayments,
  type PaymentIntention,
  type PaymentPurpose,
  type PaymentView,
  paymentIntentionSchema,
  paymentViewSchema,
  type Statement,
  statementSchema,
} from '../../domain/contract/payments'
import type { PaymentChannelCode } from '../../domain/payments/channels'
import { type AuthSnapshot, isLoggedIn } from '../../machines/auth.machine'
import type { LoanFacts } from '../../machines/payment-watch.machine'
import type { ApiClient, CallOptions } from '../api/client'
import { useApi, useAuthActor } from './app-context'

export const servicingKeys = {
  activeLoan: ['loan', 'active'] as const,
  payments: ['loan', 'payments'] as const,
  statement: (loanId: number) => ['loan', loanId, 'statement'] as const,
}

/** The payments a page lists (and the watch compares): the newest page. */
export const PAYMENTS_PER_PAGE = 20

// ---------------------------------------------------------------------------------------------------------
// The calls

export async function fetchActiveLoan(api: ApiClient, options: CallOptions = {}): Promise<ActiveLoan | null> {
  return v.parse(activeLoanSchema, await api.call(getActiveLoan, {}, options))
}

const paymentList = v.array(paymentViewSchema)

export async function fetchPayments(api: ApiClient, options: CallOptions = {}): Promise<PaymentView[]> {
  // defineContract widens `paginated: true` to boolean, so the call is typed as the bare list: the client
  // answers a page for a paginated contract.
  const page = (await api.call(
    listClientPayments,
    { query: { page: '1', perPage: String(PAYMENTS_PER_PAGE) } },
    options,
  )) as unknown as { items: unknown }
  return v.parse(paymentList, page.items)
}

export async function fetchStatement(
  api: ApiClient,
  loanId: number,
  signal?: AbortSignal,
): Promise<Statement> {
  return v.parse(
    statementSchema,
    await api.call(getLoanStatement, { params: { id: String(loanId) } }, { signal }),
  )
}

/** The statement of account as a PDF. */
export function downloadStatement(api: ApiClient, loanId: number): Promise<Blob> {
  // The call answers a Blob for a binary contract; defineContract does not keep `answer: 'binary'` in the type yet.
  return api.call(downloadLoanStatement, { params: { id: String(loanId) } }) as unknown as Promise<Blob>
}

export interface IntentionRequest {
  purpose: PaymentPurpose
  /** Centavos; only for custom_amount. */
  amount?: number
  channel: PaymentChannelCode
}

export async function createIntention(api: ApiClient, body: IntentionRequest): Promise<PaymentIntention> {
  return v.parse(paymentIntentionSchema, await api.call(createPaymentIntention, { body }))
}

// ---------------------------------------------------------------------------------------------------------
// Hooks

/** A client's own session (or a single-link one): the loan calls are theirs to make. An admin's is not. */
export function isClientSession(snapshot: AuthSnapshot): boolean {
  return (
    (isLoggedIn(snapshot) && snapshot.context.claims?.type === 'client') || snapshot.matches('singleLink')
  )
}

export function useClientSession(): boolean {
  return useSelector(useAuthActor(), isClientSession)
}

export function useActiveLoan(enabled = true) {
  const api = useApi()
  return useQuery({
    queryKey: servicingKeys.activeLoan,
    queryFn: ({ signal }) => fetchActiveLoan(api, { signal }),
    staleTime: 0,
    enabled,
  })
}

export function usePayments(enabled = true) {
  const api = useApi()
  return useQuery({
    queryKey: servicingKeys.payments,
    queryFn: ({ signal }) => fetchPayments(api, { signal }),
    staleTime: 0,
    enabled,
  })
}

export function useStatement(loanId: number | null | undefined) {
  const api = useApi()
  return useQuery({
    queryKey: servicingKeys.statement(loanId ?? 0),
    queryFn: ({ signal }) => fetchStatement(api, loanId as number, signal),
    enabled: typeof loanId === 'number',
    staleTime: 0,
  })
}

export function useCreateIntention() {
  const api = useApi()
  return useMutation({ mutationFn: (body: IntentionRequest) => createIntention(api, body) })
}

/** The loan's figures the watch compares. */
export function loanFactsOf(loan: ActiveLoan | null, payments: PaymentView[]): LoanFacts {
  return {
    loan: loan
      ? { id: loan.id ?? null, amountDue: loan.amountDue.amount, credit: loan.credit?.amount ?? 0 }
      : null,
    payments: payments.map((p) => ({ id: p.id, amount: p.amount, status: p.status })),
  }
}

/**
 * The watch's actors with the app's API client: both calls quiet (a failed poll never replaces the page with
 * the error page; it tries again on the next tick), their answers put in the query cache, so every screen
 * reading the active loan or the payments shows the new figures.
 */
export function paymentWatchActors(api: ApiClient, queryClient: QueryClient) {
  return {
    fetchLoanFacts: fromPromise<LoanFacts>(async ({ signal }) => {
      const [loan, payments] = await Promise.all([
        fetchActiveLoan(api, { signal, quiet: true }),
        fetchPayments(api, { signal, quiet: true }),
      ])
      queryClient.setQueryData(servicingKeys.activeLoan, loan)
      queryClient.setQueryData(servicingKeys.payments, payments)
      return loanFactsOf(loan, payments)
    }),
  }
}

/** A single-link session sees only My loan (spec section 6): the profile's other pages are not for it. */
export function useSingleLinkSession(): boolean {
  return useSelector(useAuthActor(), (snapshot) => snapshot.matches('singleLink'))
}
