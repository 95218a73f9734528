/**
 * Issue 16 under concurrency (Done when: "50 different payments to one loan at once give the same balances as one
 * after the other; on PGlite and on PostgreSQL"). Three clients with identical loans (same principal, term and
 * payout day) get the same 50 payments: one at once through the posting service, one at once as 50 signed
 * gateway webhooks, one one after the other; their balances, their loans' accrual and their ledgers' entries per
 * kind must be the same. The amounts are chosen so that no order can change the entries (no payment total lands
 * on a part's boundary, none leaves a residue to waive). Then 50 concurrent proposals to reverse the payment that
 * repaid a loan make one, and 50 administrators approving it at once reverse it once, reopen the loan once and
 * move the journey once (maker-checker, issue 19 item 5); and a reversal
 * while the overpayment's refund is on its way to the client's account is refused.
 * Runs on PGlite, and on PostgreSQL (a real pool of connections) when DATABASE_URL is set.
 */
import { randomInt } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paymentReferenceOf } from '../../domain/payments/reference'
import { stateTransition } from '../../server/db/schema-journey'
import { servicingAction } from '../../server/db/schema-payments'
import { newChargeId, newEventId, signatureFor } from '../../server/providers/payment-gateway-sandbox'
import { type PayoutProvider, sandboxPayout } from '../../server/providers/payout'
import { runServicingJobs } from '../../server/services/payments/jobs'
import { receivePayment } from '../../server/services/payments/posting'
import { createTestApp, TEST_GATEWAY_SECRET } from '../support/app'
import { deferred } from '../support/deferred'
import { staffMember } from '../support/staff'
import { call, type SignedUp, type TestApp } from './identity-helpers'
import { adminToken, clientAt, seedSmallPsgc } from './journey-helpers'
import {
  allParts,
  backOffice,
  effectOf,
  kindCounts,
  type LoanSnapshot,
  loanOf,
  outstanding,
  snapshotOf,
} from './servicing-helpers'

const N = 50

/** The smallest prime from 101 up dividing none of `boundaries`: multiples of it never sum to one of them. */
function primeAvoiding(boundaries: number[]): number {
  const isPrime = (n: number) => {
    for (let d = 2; d * d <= n; d++) if (n % d === 0) return false
    return true
  }
  for (let p = 101; ; p++) if (isPrime(p) && boundaries.every((b) => b % p !== 0)) return p
}

/**
 * N payment amounts for a loan whose today's balances are `today`: multiples of a prime that divides neither the
 * fees nor fees + interest (so no running total ends exactly on a part, whatever the order), adding up to more
 * than fees and interest (the payments cross into principal) and to at most the payoff less 101 centavos (no
 * order leaves a residue of a peso or less to waive, nor any credit).
 */
function amountsFor(today: LoanSnapshot['today']): number[] {
  const payoff = outstanding(today)
  const p = primeAvoiding([today.fees, today.fees + today.interest].filter((b) => b > 0))
  const budget = Math.floor((payoff - 101) / p)
  const most = Math.floor(budget / N)
  const amounts = Array.from({ length: N }, () => p * randomInt(Math.max(1, Math.floor(most / 2)), most + 1))
  const total = amounts.reduce((a, b) => a + b, 0)
  expect(total).toBeLessThanOrEqual(payoff - 101)
  expect(total).toBeGreaterThan(today.fees + today.interest)
  return amounts
}

describe('payments under concurrency', () => {
  let t: TestApp
  let admin: string
  let bo: ReturnType<typeof backOffice>
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await adminToken(t)
    bo = backOffice(t, admin)
  })
  afterAll(() => t?.close())

  const incoming = (c: SignedUp, id: string, amount: number) => ({
    provider: 'sandbox',
    providerPaymentId: id,
    reference: paymentReferenceOf(c.clientId),
    amount,
    channel: 'gcash' as const,
    paidAt: new Date(),
    source: 'webhook' as const,
  })

  /** One signed paid event of the sandbox gateway, delivered to our webhook endpoint. */
  async function webhook(c: SignedUp, amount: number) {
    const at = new Date()
    const raw = JSON.stringify({
      id: newEventId(),
      type: 'payment.paid',
      createdAt: at.toISOString(),
      data: {
        paymentId: newChargeId(),
        reference: paymentReferenceOf(c.clientId),
        amount,
        currency: 'PHP',
        channel: 'gcash',
        paidAt: at.toISOString(),
      },
    })
    const res = await t.request('/web/public/payments/webhook/sandbox', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'hiram-signature': signatureFor(TEST_GATEWAY_SECRET, raw, at),
      },
      body: raw,
    })
    return { status: res.status, body: (await res.json()) as { data: { outcome: string } } }
  }

  /** What must be equal between loans paid the same: balances, accrual, state, entries per kind, payments. */
  const comparable = (s: LoanSnapshot) => ({
    booked: s.booked,
    today: s.today,
    payoff: s.statement.payoff,
    state: s.row.state,
    accruedDays: s.row.accruedDays,
    accrualBasis: s.row.accrualBasis,
    kinds: kindCounts(s.entries),
    payments: s.payments.map((p) => [p.status, p.amount]).sort((a, b) => Number(a[1]) - Number(b[1])),
  })

  it('50 different payments to one loan at once give the balances and entries of the same 50 one after the other', async () => {
    const [concurrent, webhooks, sequential] = [
      await clientAt(t, 'loan_page'),
      await clientAt(t, 'loan_page'),
      await clientAt(t, 'loan_page'),
    ]
    const loans = [await loanOf(t, concurrent), await loanOf(t, webhooks), await loanOf(t, sequential)]
    // Identical loans: the same contract, paid out the same day.
    const contract = (l: (typeof loans)[number]) => [l.principal, l.interest, l.term, l.startDate, l.feeLines]
    expect(contract(loans[1]!)).toEqual(contract(loans[0]!))
    expect(contract(loans[2]!)).toEqual(contract(loans[0]!))
    const start = await snapshotOf(t, sequential, loans[2]!.id)
    expect((await snapshotOf(t, concurrent, loans[0]!.id)).today).toEqual(start.today)
    const amounts = amountsFor(start.today)
    const total = amounts.reduce((a, b) => a + b, 0)

    const atOnce = await Promise.all(
      amounts.map((amount, i) =>
        receivePayment(t.deps, incoming(concurrent, `conc-${concurrent.clientId}-${i}`, amount)),
      ),
    )
    expect(atOnce.map((r) => r.outcome)).toEqual(Array(N).fill('posted'))
    expect(new Set(atOnce.map((r) => r.paymentId)).size).toBe(N)

    const delivered = await Promise.all(amounts.map((amount) => webhook(webhooks, amount)))
    expect(delivered.map((d) => [d.status, d.body.data.outcome])).toEqual(Array(N).fill([200, 'posted']))

    for (const [i, amount] of amounts.entries()) {
      const one = await receivePayment(
        t.deps,
        incoming(sequential, `seq-${sequential.clientId}-${i}`, amount),
      )
      expect(one.outcome).toBe('posted')
    }

    const after = await snapshotOf(t, sequential, loans[2]!.id)
    // One after the other: the payoff less every payment, in the allocation order, nothing waived, no credit.
    expect(after.statement.payoff).toBe(outstanding(start.today) - total)
    expect(after.today).toMatchObject({ fees: 0, interest: 0, penalties: 0, credit: 0 })
    expect(after.today.principal).toBe(
      start.today.principal - (total - start.today.fees - start.today.interest),
    )
    expect(after.row.state).toBe('active')
    // One allocation entry per payment, and one more for each part boundary a payment crossed (fees, interest).
    const crossed = (start.today.fees > 0 ? 1 : 0) + (start.today.interest > 0 ? 1 : 0)
    expect(kindCounts(after.entries)).toMatchObject({ allocation: N + crossed, interest_accrual: 1 })
    expect(kindCounts(after.entries).residue_waiver).toBeUndefined()
    for (const [c, l] of [
      [concurrent, loans[0]!],
      [webhooks, loans[1]!],
    ] as const) {
      const s = await snapshotOf(t, c, l.id)
      expect(comparable(s)).toEqual(comparable(after))
      // Each payment allocated whole: what it paid, part by part, adds up to its amount.
      for (const p of s.payments) {
        const effect = effectOf(s.entries, p.id)
        expect(effect.credit).toBe(0)
        expect(-(effect.penalties + effect.fees + effect.interest + effect.principal)).toBe(p.amount)
      }
    }
  }, 180_000)

  it('50 concurrent reversals of the payment that repaid a loan reverse it once, reopen the loan once', async () => {
    const c = await clientAt(t, 'loan_page')
    const loan = await loanOf(t, c)
    const before = await snapshotOf(t, c, loan.id)
    const repaid = await bo.pay(c, before.statement.payoff, `repay-key-${c.clientId}`)
    expect(repaid.status, JSON.stringify(repaid.body.response)).toBe(201)
    const paid = await snapshotOf(t, c, loan.id)
    expect([paid.row.state, paid.step]).toEqual(['paid', 'no_loan_page'])

    // Maker-checker (issue 19 item 5): 50 proposals at once make one (the rest 409 proposalPending); 50
    // different administrators approving it at once execute it once: the first claims it, those arriving while it
    // runs get 409 proposalDecided, those arriving after it answer the approval (200).
    const path = `/private/back-office/payments/${repaid.body.data.id}/reversal`
    const proposed = await Promise.all(
      Array.from({ length: N }, () =>
        call<{ id: number }>(t, 'POST', path, { reason: 'Chargeback' }, { token: admin }),
      ),
    )
    expect(proposed.map((a) => a.status).sort()).toEqual([202, ...Array(N - 1).fill(409)])
    for (const a of proposed) if (a.status === 409) expect(a.body.response.code).toBe('proposalPending')
    const proposalId = proposed.find((a) => a.status === 202)!.body.data.id
    const approvers = await Promise.all(Array.from({ length: N }, () => staffMember(t, 'administrator')))
    const answers = await Promise.all(
      approvers.map((a) =>
        call<{ status: string; decidedBy: { id: number } }>(
          t,
          'POST',
          `/private/back-office/approvals/${proposalId}/approve`,
          {},
          { token: a.token },
        ),
      ),
    )
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0)
    for (const a of answers) {
      if (a.status === 200) expect(a.body.data.status).toBe('approved')
      else expect([a.status, a.body.response.code]).toEqual([409, 'proposalDecided'])
    }
    const deciders = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.data.decidedBy.id))
    expect(deciders.size).toBe(1)

    const after = await snapshotOf(t, c, loan.id)
    // Reversed once: every entry of the payment compensated exactly once, the balances back to before it.
    const mine = after.entries.filter((e) => e.paymentId === repaid.body.data.id)
    const originals = mine.filter((e) => e.kind !== 'reversal')
    expect(originals.length).toBeGreaterThan(0)
    expect(mine.filter((e) => e.kind === 'reversal').map((e) => [e.reversesId, -e.amount])).toEqual(
      originals.map((e) => [e.id, e.amount]),
    )
    expect(after.today).toEqual(before.today)
    for (const part of allParts) expect(after.booked[part]).toBeGreaterThanOrEqual(0)
    expect([after.row.state, after.step]).toEqual(['active', 'loan_page'])
    expect(after.payments.map((p) => p.status)).toEqual(['reversed'])
    const reopened = await t.database.db
      .select()
      .from(stateTransition)
      .where(and(eq(stateTransition.subjectId, loan.id), eq(stateTransition.event, 'REOPENED')))
    expect(reopened).toHaveLength(1)
    const followed = await t.database.db
      .select()
      .from(stateTransition)
      .where(and(eq(stateTransition.clientId, c.clientId), eq(stateTransition.event, 'LOAN_REOPENED')))
    expect(followed).toHaveLength(1)
    const recorded = await t.database.db
      .select()
      .from(servicingAction)
      .where(and(eq(servicingAction.paymentId, repaid.body.data.id), eq(servicingAction.action, 'reverse')))
    expect(recorded).toHaveLength(1)
  }, 120_000)
})

describe('a reversal racing the refund of its credit', () => {
  // The payout provider holds a refund until the test lets it go: the refund is on its way to the client's account.
  const gate = { called: deferred<void>(), release: deferred<void>() }
  const payout: PayoutProvider = {
    ...sandboxPayout,
    async send(request) {
      if (request.purpose === 'refund') {
        gate.called.resolve()
        await gate.release.promise
      }
      return sandboxPayout.send(request)
    },
  }
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await createTestApp({}, { deps: { payout } })
    await seedSmallPsgc(t)
    admin = await adminToken(t)
  })
  afterAll(() => t?.close())

  it('is refused while the refund is being sent, and no credit goes below 0', async () => {
    const bo = backOffice(t, admin)
    const c = await clientAt(t, 'loan_page')
    const loan = await loanOf(t, c)
    const before = await snapshotOf(t, c, loan.id)
    // An overpayment by a gateway: the loan is paid, ₱300 is credit, its refund queued for the worker.
    const over = await receivePayment(t.deps, {
      provider: 'sandbox',
      providerPaymentId: `over-${c.clientId}`,
      reference: paymentReferenceOf(c.clientId),
      amount: before.statement.payoff + 300_00,
      channel: 'gcash',
      paidAt: new Date(),
      source: 'webhook',
    })
    expect(over.outcome).toBe('posted')
    const worker = runServicingJobs(t.deps)
    await gate.called.promise
    // The money is leaving for the client's account; the bank now charges the payment back.
    const reversing = bo.reverse(over.paymentId)
    // A fix that makes the reversal wait for the refund to finish must not hang the test: let it go after 5 s.
    const letGo = setTimeout(() => gate.release.resolve(), 5_000)
    const reversal = await reversing
    clearTimeout(letGo)
    gate.release.resolve()
    await worker
    const after = await snapshotOf(t, c, loan.id)
    for (const part of allParts) expect(after.booked[part], part).toBeGreaterThanOrEqual(0)
    expect(reversal.status).toBe(409)
  }, 120_000)
})
