/**
 * Deciding a proposal (docs/decisions/0035-maker-checker-and-config-versions.md). The proposal's row is locked,
 * the rules of domain/back-office/approvals.ts applied, and on approval the action runs in the same transaction:
 * it happens once, whoever else approves at the same moment (the second waits for the lock, then finds it
 * approved and answers what was decided).
 */
import { eq } from 'drizzle-orm'
import { type Decision, decisionRefusal } from '../../../domain/back-office/approvals'
import { conflict, DomainError, forbidden, notFound } from '../../../domain/errors'
import type { Db } from '../../db/client'
import { approval } from '../../db/schema-approval'
import { recordChange } from '../audit/audit'
import './config-change'
import { executors } from './executors'
import { approvalView } from './store'

export interface DecisionRequest {
  id: number
  by: { id: number; roles: readonly string[] }
  decision: Decision
  reason: string
  now: Date
}

export async function decide(db: Db, request: DecisionRequest) {
  const executed = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(approval).where(eq(approval.id, request.id)).for('update')
    if (!row) throw notFound('Proposal')
    const refusal = decisionRefusal(row, request.by, request.decision)
    if (refusal === 'sameDecision') return null
    if (refusal === 'roleNotAllowed')
      throw forbidden('roleNotAllowed', 'Your roles do not allow deciding this kind of proposal.')
    if (refusal === 'ownProposal')
      throw forbidden('ownProposal', 'A proposal must be decided by someone other than its proposer.')
    if (refusal === 'alreadyDecided')
      throw conflict('proposalDecided', `This proposal was ${row.status} already.`)
    const executor = executors.get(row.kind as never)
    if (request.decision === 'approve' && !executor)
      throw new DomainError('unavailable', 'noExecutor', 'This kind of proposal cannot be executed yet.')
    const result =
      request.decision === 'approve'
        ? await executor!.execute({ tx, proposal: row, approvedBy: request.by.id, now: request.now })
        : null
    const [after] = await tx
      .update(approval)
      .set({
        status: request.decision === 'approve' ? 'approved' : 'rejected',
        decidedBy: request.by.id,
        decidedAt: request.now,
        reason: request.reason || null,
        result: result ?? null,
      })
      .where(eq(approval.id, row.id))
      .returning()
    await recordChange(tx, { entity: 'approval', entityId: row.id, before: row, after })
    return request.decision === 'approve' ? executor : null
  })
  // Read straight away by the next request in this process, not after the cache's few seconds.
  executed?.afterCommit?.(db)
  const view = await approvalView(db, request.id)
  if (!view) throw notFound('Proposal')
  return view
}
