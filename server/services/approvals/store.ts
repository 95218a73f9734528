/**
 * Proposals (maker-checker, docs/decisions/0035-maker-checker-and-config-versions.md): recording one, listing them
 * for the users who may decide them, and the shape the API answers.
 */
import { and, asc, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { ApprovalKind } from '../../../domain/back-office/approvals'
import type { Approval } from '../../../domain/contract/approvals'
import type { DbOrTx } from '../../db/client'
import { approval } from '../../db/schema-approval'
import { backOfficeUser } from '../../db/schema-identity'
import { recordChange } from '../audit/audit'

export type ApprovalRow = typeof approval.$inferSelect

export interface Proposal {
  kind: ApprovalKind
  subject: string
  payload: unknown
  note: string
  proposedBy: number
}

/** Records a proposal and its audit entry, in the caller's transaction when it has one. */
export async function propose(db: DbOrTx, proposal: Proposal): Promise<ApprovalRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(approval).values(proposal).returning()
    await recordChange(tx, { entity: 'approval', entityId: row!.id, before: null, after: row })
    return row!
  })
}

const proposer = alias(backOfficeUser, 'proposer')
const decider = alias(backOfficeUser, 'decider')

const person = (id: number | null, name: string | null) =>
  id === null ? null : { id, name: name ?? `#${id}` }

const iso = (at: Date | null) => (at ? at.toISOString() : null)

/** Rows as the API answers them, with the names of who proposed and who decided. */
async function views(
  db: DbOrTx,
  where: SQL | undefined,
  order: SQL[],
  page?: { limit: number; offset: number },
) {
  let query = db
    .select({ row: approval, proposerName: proposer.name, deciderName: decider.name })
    .from(approval)
    .leftJoin(proposer, eq(proposer.id, approval.proposedBy))
    .leftJoin(decider, eq(decider.id, approval.decidedBy))
    .where(where)
    .orderBy(...order)
    .$dynamic()
  if (page) query = query.limit(page.limit).offset(page.offset)
  const rows = await query
  return rows.map(({ row, proposerName, deciderName }) => toView(row, proposerName, deciderName))
}

export function toView(row: ApprovalRow, proposerName: string | null, deciderName: string | null): Approval {
  return {
    id: row.id,
    kind: row.kind as ApprovalKind,
    subject: row.subject,
    payload: row.payload,
    note: row.note,
    status: row.status as Approval['status'],
    proposedBy: person(row.proposedBy, proposerName)!,
    proposedAt: iso(row.proposedAt)!,
    decidedBy: person(row.decidedBy, deciderName),
    decidedAt: iso(row.decidedAt),
    reason: row.reason,
    result: row.result ?? null,
  }
}

export async function approvalView(db: DbOrTx, id: number): Promise<Approval | undefined> {
  const [view] = await views(db, eq(approval.id, id), [])
  return view
}

export interface ProposalQuery {
  status: 'pending' | 'decided'
  kinds: ApprovalKind[]
  subject?: string
  page: number
  perPage: number
}

/** Pending proposals oldest first (the queue), decided ones newest first (the record). */
export async function listProposals(db: DbOrTx, query: ProposalQuery) {
  if (!query.kinds.length) return { items: [], total: 0 }
  const where = and(
    inArray(approval.kind, query.kinds),
    query.status === 'pending' ? eq(approval.status, 'pending') : ne(approval.status, 'pending'),
    query.subject === undefined ? undefined : eq(approval.subject, query.subject),
  )
  const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(approval).where(where)
  const order =
    query.status === 'pending' ? [asc(approval.id)] : [desc(approval.decidedAt), desc(approval.id)]
  const items = await views(db, where, order, {
    limit: query.perPage,
    offset: (query.page - 1) * query.perPage,
  })
  return { items, total: Number(total?.n ?? 0) }
}
