/**
 * Issue 19 item 5: a payment reversal, a write-off and a debt sale are proposals (docs/decisions/0035). Proposing
 * checks the input and the obvious preconditions at once (the payment is posted, the loan can be written off, the
 * agency takes debt), with the errors the service itself would give, so a hopeless proposal is refused straight
 * away. Approving runs the service exactly as the direct call did, in two phases (server/services/approvals/
 * decide.ts): its services open their own transactions. The action is done in the proposer's name (who reversed,
 * wrote off, sold, with their reason); the proposal records who approved it.
 */
import { and, eq, inArray } from 'drizzle-orm'
import { conflict, DomainError, notFound } from '../../../domain/errors'
import type { DbOrTx } from '../../db/client'
import { approval } from '../../db/schema-approval'
import { collectionAgency } from '../../db/schema-debt'
import { loan } from '../../db/schema-lending'
import { payment } from '../../db/schema-payments'
import { uniqueViolationOn } from '../journey/journey'
import { loanStateView, paymentById, reverse } from '../payments/back-office'
import { assertAccepts, sellDebt } from '../servicing/debt-sale'
import { writeOff } from '../servicing/write-off'
import { registerOutsideExecutor } from './executors'
import { type Proposal, propose } from './store'

export interface ReversalPayload {
  paymentId: number
  reason: string
}
export interface WriteOffPayload {
  loanId: number
  reason: string
}
export interface DebtSalePayload {
  agencyId: number
  loanIds: number[]
  reason?: string
}

const proposalPending = () =>
  conflict('proposalPending', 'A proposal for this is already waiting for a second approval.')

/**
 * One open proposal per payment or loan (a second one would only fail when approved): checked first for a clear
 * answer, and by the unique index `approval_open_subject_uq` when two are proposed at the same moment.
 */
async function proposeOnce(db: DbOrTx, proposal: Proposal) {
  const [open] = await db
    .select({ id: approval.id })
    .from(approval)
    .where(
      and(
        eq(approval.kind, proposal.kind),
        eq(approval.subject, proposal.subject),
        inArray(approval.status, ['pending', 'executing']),
      ),
    )
  if (open) throw proposalPending()
  try {
    return await propose(db, proposal)
  } catch (error) {
    if (uniqueViolationOn(error) !== null) throw proposalPending()
    throw error
  }
}

export async function proposeReversal(db: DbOrTx, by: number, body: ReversalPayload) {
  const [row] = await db.select().from(payment).where(eq(payment.id, body.paymentId))
  if (!row) throw notFound('Payment')
  if (row.status !== 'posted' || !row.loanId)
    throw new DomainError('conflict', 'paymentNotPosted', 'Only a posted payment can be reversed.')
  return proposeOnce(db, {
    kind: 'payments.reverse',
    subject: String(body.paymentId),
    payload: { paymentId: body.paymentId, reason: body.reason } satisfies ReversalPayload,
    note: body.reason,
    proposedBy: by,
  })
}

export async function proposeWriteOff(db: DbOrTx, by: number, body: WriteOffPayload) {
  const [row] = await db.select().from(loan).where(eq(loan.id, body.loanId))
  if (!row) throw notFound('Loan')
  assertAccepts(row, { type: 'WRITTEN_OFF' })
  return proposeOnce(db, {
    kind: 'loans.write-off',
    subject: String(body.loanId),
    payload: { loanId: body.loanId, reason: body.reason } satisfies WriteOffPayload,
    note: body.reason,
    proposedBy: by,
  })
}

/** The loans are checked one by one when the sale runs (each sold or refused on its own, as before). */
export async function proposeDebtSale(db: DbOrTx, by: number, body: DebtSalePayload) {
  const [agency] = await db.select().from(collectionAgency).where(eq(collectionAgency.id, body.agencyId))
  if (!agency) throw notFound('Collection agency')
  if (!agency.active) throw conflict('agencyInactive', 'This agency no longer takes debt.')
  const payload: DebtSalePayload = { agencyId: body.agencyId, loanIds: [...new Set(body.loanIds)] }
  if (body.reason !== undefined) payload.reason = body.reason
  return propose(db, {
    kind: 'debt.sell',
    subject: String(body.agencyId),
    payload,
    note: body.reason ?? '',
    proposedBy: by,
  })
}

registerOutsideExecutor('payments.reverse', {
  run: async ({ deps, proposal }) => {
    const { paymentId, reason } = proposal.payload as ReversalPayload
    const db = deps.database.db
    const before = await paymentById(db, paymentId)
    await reverse(deps, proposal.proposedBy, paymentId, reason)
    const after = await paymentById(db, paymentId)
    return {
      result: after,
      changes: [{ entity: 'payment', entityId: paymentId, clientId: after.clientId ?? null, before, after }],
    }
  },
})

registerOutsideExecutor('loans.write-off', {
  run: async ({ deps, proposal }) => {
    const { loanId, reason } = proposal.payload as WriteOffPayload
    const db = deps.database.db
    const before = await loanStateView(db, loanId)
    const { amount } = await writeOff(deps, proposal.proposedBy, loanId, reason)
    const result = { ...(await loanStateView(db, loanId)), amount }
    const [owner] = await db.select({ clientId: loan.clientId }).from(loan).where(eq(loan.id, loanId))
    return {
      result,
      changes: [
        { entity: 'loan', entityId: loanId, clientId: owner?.clientId ?? null, before, after: result },
      ],
    }
  },
})

registerOutsideExecutor('debt.sell', {
  run: async ({ deps, proposal }) => {
    const { saleId, agencyId, sold, refused } = await sellDebt(
      deps,
      proposal.proposedBy,
      proposal.payload as DebtSalePayload,
    )
    const result = { saleId, agencyId, sold, refused }
    return { result, changes: [{ entity: 'debt_sale', entityId: saleId, before: null, after: result }] }
  },
})
