/**
 * The back office's calls: the review queue and its decision (server/services/lending/review-queue.ts) and the
 * sandbox outbox.
 */
import type { BackOfficeDecision, ReviewItem } from '../../../domain/back-office-decision'
import { listOutbox } from '../../../domain/contract/back-office'
import type { Page } from '../../../domain/contract/define'
import { decideApplication as decide, getReviewQueue } from '../../../domain/contract/lending'
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

/** A UTC instant as Manila wall time, 'Nov 24, 2026, 17:05'. */
export function manilaDateTime(iso: string): string {
  return new Intl.DateTimeFormat('en-PH', {
    timeZone: 'Asia/Manila',
    dateStyle: 'medium',
    timeStyle: 'short',
    hourCycle: 'h23',
  }).format(new Date(iso))
}
