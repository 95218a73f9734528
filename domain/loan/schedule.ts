/**
 * Payment schedules (issue 17): the special offer that splits what a loan owes into monthly or semi-monthly
 * instalments, who is offered one, and how payments and interest follow it. Pure.
 * docs/decisions/0025-extensions-and-payment-schedules.md.
 *
 * A schedule is a restructuring, so a renewal under SEC MC 3 s.2022 / MC 14 s.2025: its interest is charged on
 * the principal still owed at the configured daily rate (at most 0.2% a day, no fees), and never takes the
 * loan's total cost above 100% of its principal: when the configured rate would, the schedule is offered at the
 * interest the room allows (the lender gives up interest; the borrower never pays above a cap).
 *
 * What is owed at the agreement (the payoff, with the contract's interest up to the end of its term) plus the
 * schedule's interest is split into equal instalments (the last takes the centavos left), each with an equal
 * share of the interest. The interest of an instalment is booked when its period starts (the agreement for the
 * first, the previous due date for the others), so a client who pays the schedule off early never pays the
 * interest of periods that had not started.
 *
 * Signs, as the spec has them (spec section 4, Overdue): an instalment's `dueDays` counts the days PAST its due
 * date (an unpaid one is overdue when it is above 0), while the loan's `repaymentInvoice.dueDays` counts the days
 * LEFT (overdue below 0).
 */
import { formatPhp } from '../format'
import { roundHalfUpDiv } from '../money'
import { NOMINAL_CAP_PPM_PER_DAY, PPM } from '../pricing/caps'
import { addDays, daysBetween } from '../pricing/manila-date'
import { type LoanFacts, legalRoom } from './extension'
import { isOnTerms } from './loan-lifecycle.machine'
import type { ScheduleType, ServicingConfig } from './servicing-config'

export interface PlannedInstalment {
  /** 1-based. */
  seq: number
  dueDate: string
  /** Centavos due on that date. */
  amount: number
  /** Of which the schedule's interest for this instalment's period. */
  interest: number
  /** The day the period starts, when its interest is booked. */
  periodStart: string
}

export interface SchedulePlan {
  type: ScheduleType
  /** What was owed when the plan was made (payoff with the contract's interest to the end of its term). */
  owed: number
  principalBasis: number
  /** The schedule's interest in all, and what the configured rate would have charged. */
  interest: number
  interestAtRate: number
  total: number
  days: number
  instalments: PlannedInstalment[]
  /** The legal room before the schedule. */
  legalRoom: number
}

export interface ScheduleEligibility {
  eligible: boolean
  /** Every rule with its result: what the back office sees of the decision. */
  rules: { rule: string; passed: boolean }[]
  /** Why not, in words (the first failed rule), or null. */
  reason: string | null
}

/** Whom the configuration offers a schedule: the decision, rule by rule. */
export function scheduleEligibility(
  facts: LoanFacts & { extensionPending: boolean; hadSchedule: boolean },
  config: ServicingConfig['schedules'],
): ScheduleEligibility {
  const dueDays = daysBetween(facts.today, facts.dueDate)
  const rules: [string, boolean, string][] = [
    ['schedulesEnabled', config.enabled, 'Payment schedules are not offered at the moment.'],
    ['onTerms', isOnTerms(facts.leaf), 'Only an active loan on its terms can be put on a schedule.'],
    ['firstSchedule', !facts.hadSchedule, 'This loan has had a payment schedule already.'],
    [
      'noPendingExtension',
      !facts.extensionPending,
      'An extension is waiting for its fee; pay it or let it expire first.',
    ],
    [
      'nearDueDate',
      dueDays <= config.daysBeforeDue,
      `A schedule is offered from ${config.daysBeforeDue} days before the due date.`,
    ],
    [
      'notTooLate',
      -dueDays <= config.daysAfterDue,
      `A schedule is offered until ${config.daysAfterDue} days after the due date.`,
    ],
    [
      'enoughPrincipal',
      facts.principalOutstanding >= Math.max(1, config.minPrincipal),
      `A schedule needs at least ${formatPhp(config.minPrincipal)} of principal still owed.`,
    ],
  ]
  const failed = rules.find(([, passed]) => !passed)
  return {
    eligible: !failed,
    rules: rules.map(([rule, passed]) => ({ rule, passed })),
    reason: failed?.[2] ?? null,
  }
}

/**
 * The plan of a schedule agreed today. `owed` is the payoff with the contract's interest to the end of its term;
 * `facts.charged` includes that interest (so `interestToCome` is 0 once it is booked).
 */
export function planSchedule(
  facts: Pick<LoanFacts, 'principal' | 'principalOutstanding' | 'charged' | 'interestToCome' | 'today'>,
  owed: number,
  type: ScheduleType,
  config: ServicingConfig['schedules'],
): SchedulePlan {
  const { instalments: count, intervalDays } = config[type]
  const days = count * intervalDays
  const room = legalRoom(facts)
  const interestAtRate = Number(
    roundHalfUpDiv(BigInt(facts.principalOutstanding) * BigInt(config.interestPpmPerDay) * BigInt(days), PPM),
  )
  // Rounding half up may add half a centavo above the daily cap; the floor of the cap bounds it.
  const nominalCap = Number(
    (BigInt(facts.principalOutstanding) * BigInt(NOMINAL_CAP_PPM_PER_DAY) * BigInt(days)) / PPM,
  )
  const interest = Math.max(0, Math.min(interestAtRate, room, nominalCap))
  const total = owed + interest
  const share = Math.floor(total / count)
  const interestShare = Math.floor(interest / count)
  const instalments: PlannedInstalment[] = []
  for (let seq = 1; seq <= count; seq++) {
    const last = seq === count
    instalments.push({
      seq,
      dueDate: addDays(facts.today, seq * intervalDays),
      periodStart: addDays(facts.today, (seq - 1) * intervalDays),
      amount: last ? total - share * (count - 1) : share,
      interest: last ? interest - interestShare * (count - 1) : interestShare,
    })
  }
  return {
    type,
    owed,
    principalBasis: facts.principalOutstanding,
    interest,
    interestAtRate,
    total,
    days,
    instalments,
    legalRoom: room,
  }
}

/** The schedule interest due by `today`: that of every instalment whose period has started. */
export function scheduleInterestDueBy(
  instalments: readonly Pick<PlannedInstalment, 'periodStart' | 'interest'>[],
  today: string,
): number {
  return instalments.reduce((sum, i) => (i.periodStart <= today ? sum + i.interest : sum), 0)
}

export interface InstalmentState {
  seq: number
  dueDate: string
  amount: number
  paidAmount: number
}

/** A payment spread over the instalments, oldest unpaid first; answers each one's new paid amount. */
export function allocateToInstalments<T extends InstalmentState>(
  instalments: readonly T[],
  amount: number,
): T[] {
  let left = amount
  return [...instalments]
    .sort((a, b) => a.seq - b.seq)
    .map((i) => {
      const take = Math.min(left, Math.max(0, i.amount - i.paidAmount))
      left -= take
      return take ? { ...i, paidAmount: i.paidAmount + take } : i
    })
}

export const isInstalmentPaid = (i: InstalmentState) => i.paidAmount >= i.amount

/** Spec section 4: days past the instalment's due date (negative before it). */
export const instalmentDueDays = (i: Pick<InstalmentState, 'dueDate'>, today: string) =>
  daysBetween(i.dueDate, today)

/** Spec section 4, Overdue: a scheduled payment is overdue when it is unpaid and its dueDays is above 0. */
export const isInstalmentOverdue = (i: InstalmentState, today: string) =>
  !isInstalmentPaid(i) && instalmentDueDays(i, today) > 0

/**
 * What to pay now: every unpaid instalment due by today (the overdue ones and today's), or else the next one.
 */
export function amountToPayNow(instalments: readonly InstalmentState[], today: string): number {
  const unpaid = [...instalments].sort((a, b) => a.seq - b.seq).filter((i) => !isInstalmentPaid(i))
  const due = unpaid.filter((i) => i.dueDate <= today)
  const chosen = due.length ? due : unpaid.slice(0, 1)
  return chosen.reduce((sum, i) => sum + i.amount - i.paidAmount, 0)
}
