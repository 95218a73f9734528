/**
 * The review queue's rules (issue 19 item 4, docs/decisions/0036-review-queue.md): the four-eyes rule on
 * approvals, the configuration it reads, the queue's filters and what the queue answers for each application.
 * Pure: the server (server/services/lending/review-queue.ts, decision.ts) and the admin screen
 * (src/features/admin/review-queue.tsx) import these, so both agree on what "needs a second approval" means.
 */
import * as v from 'valibot'
import { idNumber } from '../ids'
import { calendarDaySchema, safeString } from '../safe-text'

// ---------------------------------------------------------------------------------------------------------
// Configuration: key 'review'

export const REVIEW_CONFIG_KEY = 'review'

/** PHP 1 000 000.00 in centavos: a threshold above it would switch the rule off in all but name. */
export const FOUR_EYES_MAX_CENTAVOS = 100_000_000

export const reviewConfigSchema = v.object({
  /**
   * An approval of an application whose amount is strictly above this (centavos) needs two different
   * underwriters. 0 makes every approval a four-eyes approval.
   */
  fourEyesAboveCentavos: v.pipe(
    v.number('The threshold must be a number of centavos.'),
    v.integer('The threshold must be a whole number of centavos.'),
    v.minValue(0, 'The threshold cannot be negative.'),
    v.maxValue(FOUR_EYES_MAX_CENTAVOS, 'The threshold is too large.'),
  ),
})
export type ReviewConfig = v.InferOutput<typeof reviewConfigSchema>

/** PHP 10 000.00: the seeded default (migration 0020). */
export const defaultReviewConfig: ReviewConfig = { fourEyesAboveCentavos: 1_000_000 }

// ---------------------------------------------------------------------------------------------------------
// The four-eyes rule

/** Whether approving an application of `amount` centavos needs two underwriters. */
export const needsFourEyes = (amount: number, config: ReviewConfig) => amount > config.fourEyesAboveCentavos

export interface ApprovalState {
  /** Centavos: the application's amount as it stands. */
  amount: number
  /** The application's version now. */
  version: number
  /** The first signature, if any: who gave it, on which version of the application. */
  firstApproval: { by: number; version: number } | null
}

/**
 * What an approval by `userId` does: `complete` (the application is approved), `first` (recorded as the first
 * signature; the application waits for a second underwriter), or `sameUser` (refused: this user gave the first
 * signature and cannot give the second). A first signature on an older version of the application (the figures
 * changed since) no longer counts. A rejection always needs one person and is not asked here.
 */
export function approvalStep(
  state: ApprovalState,
  userId: number,
  config: ReviewConfig,
): 'complete' | 'first' | 'sameUser' {
  if (!needsFourEyes(state.amount, config)) return 'complete'
  const first =
    state.firstApproval && state.firstApproval.version === state.version ? state.firstApproval : null
  if (!first) return 'first'
  return first.by === userId ? 'sameUser' : 'complete'
}

// ---------------------------------------------------------------------------------------------------------
// The queue's filters (the query of GET /private/back-office/review-queue, next to its paging)

/** What kind of review: manual verification (14), decision error (401), or an approval waiting for its second signature. */
export const reviewKinds = ['manual', 'error', 'second'] as const
export type ReviewKind = (typeof reviewKinds)[number]
export const reviewAssignees = ['anyone', 'me', 'unassigned'] as const
export type ReviewAssignee = (typeof reviewAssignees)[number]

const MAX_QUERY_CENTAVOS = 1_000_000_000

/** Centavos in a query string: digits, 0 up to the largest amount an application can have. */
const centavosQuery = v.pipe(
  safeString(),
  v.regex(/^(0|[1-9]\d{0,9})$/, 'Must be a whole number of centavos.'),
  v.transform(Number),
  v.maxValue(MAX_QUERY_CENTAVOS, 'The amount is too large.'),
)

/** A real calendar day YYYY-MM-DD (2026-02-30 is refused, not rolled over). */
const calendarDay = calendarDaySchema()

/** The filters; each one absent means "any". Dates are Manila calendar days, both ends included. */
export const reviewFilterEntries = {
  kind: v.optional(v.picklist(reviewKinds, 'The kind is manual, error or second.')),
  assignee: v.optional(v.picklist(reviewAssignees, 'The assignee is anyone, me or unassigned.'), 'anyone'),
  minAmount: v.optional(centavosQuery),
  maxAmount: v.optional(centavosQuery),
  from: v.optional(calendarDay),
  to: v.optional(calendarDay),
}

export const reviewFiltersSchema = v.pipe(
  v.object(reviewFilterEntries),
  v.check(
    (f) => f.minAmount === undefined || f.maxAmount === undefined || f.minAmount <= f.maxAmount,
    'The lowest amount must not be above the highest.',
  ),
  v.check((f) => !f.from || !f.to || f.from <= f.to, 'The first day must not be after the last.'),
)
export type ReviewFilters = v.InferOutput<typeof reviewFiltersSchema>

// ---------------------------------------------------------------------------------------------------------
// Assignment

/**
 * The body of POST /private/back-office/application/{id}/assign: `userId` absent takes the application oneself,
 * `null` releases it, a number gives it to that user (an administrator only).
 */
export const assignBodySchema = v.object({
  userId: v.optional(v.nullable(idNumber())),
})
export type AssignBody = v.InferInput<typeof assignBodySchema>

// ---------------------------------------------------------------------------------------------------------
// The answer

const person = v.object({ id: v.number(), name: v.string() })

/** One application in the review queue. */
export const reviewQueueItemSchema = v.object({
  id: v.number(),
  status: v.number(),
  clientId: v.number(),
  clientName: v.string(),
  phone: v.string(),
  /** Centavos. */
  amount: v.number(),
  term: v.number(),
  /** UTC, ISO 8601. */
  createdAt: v.string(),
  /** The latest decision: why the engine sent it to a person. */
  decision: v.nullable(
    v.object({
      outcome: v.string(),
      reasons: v.array(v.string()),
      rules: v.array(v.object({ rule: v.string(), passed: v.boolean() })),
      createdAt: v.string(),
    }),
  ),
  /** Who works on it, since when (UTC). */
  assignment: v.nullable(v.object({ to: person, at: v.string() })),
  /** Whether an approval needs two underwriters (the amount is above the configured threshold). */
  fourEyes: v.boolean(),
  /** The first signature of a four-eyes approval, still valid for the application as it stands. */
  firstApproval: v.nullable(v.object({ by: person, at: v.string() })),
})
export type ReviewQueueItem = v.InferOutput<typeof reviewQueueItemSchema>
