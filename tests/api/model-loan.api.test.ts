/**
 * The loan lifecycle statechart (domain/loan/loan-lifecycle.machine.ts) driven through the real HTTP API on a real
 * database (issue 20 item 4): the few shortest paths that together reach every state node and take every transition
 * (tests/support/model-api.ts plans them with `createTestModel`), each replayed on a fresh loan (a client walked to
 * its signature), every event caused by its real calls, the loan's leaf read back from the database after every
 * event and its history rows checked; at each leaf reached once, every back-office call of an event the leaf does not
 * accept must answer 409. Coverage is counted from the `state_transition` rows of the loans.
 *
 * Events without a call of their own are caused the way the server causes them:
 * - DISBURSED (and the failed payout before CANCELLED): the lending worker's job loop, `drainJobs`;
 * - OVERDUE and CAUGHT_UP: the daily servicing run, which the sandbox clock (POST /back-office/sandbox/clock) runs
 *   for every day it skips;
 * - CREDIT_REFUNDED: the refund job, which the payment's own call runs right after the posting (`afterPosting`);
 * - REPAID, PAYMENT_POSTED, EXTENDED: a back-office payment posting (POST /back-office/payments), the one path every
 *   channel's payment takes (the gateway's webhook and the reconciliation post through the same service).
 *
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { and, asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ActiveLoan } from '../../domain/contract/lending-answers'
import type { PaymentSchedule } from '../../domain/contract/servicing-answers'
import {
  type LoanEventType,
  type LoanLeaf,
  loanEventDefinitions,
  loanEventsAcceptedAt,
  loanEventTypes,
  loanLifecycleMachine,
  stateValueOf,
} from '../../domain/loan/loan-lifecycle.machine'
import { paymentReferenceOf } from '../../domain/payments/reference'
import { daysBetween } from '../../domain/pricing/manila-date'
import { stateTransition } from '../../server/db/schema-journey'
import { loan } from '../../server/db/schema-lending'
import { drainJobs } from '../../server/services/lending/jobs'
import { leafOfRow } from '../../server/services/payments/loans'
import { createTestApp } from '../support/app'
import { proposeAndApprove } from '../support/maker-checker'
import {
  type ApiReplay,
  coverageFromHistory,
  formatApiCoverage,
  planCoverage,
  replayPlan,
} from '../support/model-api'
import { FAILING_REFUND_ACCOUNT, type LoanFacts, loanPlanRules } from '../support/model-rules'
import { type Staff, staffMember } from '../support/staff'
import { type Answer, call, lastCode, later, type SignedUp, type TestApp } from './identity-helpers'
import { addBankAccountWithCode, expectOk, seedSmallPsgc, walkTo } from './journey-helpers'

interface Subject {
  c: SignedUp
  loanId: number
  /** How far ahead (ms) the latest SMS code was asked: one code a minute per phone. */
  codeOffset: number
  lastPartial?: number
  repaying?: number
  key: number
}

let t: TestApp
let admin: Staff
let agencyId: number

beforeAll(async () => {
  t = await createTestApp()
  await seedSmallPsgc(t)
  admin = await staffMember(t, 'administrator')
  const agencies = await call<{ id: number; name: string }[]>(
    t,
    'GET',
    '/private/back-office/collection-agencies',
    undefined,
    { token: admin.token },
  )
  agencyId = agencies.body.data[0]!.id
})
afterAll(async () => {
  await t?.close()
})

const asAdmin = (method: string, path: string, body?: unknown) =>
  call(t, method, path, body, { token: admin.token })

const active = async (s: Subject) => {
  const answer = await call<ActiveLoan>(t, 'GET', '/private/client/loan/active', undefined, {
    token: s.c.token,
  })
  expect(answer.status, JSON.stringify(answer.body.response)).toBe(200)
  return answer.body.data
}

const clock = async (s: Subject, days: number) => {
  const moved = await asAdmin('POST', '/private/back-office/sandbox/clock', { clientId: s.c.clientId, days })
  expect(moved.status, JSON.stringify(moved.body.response)).toBe(200)
  return (moved.body.data as { clientToday: string }).clientToday
}

const pay = async (s: Subject, amount: number) => {
  const paid = await asAdmin('POST', '/private/back-office/payments', {
    reference: paymentReferenceOf(s.c.clientId),
    amount,
    channel: 'bayad',
    idempotencyKey: `model-loan-${s.loanId}-${s.key++}`,
  })
  expect(paid.status, JSON.stringify(paid.body.response)).toBe(201)
  return (paid.body.data as { id: number }).id
}

const reverse = async (paymentId: number | undefined) => {
  expect(paymentId, 'a payment to reverse').toBeDefined()
  // Maker-checker (issue 19 item 5): proposed by this file's administrator, approved by a second one.
  const reversed = await proposeAndApprove(
    t,
    admin.token,
    `/private/back-office/payments/${paymentId}/reversal`,
    {
      reason: 'Chargeback (model test)',
    },
  )
  expect(reversed.status, JSON.stringify(reversed.body.response)).toBe(200)
}

/** The lending worker's job loop, as the worker runs it, past the subject's latest signature. */
const runJobs = (s: Subject) =>
  drainJobs({ ...t.deps, now: () => new Date(Date.now() + s.codeOffset + 120_000) })

/** Runs `fn` two minutes past the subject's latest SMS code. */
function codeLater<T>(s: Subject, fn: () => Promise<T>): Promise<T> {
  s.codeOffset += 2 * 61_000
  return later(t, s.codeOffset, fn)
}

/** Asks for the amendment code on `path` and signs with it (an extension's documents, a schedule offer). */
const signAmendment = (s: Subject, path: string) =>
  codeLater(s, async () => {
    await expectOk(call(t, 'POST', path, {}, { token: s.c.token }))
    const code = await lastCode(t, s.c.phone, 'amendment')
    await expectOk(call(t, 'POST', path, { code }, { token: s.c.token }))
  })

const senders: Record<string, (s: Subject, leaf: LoanLeaf) => Promise<void>> = {
  DISBURSED: async (s) => {
    await runJobs(s)
  },
  CANCELLED: async (s) => {
    // The payout fails first (the worker's job; the loan stays a draft), then the back office cancels.
    await runJobs(s)
    await expectOk(
      asAdmin('POST', `/private/back-office/loan/${s.loanId}/cancel`, { reason: 'Payout failed' }),
    )
  },
  PAYMENT_POSTED: async (s) => {
    s.lastPartial = await pay(s, 100_00)
  },
  PAYMENT_REVERSED: (s) => reverse(s.lastPartial),
  REPAID: async (s) => {
    s.repaying = await pay(s, (await active(s)).amountDue.amount)
  },
  REOPENED: (s) => reverse(s.repaying),
  REOPENED_ON_SCHEDULE: (s) => reverse(s.repaying),
  HOLD: async (s) => {
    await expectOk(
      asAdmin('POST', `/private/back-office/loan/${s.loanId}/hold`, { reason: 'Dispute opened' }),
    )
  },
  RELEASE: async (s) => {
    await expectOk(
      asAdmin('POST', `/private/back-office/loan/${s.loanId}/release`, { reason: 'Dispute closed' }),
    )
  },
  OVERDUE: async (s, leaf) => {
    const today = await clock(s, 0)
    let due = (await active(s)).dueDate
    if (leaf.startsWith('active.scheduled')) {
      const schedule = await call<PaymentSchedule>(
        t,
        'GET',
        '/private/client/loan/active/payment-schedule',
        undefined,
        { token: s.c.token },
      )
      due = schedule.body.data.payments.find((p) => p.status !== 'paid')!.dueDate
    }
    // The day after the unpaid due date: the daily run the clock runs marks the loan overdue.
    await clock(s, daysBetween(today, due) + 1)
  },
  CAUGHT_UP: async (s) => {
    // The overdue instalments paid (PAYMENT_POSTED), then the next day's run finds nothing past due.
    const schedule = await call<PaymentSchedule>(
      t,
      'GET',
      '/private/client/loan/active/payment-schedule',
      undefined,
      { token: s.c.token },
    )
    s.lastPartial = await pay(s, schedule.body.data.toPayNow.amount)
    await clock(s, 1)
  },
  EXTENDED: async (s) => {
    const chosen = await expectOk(
      call(t, 'PUT', '/private/client/loan/active/rollover', { type: 'cheap' }, { token: s.c.token }),
    )
    const { id: rid, loanId } = chosen.body.data as { id: number; loanId: number }
    const app = await expectOk(
      call(t, 'POST', `/private/client/loan/${loanId}/rollover/${rid}/application`, undefined, {
        token: s.c.token,
      }),
      201,
    )
    const appId = (app.body.data as { id: number }).id
    await signAmendment(s, `/private/client/loan/${loanId}/rollover/${rid}/application/${appId}/document`)
    const fee = (await active(s)).rollovers.find((r) => r.id === rid)!.fee.amount
    await pay(s, fee)
  },
  SCHEDULE_AGREED: async (s) => {
    const l = await active(s)
    // A schedule is offered in the last days before the due date.
    if (l.repaymentInvoice.dueDays > 2) await clock(s, l.repaymentInvoice.dueDays - 2)
    const offer = (await active(s)).specialOffers!.find((o) => o.type === 'semi_monthly')!
    expect(offer.available, offer.reason ?? '').toBe(true)
    const path = `/private/client/loan/active/payment-schedule/special-offer/submit/${offer.id}`
    await expectOk(call(t, 'GET', path, undefined, { token: s.c.token }))
    await signAmendment(s, path)
  },
  DEBT_SOLD: async (s) => {
    const sold = await proposeAndApprove<{ sold: { loanId: number }[] }>(
      t,
      admin.token,
      '/private/back-office/debt-sales',
      {
        agencyId,
        loanIds: [s.loanId],
      },
    )
    expect(sold.status, JSON.stringify(sold.body.response)).toBe(200)
    expect(sold.body.data.sold.map((x) => x.loanId)).toEqual([s.loanId])
  },
  WRITTEN_OFF: async (s) => {
    const off = await proposeAndApprove(t, admin.token, `/private/back-office/loan/${s.loanId}/write-off`, {
      reason: 'Borrower deceased, no estate',
    })
    expect(off.status, JSON.stringify(off.body.response)).toBe(200)
  },
  [FAILING_REFUND_ACCOUNT]: (s) =>
    codeLater(s, async () => {
      // The sandbox payout refuses an account ending in 0000 (README, Sandbox).
      await addBankAccountWithCode(t, s.c, '009876540000')
    }),
}

/**
 * The back-office calls that send one event each, for the refusals: at a leaf that does not accept the event, the
 * call must answer 409. (A payment is never refused by the loan's state: on a loan that cannot take it, it is kept
 * unmatched or recorded as a recovery; a reversal needs a payment of the loan and is refused where the planned paths
 * have none, which the reversal service checks before the state. Both are left out.)
 */
const refusalCalls: Partial<Record<LoanEventType, (s: Subject) => Promise<Answer>>> = {
  HOLD: (s) => asAdmin('POST', `/private/back-office/loan/${s.loanId}/hold`, { reason: 'Out of step' }),
  RELEASE: (s) => asAdmin('POST', `/private/back-office/loan/${s.loanId}/release`, { reason: 'Out of step' }),
  CANCELLED: (s) =>
    asAdmin('POST', `/private/back-office/loan/${s.loanId}/cancel`, { reason: 'Out of step' }),
  WRITTEN_OFF: (s) =>
    asAdmin('POST', `/private/back-office/loan/${s.loanId}/write-off`, { reason: 'Out of step' }),
  // The client's first call towards an extension: choosing one where no extension can be paid.
  EXTENDED: (s) =>
    call(t, 'PUT', '/private/client/loan/active/rollover', { type: 'cheap' }, { token: s.c.token }),
}
/**
 * A debt sale is proposed for a batch of loans and each loan checked when a second administrator approves it: the
 * proposal of a loan that cannot be sold is accepted (202, not 409), and the approved sale lists it as refused.
 */
const refuseSale = async (s: Subject) => {
  const sale = await proposeAndApprove<{
    sold: { loanId: number }[]
    refused: { loanId: number; code: string }[]
  }>(t, admin.token, '/private/back-office/debt-sales', { agencyId, loanIds: [s.loanId] })
  return sale.status === 200
    ? { sold: sale.body.data.sold.some((x) => x.loanId === s.loanId), code: sale.body.data.refused[0]?.code }
    : { sold: false, code: `${sale.status} ${sale.body.response.code}` }
}
const refusedWith = new Map<string, number>()
let refusalCount = 0

const replay: ApiReplay<LoanFacts, Subject> = {
  rules: loanPlanRules,
  start: async (path) => {
    const w = await walkTo(t, 'payout_processing', {
      payout:
        path.facts.payout === 'fail'
          ? { type: 'bank_transfer', accountNumber: '001234560000' }
          : { type: 'bank_transfer' },
    })
    const [row] = await t.database.db
      .select({ id: loan.id })
      .from(loan)
      .where(eq(loan.clientId, w.c.clientId))
    // The walk signed a minute ahead (journey-helpers `aMinuteLater`).
    return { c: w.c, loanId: row!.id, codeOffset: 61_000, key: 0 }
  },
  send: (s, event, leaf) => senders[event]!(s, leaf as LoanLeaf),
  persisted: async (s) => {
    const [row] = await t.database.db.select().from(loan).where(eq(loan.id, s.loanId))
    return leafOfRow(row!)
  },
  history: (s) =>
    t.database.db
      .select({
        fromState: stateTransition.fromState,
        toState: stateTransition.toState,
        event: stateTransition.event,
      })
      .from(stateTransition)
      .where(
        and(eq(stateTransition.machine, loanLifecycleMachine.id), eq(stateTransition.subjectId, s.loanId)),
      )
      .orderBy(asc(stateTransition.id)),
  refusals: async (s, leaf) => {
    const accepted = loanEventsAcceptedAt(leaf as LoanLeaf)
    const wrong: string[] = []
    for (const [event, send] of Object.entries(refusalCalls)) {
      if (accepted.includes(event as LoanEventType)) continue
      const answer = await send(s)
      refusalCount++
      const code = String(answer.body.response.code)
      if (answer.status !== 409) wrong.push(`${event} at ${leaf}: ${answer.status} ${code}`)
      else refusedWith.set(code, (refusedWith.get(code) ?? 0) + 1)
    }
    if (!accepted.includes('DEBT_SOLD')) {
      const sale = await refuseSale(s)
      refusalCount++
      if (sale.sold) wrong.push(`DEBT_SOLD at ${leaf}: sold`)
      if (sale.code !== 'loanStateMismatch') wrong.push(`DEBT_SOLD at ${leaf}: refused with ${sale.code}`)
    }
    expect(wrong.join('\n'), `refused at ${leaf}`).toBe('')
  },
}

describe('the loan lifecycle statechart through the API', () => {
  it('the planned paths reach every state and take every transition through real calls; out-of-step calls are 409', async () => {
    const started = Date.now()
    const plan = planCoverage(loanPlanRules)
    expect(plan.uncovered).toEqual([])
    const result = await replayPlan(replay, plan.paths)
    const report = coverageFromHistory(loanLifecycleMachine, (leaf) => stateValueOf(leaf as LoanLeaf), result)
    const missing = report.transitions.missing
    console.info(
      formatApiCoverage(
        'loan lifecycle',
        report,
        `; ${result.paths} paths, ${result.steps} steps, ${refusalCount} refused calls (${[...refusedWith]
          .map(([code, n]) => `${code} ${n}`)
          .join(', ')}), ${((Date.now() - started) / 1000).toFixed(1)} s${
          missing.length ? `; not reachable through the API: ${missing.join('; ')}` : ''
        }`,
      ),
    )
    expect(report.states.missing).toEqual([])
    expect(missing).toEqual([])
    // Every event with a call is one a test here sends for real.
    for (const type of loanEventTypes)
      if (loanEventDefinitions[type].calls.length) expect(senders[type], type).toBeDefined()
  }, 180_000)
})
