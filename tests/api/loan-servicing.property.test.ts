/**
 * Issue 16's properties over the real API (Done when: "random loans and payment sequences with reversals and clock
 * moves"), kept true under issue 18's daily run. Each run takes a fresh client with an active loan and plays a
 * random sequence of payments (a centavo, a share of the payoff, the payoff give or take a peso, or well over it;
 * posted by the back office, whose posting runs the receipt and refund jobs at once, or received as a gateway's
 * would be, its jobs left to the worker), reversals of a posted payment, and moves of the client's business clock
 * by 0 to 5 days or to a few days past the due date. After every step, from the database and the API:
 * (a) a posted payment's allocation and overpayment entries add up to its amount (allocations = payments minus
 *     credit); a reversed payment's entries are each compensated once;
 * (b) no balance part is ever negative, nor any running balance on the statement;
 * (c) a paid loan owes 0 (and the journey is at no_loan_page); an active loan owes more than 0;
 * (d) a reversal restores the balances from before it, less the reversed payment (409 when its credit was
 *     refunded); right after its payment it restores them exactly, and after clock moves only, plus what accrued
 *     and the penalties booked;
 * and each step does what it says: a payment lowers today's payoff in the order penalties, fees, interest,
 * principal, with credit and a waived residue; a clock move adds interest, on the principal outstanding, and past
 * the due date and its grace days exactly the late-payment penalty the rules give (`penaltiesOfMove`: day by day,
 * each day once, on the principal, interest and fees owed, cut to the 100% cap), and marks the loan overdue.
 * Today's balances and the penalties are worked out by the test from the loan row and ledger (servicing-helpers.ts),
 * apart from the server's accrual code and the daily run's SQL. Runs on PGlite, and on PostgreSQL when
 * DATABASE_URL is set; SERVICING_RUNS=50 soaks deeper, SERVICING_SEED and SERVICING_PATH replay a failure.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Balances, chargeKinds } from '../../domain/loan/ledger'
import type { ServicingConfig } from '../../domain/loan/servicing-config'
import { paymentReferenceOf } from '../../domain/payments/reference'
import { addDays, daysBetween } from '../../domain/pricing/manila-date'
import { receivePayment } from '../../server/services/payments/posting'
import { servicingTerms } from '../../server/services/servicing/facts'
import { createTestApp } from '../support/app'
import { usingPostgres } from '../support/database'
import type { SignedUp, TestApp } from './identity-helpers'
import { adminToken, clientAt, seedSmallPsgc } from './journey-helpers'
import {
  accruedForBasis,
  allParts,
  backOffice,
  effectOf,
  type LoanSnapshot,
  loanOf,
  outstanding,
  owedParts,
  snapshotOf,
} from './servicing-helpers'

type Amount =
  | { kind: 'centavos'; n: number }
  | { kind: 'share'; of: number }
  | { kind: 'payoff'; delta: number }
  | { kind: 'over'; n: number }

type Action =
  | { type: 'pay'; amount: Amount; via: 'back-office' | 'gateway' }
  | { type: 'reverse'; pick: 'latest' | number }
  /** `days` days on; with `pastDue`, to that many days after the due date (0 when already past it). */
  | { type: 'clock'; days: number; pastDue?: number }

// SERVICING_RUNS=50 for a deeper soak; the default keeps the file under a minute.
const RUNS = Number(process.env.SERVICING_RUNS ?? (usingPostgres ? 8 : 10))
/** SERVICING_SEED and SERVICING_PATH replay a failure fast-check reported. */
const replay = process.env.SERVICING_SEED
  ? { seed: Number(process.env.SERVICING_SEED), path: process.env.SERVICING_PATH, endOnFailure: true }
  : {}

const amountArb: fc.Arbitrary<Amount> = fc.oneof(
  fc.record({ kind: fc.constant('centavos' as const), n: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ kind: fc.constant('share' as const), of: fc.double({ min: 0.01, max: 0.99, noNaN: true }) }),
  fc.record({ kind: fc.constant('payoff' as const), delta: fc.integer({ min: -150, max: 150 }) }),
  fc.record({ kind: fc.constant('over' as const), n: fc.integer({ min: 1, max: 5_000_00 }) }),
)

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('pay' as const),
      amount: amountArb,
      via: fc.constantFrom('back-office' as const, 'gateway' as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('reverse' as const),
      pick: fc.oneof(fc.constant('latest' as const), fc.nat(9)),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('clock' as const), days: fc.integer({ min: 0, max: 5 }) }),
  },
  {
    // Past the due date and its grace days, where the daily run books penalties (issue 18).
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('clock' as const),
      days: fc.constant(0),
      pastDue: fc.integer({ min: -1, max: 8 }),
    }),
  },
)

/** 3 to 9 steps; a reversal takes the latest posted payment half the time, else any posted one. */
const actionsArb = fc.array(actionArb, { minLength: 3, maxLength: 9 })

/** Always run too: a partial payment reversed at once, a repayment reversed days later, an overpayment by a gateway. */
const walkthrough: Action[] = [
  { type: 'pay', amount: { kind: 'share', of: 0.3 }, via: 'back-office' },
  { type: 'reverse', pick: 'latest' },
  { type: 'pay', amount: { kind: 'payoff', delta: -60 }, via: 'back-office' },
  { type: 'clock', days: 2 },
  { type: 'reverse', pick: 'latest' },
  { type: 'pay', amount: { kind: 'over', n: 300_00 }, via: 'gateway' },
  { type: 'reverse', pick: 'latest' },
  { type: 'pay', amount: { kind: 'over', n: 1 }, via: 'back-office' },
  { type: 'reverse', pick: 'latest' },
  // Overdue, charged penalties, a partial payment (penalties first), more penalties, its reversal.
  { type: 'clock', days: 0, pastDue: 5 },
  { type: 'pay', amount: { kind: 'share', of: 0.5 }, via: 'back-office' },
  { type: 'clock', days: 3 },
  { type: 'reverse', pick: 'latest' },
]

/**
 * Always run too, on a loan of its own: overdue, penalties, a partial payment (penalties first), more penalties,
 * its reversal. (The walkthrough above ends the same way, but only when its overpayment's credit was not refunded
 * before its reversal, which depends on the worker's timing.)
 */
const overdueWalk: Action[] = [
  { type: 'clock', days: 0, pastDue: 5 },
  { type: 'pay', amount: { kind: 'share', of: 0.5 }, via: 'back-office' },
  { type: 'clock', days: 3 },
  { type: 'reverse', pick: 'latest' },
]

const amountFor = (a: Amount, payoff: number): number => {
  switch (a.kind) {
    case 'centavos':
      return a.n
    case 'share':
      return Math.max(1, Math.floor(payoff * a.of))
    case 'payoff':
      return Math.max(1, payoff + a.delta)
    case 'over':
      return payoff + a.n
  }
}

/** Today's balances a payment leaves, worked out here: penalties, fees, interest, principal, then credit. */
function afterPayment(before: Balances, amount: number) {
  const after = { ...before }
  let rest = amount
  for (const part of owedParts) {
    const take = Math.min(rest, before[part])
    after[part] -= take
    rest -= take
  }
  after.credit += rest
  const residue = outstanding(after)
  const waived = residue > 0 && residue <= 100
  if (waived) for (const part of owedParts) after[part] = 0
  return { after, overflow: rest, waived }
}

const pick = (b: Balances, parts: readonly (keyof Balances)[]) =>
  Object.fromEntries(parts.map((p) => [p, b[p]]))

const isCharge = (kind: string) => (chargeKinds as readonly string[]).includes(kind)

/**
 * The penalty entries a clock move of `days` days must book (issue 18), worked out here day by day from the loan
 * row and ledger before it and the configured terms, apart from the daily run's SQL: each day's interest first
 * (the contract's accrual up to that day), then, on a day past the due date after the grace days and not charged
 * yet, the days not charged at floor(owed × rate / 1e6) each, on the principal, interest and fees owed (not on
 * penalties), cut to what the 100% lifetime cap leaves (every charge so far and the contract's interest to come).
 */
function penaltiesOfMove(prev: LoanSnapshot, days: number, terms: ServicingConfig['penalties']) {
  const row = prev.row
  const booked: { date: string; amount: number; days: number }[] = []
  if (row.state !== 'active' || !row.startDate)
    return { booked, penaltyThrough: row.penaltyThrough, total: 0 }
  const rate = terms.enabled ? terms.ratePpmPerDay : 0
  const principal = prev.booked.principal
  let charges = prev.booked.interest + prev.booked.fees
  let charged = prev.entries.filter((e) => isCharge(e.kind)).reduce((a, e) => a + e.amount, 0)
  let interestBooked = prev.entries
    .filter((e) => e.kind === 'interest_accrual')
    .reduce((a, e) => a + e.amount, 0)
  let accruedDays = row.accruedDays
  let basis = row.accrualBasis
  let penaltyThrough = row.penaltyThrough
  for (let i = 1; i <= days; i++) {
    const day = addDays(prev.statement.asOf, i)
    const target = Math.max(
      accruedDays,
      Math.min(row.term, daysBetween(row.startDate, day) + 1 - row.heldDays),
    )
    const next = basis + BigInt(Math.max(0, principal)) * BigInt(target - accruedDays)
    const interest = accruedForBasis(row, next) - accruedForBasis(row, basis)
    accruedDays = target
    basis = next
    charges += interest
    charged += interest
    interestBooked += interest
    if (day <= row.dueDate || rate === 0) continue
    const first = addDays(row.dueDate, 1 + terms.graceDays)
    const from = penaltyThrough && penaltyThrough >= first ? addDays(penaltyThrough, 1) : first
    const n = daysBetween(from, day) + 1
    if (n <= 0) continue
    const owed = Math.max(0, principal) + Math.max(0, charges)
    const toCome = target >= row.term ? 0 : Math.max(0, row.interest - interestBooked)
    const room = Math.max(0, row.principal - charged - toCome)
    const amount = Math.min(room, n * Math.floor((owed * rate) / 1_000_000))
    penaltyThrough = day
    if (amount > 0) booked.push({ date: day, amount, days: n })
    charged += amount
  }
  return { booked, penaltyThrough, total: booked.reduce((a, b) => a + b.amount, 0) }
}

describe('loan servicing properties', () => {
  let t: TestApp
  let admin: string
  let bo: ReturnType<typeof backOffice>
  let penaltyTerms: ServicingConfig['penalties']
  let keys = 0
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await adminToken(t)
    bo = backOffice(t, admin)
    penaltyTerms = (await servicingTerms(t.database.db)).servicing.penalties
  })
  afterAll(() => t?.close())

  /** What holds of a loan after any step. */
  function invariants(s: LoanSnapshot) {
    const { row, entries, payments, statement } = s
    // (a) Every posted payment is allocated whole: what left the receivables plus what became credit.
    let allocated = 0
    let postedTotal = 0
    let credited = 0
    for (const p of payments) {
      const mine = entries.filter((e) => e.paymentId === p.id)
      if (p.status === 'posted') {
        const alloc = mine.filter((e) => e.kind === 'allocation')
        const over = mine.filter((e) => e.kind === 'overpayment')
        for (const e of alloc) {
          expect(e.part).not.toBe('credit')
          expect(e.amount).toBeLessThan(0)
        }
        for (const e of over) {
          expect(e.part).toBe('credit')
          expect(e.amount).toBeGreaterThan(0)
        }
        const paidIn = -alloc.reduce((a, e) => a + e.amount, 0)
        const credit = over.reduce((a, e) => a + e.amount, 0)
        expect(paidIn + credit, `payment ${p.id} allocated whole`).toBe(p.amount)
        expect(mine.filter((e) => e.kind === 'reversal')).toEqual([])
        // Nothing but its allocation, its credit and a waived residue.
        expect(mine.every((e) => ['allocation', 'overpayment', 'residue_waiver'].includes(e.kind))).toBe(true)
        allocated += paidIn
        postedTotal += p.amount
        credited += credit
      } else {
        expect(p.status).toBe('reversed')
        const originals = mine.filter((e) => e.kind !== 'reversal')
        const reversals = mine.filter((e) => e.kind === 'reversal')
        expect(reversals.map((e) => [e.reversesId, e.part, e.amount]).sort()).toEqual(
          originals.map((e) => [e.id, e.part, -e.amount]).sort(),
        )
      }
    }
    expect(allocated).toBe(postedTotal - credited)
    // (b) No part negative, booked or today, nor any running balance of the statement.
    for (const part of allParts) {
      expect(s.booked[part], `booked ${part}`).toBeGreaterThanOrEqual(0)
      expect(s.today[part], `today's ${part}`).toBeGreaterThanOrEqual(0)
    }
    for (const line of statement.entries) {
      expect(line.outstandingAfter).toBeGreaterThanOrEqual(0)
      expect(line.creditAfter).toBeGreaterThanOrEqual(0)
    }
    expect(statement.balances).toEqual(s.booked)
    expect(statement.state).toBe(row.state)
    // Interest: what was booked is the pro-rata of the basis, never above the contract's.
    const accrued = entries.filter((e) => e.kind === 'interest_accrual').reduce((a, e) => a + e.amount, 0)
    expect(s.totalAccrued).toBeLessThanOrEqual(row.interest)
    expect(accrued).toBeLessThanOrEqual(s.totalAccrued)
    expect(row.accruedDays).toBeLessThanOrEqual(row.term)
    // Refunds booked are the refunds paid out.
    const refunded = entries.filter((e) => e.kind === 'refund').reduce((a, e) => a - e.amount, 0)
    expect(refunded).toBe(s.refunds.filter((r) => r.status === 'succeeded').reduce((a, r) => a + r.amount, 0))
    // (c) Paid owes nothing; active owes something, and the API says what the ledger says.
    expect(statement.payoff).toBe(outstanding(s.today))
    if (row.state === 'paid') {
      expect(row.status).toBe(5)
      expect(outstanding(s.today)).toBe(0)
      expect(s.active).toBeNull()
      expect(s.step).toBe('no_loan_page')
    } else {
      expect(row.state).toBe('active')
      expect(row.status).toBe(4)
      expect(outstanding(s.today)).toBeGreaterThan(0)
      expect(s.active?.id).toBe(row.id)
      expect(s.active!.amountDue.amount).toBe(outstanding(s.today))
      for (const part of owedParts) expect(s.active!.amountDue.parts[part].amount).toBe(s.today[part])
      expect(s.active!.credit.amount).toBe(s.booked.credit)
      expect(s.step).toBe('loan_page')
    }
  }

  it(
    'random payments, reversals and clock moves keep the ledger whole',
    async () => {
      const seen = new Set<string>()
      await fc.assert(
        fc.asyncProperty(actionsArb, async (actions) => {
          const c: SignedUp = await clientAt(t, 'loan_page')
          const loanId = (await loanOf(t, c)).id
          let s = await snapshotOf(t, c, loanId)
          invariants(s)
          /** Per payment: today's balances just before it, and whether only clock moves have happened since. */
          const before = new Map<number, { snapshot: LoanSnapshot; onlyClock: boolean; adjacent: boolean }>()
          const touch = () => {
            for (const b of before.values()) {
              b.onlyClock = false
              b.adjacent = false
            }
          }
          for (const action of actions) {
            const prev = s
            if (action.type === 'pay') {
              const amount = amountFor(action.amount, prev.statement.payoff)
              const queuedBefore = prev.refunds.some((r) => r.status === 'queued')
              let paymentId: number
              if (action.via === 'back-office') {
                const posted = await bo.pay(c, amount, `prop-pay-${c.clientId}-${keys++}`)
                expect(posted.status).toBe(201)
                expect(posted.body.data.status).toBe('posted')
                paymentId = posted.body.data.id
              } else {
                const got = await receivePayment(t.deps, {
                  provider: 'sandbox',
                  providerPaymentId: `prop-pay-${c.clientId}-${keys++}`,
                  reference: paymentReferenceOf(c.clientId),
                  amount,
                  channel: 'gcash',
                  paidAt: new Date(),
                  source: 'webhook',
                })
                expect(got.outcome).toBe('posted')
                paymentId = got.paymentId
              }
              s = await snapshotOf(t, c, loanId)
              const expected = afterPayment(prev.today, amount)
              expect(pick(s.today, owedParts), `owed after paying ${amount}`).toEqual(
                pick(expected.after, owedParts),
              )
              const settles = prev.row.state === 'active' && outstanding(expected.after) === 0
              expect(s.row.state).toBe(settles ? 'paid' : prev.row.state)
              // Its credit, less a refund the back office's posting ran at once (the whole credit then).
              const refundedNow = s.entries
                .filter((e) => e.kind === 'refund' && e.id > (prev.entries.at(-1)?.id ?? 0))
                .reduce((a, e) => a - e.amount, 0)
              expect(s.booked.credit).toBe(prev.booked.credit + expected.overflow - refundedNow)
              const refundQueued =
                queuedBefore || (expected.after.credit > 0 && (settles || prev.row.state === 'paid'))
              // The back office runs the refund job at once; it refunds only a paid loan's credit (a refund
              // queued before a reversal reopened the loan fails, and the credit stays).
              if (action.via === 'back-office' && refundQueued && s.row.state === 'paid')
                expect(s.booked.credit).toBe(0)
              if (action.via === 'gateway') expect(refundedNow).toBe(0)
              if (refundedNow > 0) seen.add('refunded')
              if (expected.waived) seen.add('waived')
              if (settles) seen.add('paid')
              touch()
              before.set(paymentId, {
                snapshot: prev,
                onlyClock: refundedNow === 0,
                adjacent: refundedNow === 0,
              })
            } else if (action.type === 'clock') {
              const days =
                action.pastDue === undefined
                  ? action.days
                  : Math.max(0, daysBetween(prev.statement.asOf, prev.row.dueDate) + action.pastDue)
              const moved = await bo.clock(c, days)
              expect(moved.status).toBe(200)
              expect(moved.body.data.daysRun).toBe(days)
              expect(moved.body.data.clientToday).toBe(addDays(prev.statement.asOf, days))
              s = await snapshotOf(t, c, loanId)
              expect(s.statement.asOf).toBe(moved.body.data.clientToday)
              // Interest moves, by what accrued on the principal outstanding, and the servicing days booked it;
              // past the due date and its grace days, the penalty the rules give, each day once; nothing else.
              const penalties = penaltiesOfMove(prev, days, penaltyTerms)
              expect(pick(s.today, ['fees', 'principal', 'credit'])).toEqual(
                pick(prev.today, ['fees', 'principal', 'credit']),
              )
              expect(s.today.interest - prev.today.interest).toBe(s.totalAccrued - prev.totalAccrued)
              const lastId = prev.entries.at(-1)?.id ?? 0
              const fresh = s.entries.filter((e) => e.id > lastId)
              expect(
                fresh.filter((e) => e.kind === 'penalty').map((e) => [e.businessDate, e.part, e.amount]),
                'penalties booked by the move',
              ).toEqual(penalties.booked.map((p) => [p.date, 'penalties', p.amount]))
              expect(fresh.every((e) => ['interest_accrual', 'penalty'].includes(e.kind))).toBe(true)
              expect(s.today.penalties).toBe(prev.today.penalties + penalties.total)
              expect(s.row.penaltyThrough).toBe(penalties.penaltyThrough)
              if (penalties.total > 0) seen.add('penalty')
              expect(s.row.state).toBe(prev.row.state)
              if (s.row.state === 'active') {
                expect(s.targetDays).toBe(Math.min(s.row.term, prev.targetDays + days))
                expect(s.row.accruedDays).toBe(days > 0 ? s.targetDays : prev.row.accruedDays)
                expect(s.basisToday - prev.basisToday).toBe(
                  BigInt(prev.booked.principal) * BigInt(s.targetDays - prev.targetDays),
                )
                if (days > 0) {
                  expect(s.booked.interest).toBe(s.today.interest)
                  // The run's standing: overdue from the day after the due date (on its terms).
                  const overdue = s.statement.asOf > s.row.dueDate
                  expect(s.row).toMatchObject({
                    servicedThrough: s.statement.asOf,
                    standing: overdue ? 'overdue' : 'current',
                    overdueSince: overdue ? addDays(s.row.dueDate, 1) : null,
                  })
                  if (overdue) seen.add('overdue')
                }
              } else expect(s.totalAccrued).toBe(prev.totalAccrued)
              if (days > 0) for (const b of before.values()) b.adjacent = false
            } else {
              const posted = prev.payments.filter((p) => p.status === 'posted')
              if (!posted.length) {
                seen.add('nothing to reverse')
                continue
              }
              const target = action.pick === 'latest' ? posted.at(-1)! : posted[action.pick % posted.length]!
              const effect = effectOf(prev.entries, target.id)
              const answer = await bo.reverse(target.id)
              s = await snapshotOf(t, c, loanId)
              const reversed = s.payments.find((p) => p.id === target.id)!
              if (effect.credit > prev.booked.credit) {
                // Its credit was already refunded: refused, and nothing changes.
                expect(answer.status).toBe(409)
                expect(answer.body.response.code).toBe('creditRefunded')
                expect(reversed.status).toBe('posted')
                expect(s.entries).toEqual(prev.entries)
                expect(s.row.state).toBe(prev.row.state)
                seen.add('409 refunded')
                continue
              }
              expect(answer.status).toBe(200)
              expect(answer.body.data.status).toBe('reversed')
              expect(reversed.status).toBe('reversed')
              // The balances before it, less what the payment had done; interest plus what accrued on the way
              // (a paid loan reopened catches up the days since it was paid, on the principal owed again).
              for (const part of ['penalties', 'fees', 'principal', 'credit'] as const)
                expect(s.today[part], part).toBe(prev.today[part] - effect[part])
              expect(s.today.interest).toBe(
                prev.today.interest - effect.interest + s.totalAccrued - prev.totalAccrued,
              )
              const reopens = prev.row.state === 'paid' && outstanding(s.today) > 0
              expect(s.row.state).toBe(reopens ? 'active' : prev.row.state)
              if (reopens) seen.add('reopened')
              const history = before.get(target.id)!
              if (history.adjacent) {
                // Right after its payment: exactly the balances before it.
                expect(s.today).toEqual(history.snapshot.today)
                expect(s.row.state).toBe(history.snapshot.row.state)
                seen.add('restored exactly')
              } else if (history.onlyClock) {
                // After clock moves only: the balances before it plus the interest accrued since, and the
                // penalties the moves booked (each checked against the rules when it was booked).
                expect(pick(s.today, ['fees', 'principal', 'credit'])).toEqual(
                  pick(history.snapshot.today, ['fees', 'principal', 'credit']),
                )
                const since = history.snapshot.entries.at(-1)?.id ?? 0
                expect(s.today.penalties - history.snapshot.today.penalties).toBe(
                  s.entries
                    .filter((e) => e.kind === 'penalty' && e.id > since)
                    .reduce((a, e) => a + e.amount, 0),
                )
                expect(s.today.interest - history.snapshot.today.interest).toBe(
                  s.totalAccrued - history.snapshot.totalAccrued,
                )
                expect(s.row.state).toBe(history.snapshot.row.state)
                seen.add('restored plus interest')
              }
              touch()
            }
            invariants(s)
          }
        }),
        { numRuns: RUNS, examples: [[walkthrough], [overdueWalk]], ...replay },
      )
      // Not vacuous: the runs reached the interesting cases.
      for (const what of [
        'paid',
        'waived',
        'reopened',
        'refunded',
        '409 refunded',
        'restored exactly',
        'restored plus interest',
        'overdue',
        'penalty',
      ])
        expect(seen).toContain(what)
    },
    120_000 + RUNS * 15_000,
  )
})
