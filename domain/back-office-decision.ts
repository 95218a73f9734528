/**
 * The back office's review of applications waiting for a person (manual verification 14, decision error 401):
 * what GET /private/back-office/review-queue answers for each, and the decision, which the back-office form
 * (src/features/admin) and PUT /private/back-office/application/{id}/decision validate with this one schema.
 */
import * as v from 'valibot'
import { safeMultilineString } from './safe-text'

export const backOfficeDecisionSchema = v.object({
  decision: v.picklist(['approve', 'reject'], 'The decision is approve or reject.'),
  reason: v.pipe(
    safeMultilineString('A reason is required.'),
    v.trim(),
    v.minLength(3, 'A reason of at least 3 characters is required.'),
    v.maxLength(500, 'At most 500 characters.'),
  ),
})

export type BackOfficeDecision = v.InferOutput<typeof backOfficeDecisionSchema>

/** One application in the review queue. */
export interface ReviewItem {
  id: number
  status: number
  clientId: number
  clientName: string
  phone: string
  /** Centavos. */
  amount: number
  term: number
  /** UTC, ISO 8601. */
  createdAt: string
  /** The latest decision: why the engine sent it to a person. */
  decision: {
    outcome: string
    reasons: string[]
    rules: { rule: string; passed: boolean }[]
    createdAt: string
  } | null
}
