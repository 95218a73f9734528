/**
 * The back office's calls: the review queue and its decision (server/services/lending/review-queue.ts), the
 * sandbox outbox, the payments (issue 16: the list, manual posting, assignment, reversal, reconciliation, loan
 * holds) and the sandbox tools (the business clock, a payment arriving at a channel).
 */
import type { BackOfficeDecision, ReviewItem } from '../../../domain/back-office-decision'
import { listOutbox } from '../../../domain/contract/back-office'
import type { Page } from '../../../domain/contract/define'
import { decideApplication as decide, getReviewQueue } from '../../../domain/contract/lending'
import {
  assignPayment,
  type BackOfficePayment,
  cancelLoan,
  holdLoan,
  listPayments,
  moveSandboxClock,
  postManualPayment,
  reconcilePayments,
  releaseLoan,
  reversePayment,
  sendSandboxPayment,
} from '../../../domain/contract/payments'
import { formatDate, formatDateTime, formatStoredDate } from '../../../domain/format'
import type { PaymentChannelCode } from '../../../domain/payments/channels'
import type { ApiClient } from '../../api/client'

export type { ReviewItem }

export const adminQueryKeys = {
  queue: ['admin', 'review-queue'] as const,
  outbox: (recipient: string) => ['admin', 'outbox', recipient] as const,
}

/** The first page of the queue (up to 100, oldest first): more waiting than that is a day's work already. */
export const fetchReviewQueue = async (api: ApiClient, signal?: AbortSignal) => {
  // A paginated answer is a Page; `defineContract` does not keep `paginated: true` in the contract's type.
  const page = (await api.call(getReviewQueue, {}, { signal })) as unknown as Page<ReviewItem>
  return page.items
}

export const decideApplication = (api: ApiClient, id: number, decision: BackOfficeDecision) =>
  api.call(decide, { params: { id }, body: decision })

export const fetchOutbox = (api: ApiClient, recipient: string, signal?: AbortSignal) =>
  api.call(listOutbox, { query: { recipient: recipient || undefined, perPage: 20 } }, { signal })

/** A UTC instant as Manila wall time, 'Nov 24, 2026, 17:05' (domain/format.ts, ADR 0046). */
export const manilaDateTime = formatDateTime

// ---------------------------------------------------------------------------------------------------------
// Payments (issue 16, item 8) and the sandbox tools QA drives them with (items 2 and 5)

export type { BackOfficePayment }
export type PaymentStatus = BackOfficePayment['status']
export const paymentStatuses = ['posted', 'unmatched', 'reversed'] as const satisfies readonly PaymentStatus[]

/** The list's filters as the query sends them; an absent filter is not sent. */
export interface PaymentFilters {
  /** Received on or after this Manila day, YYYY-MM-DD. */
  from?: string
  /** Received on or before this Manila day, YYYY-MM-DD. */
  to?: string
  channel?: PaymentChannelCode
  status?: PaymentStatus
  reference?: string
}

export const paymentQueryKeys = {
  /** Every page of every filter: what an action invalidates. */
  all: ['admin', 'payments'] as const,
  page: (filters: PaymentFilters, page: number, perPage: number) =>
    ['admin', 'payments', filters, page, perPage] as const,
}

export const fetchPayments = (
  api: ApiClient,
  filters: PaymentFilters,
  page: number,
  perPage: number,
  signal?: AbortSignal,
) => api.call(listPayments, { query: { ...filters, page, perPage } }, { signal })

export type ManualPayment = {
  reference: string
  /** Centavos. */
  amount: number
  channel: PaymentChannelCode
  idempotencyKey: string
  note?: string
}

export const postPaymentByHand = (api: ApiClient, body: ManualPayment) =>
  api.call(postManualPayment, { body })

export const assignPaymentToLoan = (api: ApiClient, id: number, body: { loanId: number; reason: string }) =>
  api.call(assignPayment, { params: { id }, body })

export const reverseOnePayment = (api: ApiClient, id: number, reason: string) =>
  api.call(reversePayment, { params: { id }, body: { reason } })

export const reconcileNow = (api: ApiClient) => api.call(reconcilePayments)

export type LoanAction = 'hold' | 'release' | 'cancel'
const loanActionContracts = { hold: holdLoan, release: releaseLoan, cancel: cancelLoan }

export const actOnLoan = (api: ApiClient, action: LoanAction, loanId: number, reason: string) =>
  api.call(loanActionContracts[action], { params: { id: loanId }, body: { reason } })

export const moveBusinessClock = (api: ApiClient, body: { days: number; clientId?: number }) =>
  api.call(moveSandboxClock, { body })

export const makeSandboxPaymentArrive = (
  api: ApiClient,
  body: { reference: string; amount: number; channel: PaymentChannelCode },
) => api.call(sendSandboxPayment, { body })

/** Manila is UTC+8 all year, with no daylight saving (domain/pricing/manila-date.ts). */
const MANILA_OFFSET_MS = 8 * 3_600_000

/** A Manila calendar day 'YYYY-MM-DD' as 'Dec 01, 2026' (domain/format.ts); anything else as it is. */
export const manilaDay = formatStoredDate

/** A UTC instant as Manila wall time in the back office's payments format 'MMM DD, YYYY h:mm a': 'Nov 24, 2026 9:30 AM'. */
export function manilaTimestamp(iso: string): string {
  const at = new Date(Date.parse(iso) + MANILA_OFFSET_MS)
  if (Number.isNaN(at.getTime())) return iso
  const hours = at.getUTCHours()
  const minutes = String(at.getUTCMinutes()).padStart(2, '0')
  const day = formatDate(at.toISOString().slice(0, 10))
  return `${day} ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`
}
