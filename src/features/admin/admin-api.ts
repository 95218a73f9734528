/**
 * The back office's calls: the review queue and its decision (server/services/lending/review-queue.ts,
 * PUT /private/back-office/application/{id}/decision) and the sandbox outbox.
 */
import type { BackOfficeDecision, ReviewItem } from '../../../domain/back-office-decision'
import type { ApiClient } from '../../api/client'

export type { ReviewItem }

export interface OutboxMessage {
  id: number
  channel: string
  recipient: string
  subject: string | null
  body: string
  purpose: string
  createdAt: string
}

export const adminQueryKeys = {
  queue: ['admin', 'review-queue'] as const,
  outbox: (recipient: string) => ['admin', 'outbox', recipient] as const,
}

export const fetchReviewQueue = (api: ApiClient, signal?: AbortSignal) =>
  api.get<ReviewItem[]>('/private/back-office/review-queue', { signal })

export const decideApplication = (api: ApiClient, id: number, decision: BackOfficeDecision) =>
  api.put<{ id: number; status: number }>(`/private/back-office/application/${id}/decision`, decision)

export const fetchOutbox = (api: ApiClient, recipient: string, signal?: AbortSignal) =>
  api.page<OutboxMessage>('/private/back-office/outbox', {
    signal,
    query: { recipient: recipient || undefined, perPage: 20 },
  })

/** A UTC instant as Manila wall time, 'Nov 24, 2026, 17:05'. */
export function manilaDateTime(iso: string): string {
  return new Intl.DateTimeFormat('en-PH', {
    timeZone: 'Asia/Manila',
    dateStyle: 'medium',
    timeStyle: 'short',
    hourCycle: 'h23',
  }).format(new Date(iso))
}
