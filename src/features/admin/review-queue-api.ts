/**
 * The review queue's calls (server/services/lending/review-queue.ts, docs/decisions/0036-review-queue.md): a
 * filtered page of the queue, the decision, and the assignment.
 */

import type { ReviewAssignee, ReviewKind, ReviewQueueItem } from '../../../domain/back-office/review'
import type { BackOfficeDecision } from '../../../domain/back-office-decision'
import type { Page } from '../../../domain/contract/define'
import { assignApplication, decideApplication, getReviewQueue } from '../../../domain/contract/lending'
import type { ApiClient } from '../../api/client'

export type { ReviewQueueItem }

/** The filters as the query sends them; an absent filter is not sent. Amounts in centavos, days YYYY-MM-DD. */
export interface ReviewFilterQuery {
  kind?: ReviewKind
  assignee?: ReviewAssignee
  minAmount?: number
  maxAmount?: number
  from?: string
  to?: string
}

export const reviewQueryKeys = {
  /** Every page of every filter: what a decision or an assignment invalidates. */
  all: ['admin', 'review-queue'] as const,
  page: (filters: ReviewFilterQuery, page: number, perPage: number) =>
    ['admin', 'review-queue', filters, page, perPage] as const,
}

export const fetchReviewPage = async (
  api: ApiClient,
  filters: ReviewFilterQuery,
  page: number,
  perPage: number,
  signal?: AbortSignal,
) =>
  // A paginated answer is a Page; `defineContract` does not keep `paginated: true` in the contract's type.
  (await api.call(
    getReviewQueue,
    { query: { ...filters, page, perPage } },
    { signal },
  )) as unknown as Page<ReviewQueueItem>

export const decide = (api: ApiClient, id: number, decision: BackOfficeDecision) =>
  api.call(decideApplication, { params: { id }, body: decision })

/** `userId` undefined: oneself; null: release; a number: that user (administrators). */
export const assign = (api: ApiClient, id: number, userId: number | null | undefined) =>
  api.call(assignApplication, { params: { id }, body: userId === undefined ? {} : { userId } })

/** Pesos as typed ('5000', '5 000.50', '5,000') to centavos; null when it is not an amount. */
export function pesosToCentavos(text: string): number | null {
  const cleaned = text.replace(/[\s,]/g, '')
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(cleaned)) return null
  const [whole, fraction = ''] = cleaned.split('.')
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
}
