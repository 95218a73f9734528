/**
 * What approving a proposal does, per kind: the action, run in the decision's transaction. `afterCommit` runs once
 * the decision has committed (clearing a cache). Item 5's kinds (a reversal, a write-off, a debt sale) register
 * an `Outside` executor instead: their services open their own transactions on the main handle (one connection
 * on PGlite), so they run after the proposal was claimed and that transaction committed (server/services/approvals/
 * decide.ts, docs/decisions/0035).
 */
import type { ApprovalKind } from '../../../domain/back-office/approvals'
import type { Db, DbOrTx } from '../../db/client'
import type { AppDeps } from '../../deps'
import type { AuditChange } from '../audit/audit'
import type { ApprovalRow } from './store'

export interface Execution {
  tx: DbOrTx
  proposal: ApprovalRow
  approvedBy: number
  now: Date
}

export interface Executor {
  execute: (run: Execution) => Promise<unknown>
  afterCommit?: (db: Db) => void
}

export const executors = new Map<ApprovalKind, Executor>()

export function registerExecutor(kind: ApprovalKind, executor: Executor) {
  executors.set(kind, executor)
}

export interface OutsideExecution {
  deps: AppDeps
  proposal: ApprovalRow
  approvedBy: number
}

/** What an outside executor answers: the result stored on the proposal, and the changes it made, for the audit. */
export interface OutsideOutcome {
  result: unknown
  changes: AuditChange[]
}

/** An action run outside any transaction of the decision, exactly as its direct call ran it. */
export interface OutsideExecutor {
  run: (run: OutsideExecution) => Promise<OutsideOutcome>
}

export const outsideExecutors = new Map<ApprovalKind, OutsideExecutor>()

export function registerOutsideExecutor(kind: ApprovalKind, executor: OutsideExecutor) {
  outsideExecutors.set(kind, executor)
}
