/**
 * Deciding a proposal (docs/decisions/0035-maker-checker-and-config-versions.md). The proposal's row is locked,
 * the rules of domain/back-office/approvals.ts applied, and on approval the action runs in the same transaction:
 * it happens once, whoever else approves at the same moment (the second waits for the lock, then finds it
 * approved and answers what was decided).
 *
 * The kinds whose services open their own transactions (a reversal, a write-off, a debt sale: `outsideExecutors`)
 * are approved in two phases instead: (1) the row locked, the same rules, the proposal claimed (`executing`, the
 * approver recorded), committed; (2) the service run exactly as its direct call ran it (its checks, locks and
 * idempotency hold); (3) the outcome recorded: `approved` with the service's answer, or `failed` with the error's
 * code, and the error answered. A second approver arriving meanwhile finds it `executing` (or decided) and gets
 * 409 `proposalDecided`; the approver of an approved proposal asking again gets what was decided.
 */
import { eq } from 'drizzle-orm'
import { type ApprovalKind, type Decision, decisionRefusal } from '../../../domain/back-office/approvals'
import { conflict, DomainError, forbidden, notFound } from '../../../domain/errors'
import type { Db } from '../../db/client'
import { approval } from '../../db/schema-approval'
import type { AppDeps } from '../../deps'
import { recordChange } from '../audit/audit'
import './config-change'
import './promo-code'
import './servicing-actions'
import { executors, type OutsideExecutor, type OutsideOutcome, outsideExecutors } from './executors'
import { type ApprovalRow, approvalView } from './store'

export interface DecisionRequest {
  id: number
  by: { id: number; roles: readonly string[] }
  decision: Decision
  reason: string
  now: Date
}

type Claim =
  | { phase: 'done'; executor: { afterCommit?: (db: Db) => void } | null }
  | { phase: 'claimed'; executor: OutsideExecutor; row: ApprovalRow }

export async function decide(deps: AppDeps, request: DecisionRequest) {
  const db = deps.database.db
  const claim = await db.transaction(async (tx): Promise<Claim> => {
    const [row] = await tx.select().from(approval).where(eq(approval.id, request.id)).for('update')
    if (!row) throw notFound('Proposal')
    const refusal = decisionRefusal(row, request.by, request.decision)
    if (refusal === 'sameDecision') return { phase: 'done', executor: null }
    if (refusal === 'roleNotAllowed')
      throw forbidden('roleNotAllowed', 'Your roles do not allow deciding this kind of proposal.')
    if (refusal === 'ownProposal')
      throw forbidden('ownProposal', 'A proposal must be decided by someone other than its proposer.')
    if (refusal === 'alreadyDecided')
      throw conflict(
        'proposalDecided',
        row.status === 'executing'
          ? 'This proposal is being executed by another approval.'
          : `This proposal was ${row.status} already.`,
      )
    const outside = outsideExecutors.get(row.kind as ApprovalKind)
    if (request.decision === 'approve' && outside) {
      // Phase 1: claimed, committed before the service opens its own transactions.
      const [after] = await tx
        .update(approval)
        .set({
          status: 'executing',
          decidedBy: request.by.id,
          decidedAt: request.now,
          reason: request.reason || null,
        })
        .where(eq(approval.id, row.id))
        .returning()
      await recordChange(tx, { entity: 'approval', entityId: row.id, before: row, after })
      return { phase: 'claimed', executor: outside, row: after! }
    }
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
    return { phase: 'done', executor: request.decision === 'approve' ? (executor ?? null) : null }
  })
  if (claim.phase === 'claimed') await execute(deps, claim.row, claim.executor, request.by.id)
  // Read straight away by the next request in this process, not after the cache's few seconds.
  else claim.executor?.afterCommit?.(db)
  const view = await approvalView(db, request.id)
  if (!view) throw notFound('Proposal')
  return view
}

/**
 * Phases 2 and 3 of a two-phase approval: the service runs on its own; its outcome (and the changes it made, for
 * the audit) is recorded on the proposal. A refusal marks it `failed` and is answered as the direct call would.
 */
async function execute(deps: AppDeps, row: ApprovalRow, executor: OutsideExecutor, approvedBy: number) {
  const db = deps.database.db
  let outcome: OutsideOutcome
  try {
    outcome = await executor.run({ deps, proposal: row, approvedBy })
  } catch (error) {
    const code = error instanceof DomainError ? error.code : 'internal'
    const message = error instanceof DomainError ? error.message : 'The action failed.'
    await db.transaction(async (tx) => {
      const [after] = await tx
        .update(approval)
        .set({ status: 'failed', result: { error: { code, message } } })
        .where(eq(approval.id, row.id))
        .returning()
      await recordChange(tx, { entity: 'approval', entityId: row.id, before: row, after })
    })
    deps.logger.info({ event: 'approval.failed', approvalId: row.id, code }, 'proposal failed when executed')
    throw error
  }
  await db.transaction(async (tx) => {
    const [after] = await tx
      .update(approval)
      .set({ status: 'approved', result: (outcome.result ?? null) as never })
      .where(eq(approval.id, row.id))
      .returning()
    for (const change of outcome.changes) await recordChange(tx, change)
    await recordChange(tx, { entity: 'approval', entityId: row.id, before: row, after })
  })
}
