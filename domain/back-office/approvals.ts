/**
 * Maker-checker (issue 19 items 5 and 6, docs/decisions/0035-maker-checker-and-config-versions.md): the pure rules.
 * A proposal's kind is the permission of the action it proposes; whoever decides it must hold that permission and
 * must not be its proposer; a proposal is decided once.
 */
import { mayDo, type Permission } from './roles'

/** The actions that need a second person: each is proposed and decided under its own permission. */
export const approvalKinds = [
  'config.change',
  'payments.reverse',
  'loans.write-off',
  'debt.sell',
  'promo_code',
] as const
export type ApprovalKind = (typeof approvalKinds)[number]

/** The permission a kind needs: its own name, but a promo code's change is a configuration change. */
export const approvalPermission = (kind: ApprovalKind): Permission =>
  kind === 'promo_code' ? 'config.change' : kind

/**
 * `executing` and `failed` belong to the kinds run outside the decision's transaction (a reversal, a write-off,
 * a debt sale: their services open their own transactions): claimed by an approver and running, or refused by
 * the service when run (a failed proposal may be proposed again).
 */
export const approvalStatuses = ['pending', 'approved', 'rejected', 'executing', 'failed'] as const
export type ApprovalStatus = (typeof approvalStatuses)[number]

export type Decision = 'approve' | 'reject'

export interface ProposalFacts {
  kind: string
  status: ApprovalStatus | string
  proposedBy: number
  decision?: Decision
}

/**
 * Why a user may not decide a proposal, or null when they may. `decided` on an approval already approved (and a
 * rejection already rejected) is not a refusal: deciding twice the same way answers what was decided (idempotent).
 */
export function decisionRefusal(
  proposal: ProposalFacts,
  decider: { id: number; roles: readonly string[] },
  decision: Decision,
): 'roleNotAllowed' | 'ownProposal' | 'alreadyDecided' | 'sameDecision' | null {
  if (!isApprovalKind(proposal.kind) || !mayDo(decider.roles, approvalPermission(proposal.kind)))
    return 'roleNotAllowed'
  if (proposal.proposedBy === decider.id) return 'ownProposal'
  if (proposal.status !== 'pending') {
    return proposal.status === (decision === 'approve' ? 'approved' : 'rejected')
      ? 'sameDecision'
      : 'alreadyDecided'
  }
  return null
}

export const isApprovalKind = (kind: string): kind is ApprovalKind =>
  (approvalKinds as readonly string[]).includes(kind)

/**
 * The kinds whose action runs in two phases (docs/decisions/0035): the proposal is claimed (`executing`) in one
 * transaction, the action's own service runs as the direct call did, and the outcome is recorded after it.
 */
export const twoPhaseKinds: readonly ApprovalKind[] = ['payments.reverse', 'loans.write-off', 'debt.sell']

/** The kinds of proposal a user holding `roles` may see and decide. */
export const decidableKinds = (roles: readonly string[]): ApprovalKind[] =>
  approvalKinds.filter((kind) => mayDo(roles, approvalPermission(kind)))
