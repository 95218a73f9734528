/**
 * What approving a proposal does, per kind: the action, run in the decision's transaction. `afterCommit` runs once
 * the decision has committed (clearing a cache). Item 5's kinds (a reversal, a write-off, a debt sale) register here.
 */
import type { ApprovalKind } from '../../../domain/back-office/approvals'
import type { Db, DbOrTx } from '../../db/client'
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
