/**
 * Maker-checker calls (issue 19 items 5 and 6, docs/decisions/0035-maker-checker-and-config-versions.md): the
 * proposals waiting for a second person and those decided, and the decision itself. Each call needs only a
 * session: whether a user may see and decide a proposal depends on its kind (the permission of the action it
 * proposes, domain/back-office/approvals.ts), which the server checks per proposal.
 */
import * as v from 'valibot'
import { approvalKinds, approvalStatuses } from '../back-office/approvals'
import { idString } from '../ids'
import { safeMultilineString } from '../safe-text'
import { defineContract } from './define'
import { pagingQuery } from './reference'

const timestamp = v.string()

export const approvalSchema = v.object({
  id: v.number(),
  kind: v.picklist(approvalKinds),
  /** A configuration key, a payment id, a loan id, an agency id (a debt sale). */
  subject: v.string(),
  payload: v.unknown(),
  note: v.string(),
  status: v.picklist(approvalStatuses),
  proposedBy: v.object({ id: v.number(), name: v.string() }),
  proposedAt: timestamp,
  decidedBy: v.nullable(v.object({ id: v.number(), name: v.string() })),
  decidedAt: v.nullable(timestamp),
  reason: v.nullable(v.string()),
  result: v.unknown(),
})
export type Approval = v.InferOutput<typeof approvalSchema>

export const listApprovals = defineContract({
  method: 'get',
  path: '/private/back-office/approvals',
  summary:
    'Back office: proposals waiting for a second person (pending, oldest first) or decided (newest first), of the kinds the user may decide (x-* pagination headers)',
  tags: ['back-office', 'approvals'],
  access: 'user',
  permission: 'session',
  query: v.object({
    status: v.optional(v.picklist(['pending', 'decided']), 'pending'),
    kind: v.optional(v.picklist(approvalKinds)),
    ...pagingQuery(50, 200),
  }),
  paginated: true,
  response: v.array(approvalSchema),
})

const params = v.object({ id: idString(undefined, 'The id must be a number.') })

export const approveProposal = defineContract({
  method: 'post',
  path: '/private/back-office/approvals/:id/approve',
  summary:
    "Back office: approve another user's proposal (the action's permission is needed) and execute it: a configuration change in the same transaction; a reversal, a write-off or a debt sale in two phases (executing, then approved with the result or failed with the service's refusal, answered as such); approving an approved proposal answers it, one executing is 409 proposalDecided",
  tags: ['back-office', 'approvals'],
  access: 'user',
  permission: 'session',
  params,
  body: v.object({
    reason: v.optional(
      v.pipe(safeMultilineString(), v.trim(), v.maxLength(500, 'At most 500 characters.')),
      '',
    ),
  }),
  response: approvalSchema,
})

export const rejectProposal = defineContract({
  method: 'post',
  path: '/private/back-office/approvals/:id/reject',
  summary: "Back office: reject another user's proposal, with a reason (the action's permission is needed)",
  tags: ['back-office', 'approvals'],
  access: 'user',
  permission: 'session',
  params,
  body: v.object({
    reason: v.pipe(
      safeMultilineString(),
      v.trim(),
      v.minLength(3, 'Give a reason of at least 3 characters.'),
      v.maxLength(500, 'At most 500 characters.'),
    ),
  }),
  response: approvalSchema,
})
