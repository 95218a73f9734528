/**
 * Servicing the client's loan in the browser (issue 16 item 7), shared by My loan (src/features/application),
 * the repayment page (src/features/repayment), the repay pages (src/features/repay) and the extension page
 * (src/features/extension), which may not import one another (docs/decisions/0022): the active loan, its
 * payments and statement, the payment intention, the calls of the payment watch (payment-watch.tsx,
 * machines/payment-watch.machine.ts), which puts a posted payment on screen with a toast, and the extension
 * (rollover) calls of issue 17 with the actors of machines/extension-flow.machine.ts.
 *
 * Every answer is checked against the contract's schema (domain/contract/payments.ts, lending-answers.ts), so a
 * screen never renders a guess. Money is integer centavos until it is shown.
 */
import { type QueryClient, useMutation, useQuery } from '@tanstack/react-query'
import { useSelector } from '@xstate/react'
import * as v from 'valibot'
import { fromPromise } from 'xstate'
import { codeSentSchema } from '../../domain/contract/identity-answers'
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
import {
  chooseRollover as chooseRolloverCall,
  createRolloverApplication,
  downloadAmendmentDocument,
  getPaymentSchedule,
  signRolloverDocument,
} from '../../domain/contract/servicing'
import {
  type AmendmentDocument,
  amendmentDocumentSchema,
  type PaymentSchedule,
  paymentScheduleSchema,
  type Rollover,
  type RolloverApplication,
  rolloverApplicationSchema,
  rolloverSchema,
} from '../../domain/contract/servicing-answers'
import type { ExtensionType } from '../../domain/loan/servicing-config'
import type { PaymentChannelCode } from '../../domain/payments/channels'
import { type AuthSnapshot, isLoggedIn } from '../../machines/auth.machine'
import type { CodeSent } from '../../machines/code-request.machine'
import type { ApplicationRef, SignInput } from '../../machines/extension-flow.machine'
import type { LoanFacts } from '../../machines/payment-watch.machine'
import { type ApiClient, ApiError, type CallOptions } from '../api/client'
import { useApi, useAuthActor } from './app-context'

export const servicingKeys = {
  activeLoan: ['loan', 'active'] as const,
  payments: ['loan', 'payments'] as const,
  /** Under the active loan's key, so asking for the loan again (without `exact`) asks for this too. */
  paymentSchedule: ['loan', 'active', 'payment-schedule'] as const,
  statement: (loanId: number) => ['loan', loanId, 'statement'] as const,
  /** An extension's application as last answered (choosing, asking for it, signing). */
  rolloverApplication: (loanId: number, rolloverId: number) =>
    ['loan', loanId, 'rollover', rolloverId, 'application'] as const,
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

const scheduleAnswer = v.nullable(paymentScheduleSchema)

/** The payment schedule in force (its instalments and what to pay now), or null when the loan is on its terms. */
export async function fetchPaymentSchedule(
  api: ApiClient,
  options: CallOptions = {},
): Promise<PaymentSchedule | null> {
  return v.parse(scheduleAnswer, await api.call(getPaymentSchedule, {}, options))
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
// Extensions (rollovers, issue 17): domain/contract/servicing.ts

/** Chooses an extension of the active loan: its invoice becomes unpaid at today's fee (a 409 says why not). */
export async function chooseRollover(api: ApiClient, type: ExtensionType, signal?: AbortSignal) {
  return v.parse(rolloverSchema, await api.call(chooseRolloverCall, { body: { type } }, { signal }))
}

/** The chosen extension's application (asking again answers the same one). */
export async function openRolloverApplication(
  api: ApiClient,
  { loanId, rolloverId }: ApplicationRef,
  signal?: AbortSignal,
): Promise<RolloverApplication> {
  return v.parse(
    rolloverApplicationSchema,
    await api.call(createRolloverApplication, { params: { id: loanId, rid: rolloverId } }, { signal }),
  )
}

const rolloverCodeSentSchema = v.object({
  ...codeSentSchema.entries,
  documents: v.array(amendmentDocumentSchema),
})

/** Renders the extension agreement and its disclosure as PDFs and sends the signing code by SMS. */
export async function sendRolloverCode(
  api: ApiClient,
  { loanId, rolloverId, applicationId }: ApplicationRef & { applicationId: number },
): Promise<CodeSent & { documents: AmendmentDocument[] }> {
  const params = { loanId, rid: rolloverId, appId: applicationId }
  return v.parse(rolloverCodeSentSchema, await api.call(signRolloverDocument, { params, body: {} }))
}

/** Signs the extension's documents with the SMS code: its fee is payable from then on. */
export async function signRollover(
  api: ApiClient,
  { loanId, rolloverId, applicationId, code }: SignInput,
  signal?: AbortSignal,
): Promise<RolloverApplication> {
  const params = { loanId, rid: rolloverId, appId: applicationId }
  return v.parse(
    rolloverApplicationSchema,
    await api.call(signRolloverDocument, { params, body: { code } }, { signal }),
  )
}

/** An extension or schedule document of the loan, as a PDF. */
export function downloadAmendment(api: ApiClient, loanId: number, documentId: number): Promise<Blob> {
  // The call answers a Blob for a binary contract; defineContract does not keep `answer: 'binary'` in the type yet.
  return api.call(downloadAmendmentDocument, {
    params: { id: loanId, docId: documentId },
  }) as unknown as Promise<Blob>
}

/** The active loan in the cache with one of its rollovers as the server just answered it. */
function withRollover(queryClient: QueryClient, rollover: Rollover) {
  queryClient.setQueryData<ActiveLoan | null>(servicingKeys.activeLoan, (loan) =>
    loan ? { ...loan, rollovers: loan.rollovers.map((r) => (r.id === rollover.id ? rollover : r)) } : loan,
  )
}

/**
 * The extension flow's actors (machines/extension-flow.machine.ts) with the app's API client. An answer that
 * changes the loan's rollovers is put in the cache at once, and the active loan is asked again (choosing one type
 * puts the other back to draft, which only the loan's answer shows).
 */
export function extensionFlowActors(api: ApiClient, queryClient: QueryClient) {
  const changed = (rollover: Rollover) => {
    withRollover(queryClient, rollover)
    void queryClient.invalidateQueries({ queryKey: servicingKeys.activeLoan, exact: true })
  }
  const keep = (application: RolloverApplication) => {
    queryClient.setQueryData(
      servicingKeys.rolloverApplication(application.loanId, application.rolloverId),
      application,
    )
    changed(application.rollover)
    return application
  }
  return {
    chooseRollover: fromPromise<Rollover, { type: ExtensionType }>(async ({ input, signal }) => {
      const rollover = await chooseRollover(api, input.type, signal)
      changed(rollover)
      return rollover
    }),
    openApplication: fromPromise<RolloverApplication, ApplicationRef>(async ({ input, signal }) =>
      keep(await openRolloverApplication(api, input, signal)),
    ),
    signRollover: fromPromise<RolloverApplication, SignInput>(async ({ input, signal }) =>
      keep(await signRollover(api, input, signal)),
    ),
    createIntention: fromPromise<PaymentIntention, { channel: PaymentChannelCode }>(({ input }) =>
      createIntention(api, { purpose: 'extension_fee', channel: input.channel }),
    ),
  }
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

/**
 * Spec section 4: a single-link session loads the loan, and is logged out if that call fails. Which failures
 * count: a refusal (any 4xx; a 401/403 has already ended the session through API.UNAUTHORIZED) and an answer
 * the contract cannot read (the link's session has no loan we can show). Not counted: a 5xx or no answer at all
 * (the API client reports both as 500+, and the shell shows the full-page error with its retry: the link
 * may still work a moment later), nor a call cancelled by the page itself.
 */
export function endsSingleLink(error: unknown): boolean {
  if (error instanceof ApiError) return error.status < 500
  if (v.isValiError(error)) return true
  return false
}

export function useActiveLoan(enabled = true) {
  const api = useApi()
  const auth = useAuthActor()
  return useQuery({
    queryKey: servicingKeys.activeLoan,
    queryFn: async ({ signal }) => {
      try {
        return await fetchActiveLoan(api, { signal })
      } catch (error) {
        // The machine ends the session (SINGLE_LINK.FAILED): the route guards take it to /login, which says why.
        if (!signal.aborted && auth.getSnapshot().matches('singleLink') && endsSingleLink(error))
          auth.send({ type: 'SINGLE_LINK.FAILED' })
        throw error
      }
    },
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

/** The schedule in force; `enabled` when the loan is on one (`plan === 'scheduled'`). */
export function usePaymentSchedule(enabled: boolean) {
  const api = useApi()
  return useQuery({
    queryKey: servicingKeys.paymentSchedule,
    queryFn: ({ signal }) => fetchPaymentSchedule(api, { signal }),
    staleTime: 0,
    enabled,
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
