/**
 * Issue 16, item 9: the batched posting of paid webhooks (server/services/payments/batch-posting.ts) writes what
 * the single path writes. Loans with the same figures are paid the same amount, half of them together through the
 * batch, half one by one through `receivePayment` and its receipt; their ledgers, loan rows, history rows and
 * receipts must match. The batch must really post (it falls back to the single path silently otherwise, which
 * would hide a broken batch behind passing webhook tests). Runs on PGlite, and on PostgreSQL when DATABASE_URL
 * is set.
 */
import { and, asc, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { paymentReferenceOf } from '../../domain/payments/reference'
import { createLoanFixture } from '../../scripts/bench-payments-fixture'
import { outboxMessage } from '../../server/db/schema-identity'
import { stateTransition } from '../../server/db/schema-journey'
import { loan } from '../../server/db/schema-lending'
import { loanLedgerEntry, payment, paymentEvent, servicingJob } from '../../server/db/schema-payments'
import { postPaidInBatch, receiptsSent } from '../../server/services/payments/batch-posting'
import { RECEIPT_JOB } from '../../server/services/payments/job-kinds'
import { afterPosting, receivePayment } from '../../server/services/payments/posting'
import { createTestApp } from '../support/app'
import type { TestApp } from './identity-helpers'

let t: TestApp
let clientIds: number[]

beforeAll(async () => {
  t = await createTestApp()
  // Client i and i + 5 get the same offer (the fixture cycles through 5).
  ;({ clientIds } = (await createLoanFixture(t.deps.database, 10)) as { clientIds: number[] })
})

afterAll(async () => {
  await t?.close()
})

const amountOf = (i: number) => 20_000 + i * 7_001

async function stateOf(clientId: number) {
  const db = t.deps.database.db
  const [row] = await db.select().from(loan).where(eq(loan.clientId, clientId))
  const entries = await db
    .select()
    .from(loanLedgerEntry)
    .where(eq(loanLedgerEntry.loanId, row!.id))
    .orderBy(asc(loanLedgerEntry.id))
  const [paid] = await db.select().from(payment).where(eq(payment.clientId, clientId))
  const history = await db
    .select()
    .from(stateTransition)
    .where(and(eq(stateTransition.machine, 'loanLifecycle'), eq(stateTransition.subjectId, row!.id)))
    .orderBy(asc(stateTransition.id))
  const [job] = await db
    .select()
    .from(servicingJob)
    .where(and(eq(servicingJob.kind, RECEIPT_JOB), eq(servicingJob.subjectId, String(paid!.id))))
  const messages = await db
    .select()
    .from(outboxMessage)
    .where(inArray(outboxMessage.purpose, ['payment_receipt']))
  const loanNumber = `L${String(row!.id).padStart(8, '0')}`
  return {
    loan: {
      state: row!.state,
      plan: row!.plan,
      status: row!.status,
      version: row!.version,
      accruedDays: row!.accruedDays,
      accrualBasis: row!.accrualBasis,
    },
    entries: entries.map((e) => ({
      kind: e.kind,
      part: e.part,
      amount: e.amount,
      memo: e.memo,
      businessDate: e.businessDate,
      ofThePayment: e.paymentId === paid!.id,
    })),
    payment: {
      status: paid!.status,
      amount: paid!.amount,
      businessDate: paid!.businessDate,
      posted: paid!.postedAt !== null,
      source: paid!.source,
    },
    history: history.map((h) => ({ from: h.fromState, to: h.toState, event: h.event, actor: h.actorKind })),
    receipt: { done: job?.doneAt != null, attempts: job?.attempts },
    receiptBodies: messages
      .filter((m) => m.body.includes(loanNumber))
      .map((m) => `${m.channel}:${m.body.replace(loanNumber, 'L')}`)
      .sort(),
  }
}

it('posts a batch of paid events with the entries, loan rows, history and receipts of the single path', async () => {
  const batched = clientIds.slice(0, 5)
  const single = clientIds.slice(5, 10)
  const at = t.deps.now()
  for (const [i, clientId] of single.entries()) {
    const { paymentId, outcome } = await receivePayment(t.deps, {
      provider: 'sandbox',
      providerPaymentId: `chg_single_${clientId}`,
      reference: paymentReferenceOf(clientId),
      amount: amountOf(i),
      channel: 'gcash',
      paidAt: at,
      source: 'webhook',
    })
    expect(outcome).toBe('posted')
    await afterPosting(t.deps, paymentId)
  }
  const outcomes = await Promise.all(
    batched.map((clientId, i) =>
      postPaidInBatch(t.deps, 'sandbox', {
        id: `evt_batch_${clientId}`,
        type: 'payment.paid',
        createdAt: at.toISOString(),
        data: {
          paymentId: `chg_batch_${clientId}`,
          reference: paymentReferenceOf(clientId),
          amount: amountOf(i),
          currency: 'PHP',
          channel: 'gcash',
          paidAt: at.toISOString(),
        },
      } as Parameters<typeof postPaidInBatch>[2]),
    ),
  )
  expect(outcomes).toEqual(['posted', 'posted', 'posted', 'posted', 'posted'])
  // The webhooks answered at the commit; their receipts follow.
  await receiptsSent(t.deps)
  for (let i = 0; i < 5; i++) {
    const [b, s] = [await stateOf(batched[i]!), await stateOf(single[i]!)]
    expect(b.receipt).toEqual({ done: true, attempts: 1 })
    expect(b.receiptBodies).toHaveLength(2)
    expect(b, `client pair ${i}`).toEqual(s)
  }
  // The batch's inbox rows say what happened.
  const inbox = await t.deps.database.db
    .select()
    .from(paymentEvent)
    .where(
      inArray(
        paymentEvent.providerPaymentId,
        batched.map((c) => `chg_batch_${c}`),
      ),
    )
  expect(inbox.map((r) => r.outcome)).toEqual(['posted', 'posted', 'posted', 'posted', 'posted'])
  expect(inbox.every((r) => r.paymentId !== null)).toBe(true)
})
