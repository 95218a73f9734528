/**
 * The back office's calls: the review queue and its decision (server/services/lending/review-queue.ts,
 * PUT /private/back-office/application/{id}/decision) and the sandbox outbox.
 */
import type { BackOfficeDecision, ReviewItem } from '../../../domain/back-office-decision'
import { listOutbox } from '../../../domain/contract/back-office'
import type { ApiClient } from '../../api/client'

export type { ReviewItem }

export const adminQueryKeys = {
  queue: ['admin', 'review-queue'] as const,
  outbox: (recipient: string) => ['admin', 'outbox', recipient] as const,
}

export const fetchReviewQueue = (api: ApiClient, signal?: AbortSignal) =>
  api.get<ReviewItem[]>('/private/back-office/review-queue', { signal })

export const decideApplication = (api: ApiClient, id: number, decision: BackOfficeDecision) =>
  api.put<{ id: number; status: number }>(`/private/back-office/application/${id}/decision`, decision)

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
