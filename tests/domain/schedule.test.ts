/**
 * Payment schedules (domain/loan/schedule.ts, issue 17), by example: who is offered one (rule by rule, with the
 * boundaries), the plan (sums, interest shares, due dates, the interest lowered to the legal room and never above
 * the floor of 0.2% a day), the schedule interest due by a day, payments spread over the instalments, and the
 * instalments' dueDays sign, overdue flag and amount to pay now.
 */
import { describe, expect, it } from 'vitest'
import { formatPhp } from '../../domain/format'
import type { LoanFacts } from '../../domain/loan/extension'
import {
  allocateToInstalments,
  amountToPayNow,
  type InstalmentState,
  instalmentDueDays,
  isInstalmentOverdue,
  isInstalmentPaid,
  planSchedule,
  scheduleEligibility,
  scheduleInterestDueBy,
} from '../../domain/loan/schedule'
import { defaultServicingConfig, type ServicingConfig } from '../../domain/loan/servicing-config'
import { addDays, daysBetween } from '../../domain/pricing/manila-date'

/** Offered from 3 days before the due date to 30 after, on ₱1,000 owed, at 0.10% a day; 2 × 30 or 4 × 15 days. */
const config: ServicingConfig['schedules'] = defaultServicingConfig.schedules

const due = '2026-05-20'
const facts: LoanFacts & { extensionPending: boolean; hadSchedule: boolean } = {
  leaf: 'active.on_terms.current',
  principal: 5_000_00,
  principalOutstanding: 5_000_00,
  charged: 300_00,
  interestToCome: 0,
  dueDate: due,
  today: due,
  extensionsTaken: 0,
  extensionPending: false,
  hadSchedule: false,
}

const ruleNames = [
  'schedulesEnabled',
  'onTerms',
  'firstSchedule',
  'noPendingExtension',
  'nearDueDate',
  'notTooLate',
  'enoughPrincipal',
]
const decide = (changes: Partial<typeof facts> = {}, c: ServicingConfig['schedules'] = config) =>
  scheduleEligibility({ ...facts, ...changes }, c)
const failed = (d: ReturnType<typeof decide>) => d.rules.filter((r) => !r.passed).map((r) => r.rule)

describe('scheduleEligibility', () => {
  it('offers a schedule to an active loan on its terms near its due date, every rule passed', () => {
    const d = decide()
    expect(d).toEqual({
      eligible: true,
      rules: ruleNames.map((rule) => ({ rule, passed: true })),
      reason: null,
    })
  })

  it.each([
    ['schedulesEnabled', {}, { enabled: false }, 'Payment schedules are not offered at the moment.'],
    [
      'onTerms',
      { leaf: 'active.scheduled.current' },
      {},
      'Only an active loan on its terms can be put on a schedule.',
    ],
    [
      'onTerms',
      { leaf: 'on_hold.on_terms' },
      {},
      'Only an active loan on its terms can be put on a schedule.',
    ],
    [
      'onTerms',
      { leaf: 'active.scheduled.overdue' },
      {},
      'Only an active loan on its terms can be put on a schedule.',
    ],
    ['onTerms', { leaf: 'paid' }, {}, 'Only an active loan on its terms can be put on a schedule.'],
    ['onTerms', { leaf: 'sold_debt' }, {}, 'Only an active loan on its terms can be put on a schedule.'],
    ['onTerms', { leaf: 'write_off' }, {}, 'Only an active loan on its terms can be put on a schedule.'],
    ['firstSchedule', { hadSchedule: true }, {}, 'This loan has had a payment schedule already.'],
    [
      'noPendingExtension',
      { extensionPending: true },
      {},
      'An extension is waiting for its fee; pay it or let it expire first.',
    ],
    [
      'nearDueDate',
      { today: addDays(due, -4) },
      {},
      'A schedule is offered from 3 days before the due date.',
    ],
    [
      'notTooLate',
      { today: addDays(due, 31) },
      {},
      'A schedule is offered until 30 days after the due date.',
    ],
    [
      'enoughPrincipal',
      { principalOutstanding: 999_99 },
      {},
      `A schedule needs at least ${formatPhp(1_000_00)} of principal still owed.`,
    ],
  ] as [
    string,
    Partial<typeof facts>,
    Partial<ServicingConfig['schedules']>,
    string,
  ][])('refuses on %s alone: %j', (rule, changes, configChanges, reason) => {
    const d = decide(changes, { ...config, ...configChanges })
    expect(d.eligible).toBe(false)
    expect(failed(d)).toEqual([rule])
    expect(d.reason).toBe(reason)
    expect(d.rules.map((r) => r.rule)).toEqual(ruleNames)
  })

  it('offers one to an overdue loan on its terms too, until daysAfterDue days after the due date', () => {
    const overdue = { leaf: 'active.on_terms.overdue' as const }
    expect(decide({ ...overdue, today: addDays(due, 1) }).eligible).toBe(true)
    expect(decide({ ...overdue, today: addDays(due, 30) }).eligible).toBe(true)
    expect(failed(decide({ ...overdue, today: addDays(due, 31) }))).toEqual(['notTooLate'])
  })

  it('the window and the principal are inclusive at their boundaries', () => {
    expect(decide({ today: addDays(due, -3) }).eligible).toBe(true)
    expect(decide({ today: addDays(due, 30) }).eligible).toBe(true)
    expect(decide({ principalOutstanding: 1_000_00 }).eligible).toBe(true)
    expect(decide({ today: addDays(due, -1) }, { ...config, daysBeforeDue: 0 }).eligible).toBe(false)
    expect(decide({ today: addDays(due, 1) }, { ...config, daysAfterDue: 0 }).eligible).toBe(false)
    expect(decide({}, { ...config, daysBeforeDue: 0, daysAfterDue: 0 }).eligible).toBe(true)
  })

  it('with no minimum principal, still needs some principal owed', () => {
    const noMinimum = { ...config, minPrincipal: 0 }
    expect(decide({ principalOutstanding: 1 }, noMinimum).eligible).toBe(true)
    expect(failed(decide({ principalOutstanding: 0 }, noMinimum))).toEqual(['enoughPrincipal'])
  })

  it('lists every failed rule and gives the first one as the reason', () => {
    const d = decide({ leaf: 'on_hold.scheduled', hadSchedule: true, principalOutstanding: 0 })
    expect(failed(d)).toEqual(['onTerms', 'firstSchedule', 'enoughPrincipal'])
    expect(d.reason).toBe('Only an active loan on its terms can be put on a schedule.')
  })
})

/** Checks every plan must satisfy, whatever the figures. */
function expectConsistent(plan: ReturnType<typeof planSchedule>, today: string, intervalDays: number) {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
  expect(sum(plan.instalments.map((i) => i.amount))).toBe(plan.total)
  expect(sum(plan.instalments.map((i) => i.interest))).toBe(plan.interest)
  expect(plan.total).toBe(plan.owed + plan.interest)
  expect(plan.days).toBe(plan.instalments.length * intervalDays)
  plan.instalments.forEach((i, n) => {
    expect(i.seq).toBe(n + 1)
    expect(daysBetween(today, i.dueDate)).toBe((n + 1) * intervalDays)
    expect(daysBetween(today, i.periodStart)).toBe(n * intervalDays)
    expect(i.interest).toBeGreaterThanOrEqual(0)
    expect(i.interest).toBeLessThanOrEqual(i.amount)
  })
  expect(plan.interest).toBeLessThanOrEqual(plan.legalRoom)
  expect(plan.interest).toBeLessThanOrEqual(plan.interestAtRate)
  // Never above 0.2% a day of the principal owed, floored.
  expect(BigInt(plan.interest) * 1_000_000n).toBeLessThanOrEqual(
    BigInt(plan.principalBasis) * 2_000n * BigInt(plan.days),
  )
}

describe('planSchedule', () => {
  const today = '2026-05-21'
  const planFacts = {
    principal: 5_000_00,
    principalOutstanding: 5_000_00,
    charged: 500_00,
    interestToCome: 0,
    today,
  }

  it('monthly: 2 instalments 30 days apart, interest at the configured rate on the principal owed', () => {
    const plan = planSchedule(planFacts, 5_200_01, 'monthly', config)
    // 0.10% a day × 60 days × ₱5,000 = ₱300.
    expect(plan).toMatchObject({
      type: 'monthly',
      owed: 5_200_01,
      principalBasis: 5_000_00,
      interest: 300_00,
      interestAtRate: 300_00,
      total: 5_500_01,
      days: 60,
      legalRoom: 4_500_00,
    })
    expect(plan.instalments).toEqual([
      { seq: 1, dueDate: '2026-06-20', periodStart: today, amount: 2_750_00, interest: 150_00 },
      { seq: 2, dueDate: '2026-07-20', periodStart: '2026-06-20', amount: 2_750_01, interest: 150_00 },
    ])
    expectConsistent(plan, today, 30)
  })

  it('semi-monthly: 4 instalments 15 days apart; the last takes the centavos left of the amount and the interest', () => {
    // 0.10% a day × 60 days × ₱1,234.57 = ₱74.0742: ₱74.07.
    const plan = planSchedule(
      { ...planFacts, principalOutstanding: 1_234_57 },
      1_300_00,
      'semi_monthly',
      config,
    )
    expect(plan.interest).toBe(74_07)
    expect(plan.total).toBe(1_374_07)
    expect(plan.instalments.map((i) => i.amount)).toEqual([343_51, 343_51, 343_51, 343_54])
    expect(plan.instalments.map((i) => i.interest)).toEqual([18_51, 18_51, 18_51, 18_54])
    expect(plan.instalments.map((i) => i.dueDate)).toEqual([
      '2026-06-05',
      '2026-06-20',
      '2026-07-05',
      '2026-07-20',
    ])
    expectConsistent(plan, today, 15)
  })

  it('takes the configured shape: 12 instalments every 31 days', () => {
    const c = { ...config, monthly: { instalments: 12, intervalDays: 31 } }
    const plan = planSchedule(
      { ...planFacts, principal: 100_000_00, principalOutstanding: 10_000_00 },
      10_000_00,
      'monthly',
      c,
    )
    expect(plan.instalments).toHaveLength(12)
    expect(plan.days).toBe(372)
    expectConsistent(plan, today, 31)
  })

  it('lowers the interest to the legal room when the room is smaller (the lender gives it up)', () => {
    // Room: ₱5,000 - ₱4,750 = ₱250, below the ₱300 the rate would charge.
    const plan = planSchedule({ ...planFacts, charged: 4_750_00 }, 5_200_00, 'monthly', config)
    expect([plan.interest, plan.interestAtRate, plan.legalRoom]).toEqual([250_00, 300_00, 250_00])
    expect(plan.total).toBe(5_450_00)
    expectConsistent(plan, today, 30)
    // The interest still to come counts against the room too.
    expect(
      planSchedule({ ...planFacts, charged: 4_700_00, interestToCome: 50_00 }, 5_200_00, 'monthly', config)
        .interest,
    ).toBe(250_00)
  })

  it('charges no interest when no room is left, and the instalments split what is owed', () => {
    const plan = planSchedule({ ...planFacts, charged: 5_000_00 }, 5_200_01, 'monthly', config)
    expect([plan.interest, plan.legalRoom, plan.total]).toEqual([0, 0, 5_200_01])
    expect(plan.instalments.map((i) => i.interest)).toEqual([0, 0])
    expectConsistent(plan, today, 30)
  })

  it('charges nothing at a rate of 0', () => {
    const plan = planSchedule(planFacts, 5_200_00, 'monthly', { ...config, interestPpmPerDay: 0 })
    expect([plan.interest, plan.interestAtRate]).toEqual([0, 0])
  })

  it('never charges above the floor of 0.2% a day, even where rounding half up would', () => {
    // At 0.2% a day, ₱12.49 for 60 days is 149.88 centavos: half up says 150, the cap allows 149.
    const atCap = { ...config, interestPpmPerDay: 2_000 }
    const plan = planSchedule({ ...planFacts, principalOutstanding: 12_49 }, 20_00, 'monthly', atCap)
    expect([plan.interestAtRate, plan.interest]).toEqual([150, 149])
    expectConsistent(plan, today, 30)
    // A rate above the cap (a configuration that skipped validation) is held to the cap as well.
    const above = planSchedule(planFacts, 5_200_00, 'monthly', { ...config, interestPpmPerDay: 3_000 })
    expect([above.interestAtRate, above.interest]).toEqual([900_00, 600_00])
    expectConsistent(above, today, 30)
  })
})

describe('scheduleInterestDueBy', () => {
  const instalments = [
    { periodStart: '2026-05-21', interest: 150_00 },
    { periodStart: '2026-06-20', interest: 150_01 },
  ]

  it('counts the interest of every instalment whose period has started by that day', () => {
    expect(scheduleInterestDueBy(instalments, '2026-05-20')).toBe(0)
    expect(scheduleInterestDueBy(instalments, '2026-05-21')).toBe(150_00)
    expect(scheduleInterestDueBy(instalments, '2026-06-19')).toBe(150_00)
    expect(scheduleInterestDueBy(instalments, '2026-06-20')).toBe(300_01)
    expect(scheduleInterestDueBy(instalments, '2027-01-01')).toBe(300_01)
    expect(scheduleInterestDueBy([], '2026-06-20')).toBe(0)
  })
})

const inst = (seq: number, dueDate: string, amount: number, paidAmount = 0): InstalmentState => ({
  seq,
  dueDate,
  amount,
  paidAmount,
})

describe('allocateToInstalments', () => {
  const schedule = [
    inst(1, '2026-06-05', 100_00),
    inst(2, '2026-06-20', 100_00),
    inst(3, '2026-07-05', 100_01),
  ]
  const paid = (xs: InstalmentState[]) => xs.map((i) => i.paidAmount)

  it('pays the oldest unpaid instalment first, then the next', () => {
    expect(paid(allocateToInstalments(schedule, 30_00))).toEqual([30_00, 0, 0])
    expect(paid(allocateToInstalments(schedule, 150_00))).toEqual([100_00, 50_00, 0])
    expect(paid(allocateToInstalments(schedule, 300_01))).toEqual([100_00, 100_00, 100_01])
  })

  it('continues from what was paid before, and skips paid instalments', () => {
    const partly = [inst(1, '2026-06-05', 100_00, 100_00), inst(2, '2026-06-20', 100_00, 40_00), schedule[2]!]
    expect(paid(allocateToInstalments(partly, 70_00))).toEqual([100_00, 100_00, 10_00])
  })

  it('orders by sequence, whatever the order given', () => {
    const shuffled = [schedule[2]!, schedule[0]!, schedule[1]!]
    const result = allocateToInstalments(shuffled, 120_00)
    expect(result.map((i) => [i.seq, i.paidAmount])).toEqual([
      [1, 100_00],
      [2, 20_00],
      [3, 0],
    ])
  })

  it('never allocates more than is unpaid: the rest is left for the caller (credit)', () => {
    const result = allocateToInstalments(schedule, 500_00)
    expect(paid(result)).toEqual([100_00, 100_00, 100_01])
    const allocated = result.reduce((sum, i, n) => sum + i.paidAmount - schedule[n]!.paidAmount, 0)
    expect(500_00 - allocated).toBe(199_99)
    for (const i of result) expect(i.paidAmount).toBeLessThanOrEqual(i.amount)
    // An instalment overpaid before (a reversal of the schedule elsewhere) takes nothing more and gives nothing back.
    const over = allocateToInstalments([inst(1, '2026-06-05', 100_00, 120_00), schedule[1]!], 10_00)
    expect(paid(over)).toEqual([120_00, 10_00])
  })

  it('leaves the input alone and answers untouched instalments as they were', () => {
    const before = structuredClone(schedule)
    const result = allocateToInstalments(schedule, 0)
    expect(schedule).toEqual(before)
    expect(result).toEqual(before)
    expect(result[0]).toBe(schedule[0])
    allocateToInstalments(schedule, 250_00)
    expect(schedule).toEqual(before)
  })
})

describe('instalments: dueDays, overdue, what to pay now', () => {
  it('dueDays counts the days past the due date: positive when late, 0 on the day, negative before', () => {
    const i = inst(1, '2026-06-05', 100_00)
    expect(instalmentDueDays(i, '2026-06-08')).toBe(3)
    expect(instalmentDueDays(i, '2026-06-05')).toBe(0)
    expect(instalmentDueDays(i, '2026-06-01')).toBe(-4)
  })

  it('an instalment is overdue when it is not fully paid and its dueDays is above 0', () => {
    expect(isInstalmentOverdue(inst(1, '2026-06-05', 100_00), '2026-06-06')).toBe(true)
    expect(isInstalmentOverdue(inst(1, '2026-06-05', 100_00, 99_99), '2026-06-06')).toBe(true)
    expect(isInstalmentOverdue(inst(1, '2026-06-05', 100_00), '2026-06-05')).toBe(false)
    expect(isInstalmentOverdue(inst(1, '2026-06-05', 100_00), '2026-06-04')).toBe(false)
    expect(isInstalmentOverdue(inst(1, '2026-06-05', 100_00, 100_00), '2026-07-01')).toBe(false)
    expect(isInstalmentPaid(inst(1, '2026-06-05', 100_00, 100_01))).toBe(true)
  })

  const schedule = [
    inst(1, '2026-06-05', 100_00, 30_00),
    inst(2, '2026-06-20', 100_00),
    inst(3, '2026-07-05', 100_01),
  ]

  it('before any due date: what is left of the next instalment', () => {
    expect(amountToPayNow(schedule, '2026-05-25')).toBe(70_00)
    expect(amountToPayNow([schedule[1]!, schedule[0]!], '2026-05-25')).toBe(70_00)
  })

  it('on and after due dates: every unpaid instalment due by today, the overdue ones and today’s', () => {
    expect(amountToPayNow(schedule, '2026-06-05')).toBe(70_00)
    expect(amountToPayNow(schedule, '2026-06-10')).toBe(70_00)
    expect(amountToPayNow(schedule, '2026-06-20')).toBe(170_00)
    expect(amountToPayNow(schedule, '2026-08-01')).toBe(270_01)
  })

  it('skips paid instalments, and is 0 when all are paid', () => {
    const firstPaid = [inst(1, '2026-06-05', 100_00, 100_00), schedule[1]!, schedule[2]!]
    expect(amountToPayNow(firstPaid, '2026-06-10')).toBe(100_00)
    expect(amountToPayNow(firstPaid, '2026-05-25')).toBe(100_00)
    expect(
      amountToPayNow(
        schedule.map((i) => ({ ...i, paidAmount: i.amount })),
        '2026-08-01',
      ),
    ).toBe(0)
    expect(amountToPayNow([], '2026-08-01')).toBe(0)
  })
})
