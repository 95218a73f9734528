/**
 * Late-payment penalties and the overdue standing (issue 18), pure. The daily servicing run
 * (server/services/servicing/daily-run.ts) computes the same rules in set-based SQL for every loan at once; the
 * property tests (tests/domain/penalty.property.test.ts, tests/api/daily-run*.test.ts) hold the two to each other.
 * docs/decisions/0027-daily-servicing-run-and-penalties.md.
 *
 * The law (SEC MC 3 s.2022): a penalty at most 5% a month of the overdue amount, and all costs together (interest,
 * fees, extension fees, schedule interest, penalties) at most 100% of the principal over the loan's life. So:
 * - a penalty is charged per day past due after the configured grace days, on the amount overdue that day
 *   (never on penalties: no penalty on a penalty), at a daily rate the configuration keeps at or below
 *   PENALTY_CAP_PPM_PER_DAY (5% / 30 days, rounded down), each day rounded down to the centavo;
 * - each day is charged once (`penaltyThrough` remembers the last one), so running a day twice adds nothing and a
 *   catch-up after downtime charges each missed day exactly once (the run goes day by day; where one run covers
 *   several days of a schedule, the SQL sums each day on that day's overdue instalments, where `penaltyCharge`
 *   here takes one amount for all the days it is given);
 * - the charge stops at the lifetime cap: what is left of it (`legalRoom`) bounds every charge, and once it is
 *   0 nothing more is ever charged (the "accrual that never stops" of other loan systems).
 */
import { addDays, daysBetween } from '../pricing/manila-date'
import { type LoanFacts, legalRoom } from './extension'
import { PENALTY_CAP_PPM_PER_DAY, type ServicingConfig } from './servicing-config'

export type PenaltyTerms = ServicingConfig['penalties']

const PPM = 1_000_000

/** One day's penalty on an amount overdue, rounded down to the centavo. */
export function dailyPenalty(overdueAmount: number, ratePpmPerDay: number): number {
  if (overdueAmount <= 0 || ratePpmPerDay <= 0) return 0
  const rate = Math.min(ratePpmPerDay, PENALTY_CAP_PPM_PER_DAY)
  return Number((BigInt(overdueAmount) * BigInt(rate)) / BigInt(PPM))
}

/** The first day a penalty is charged for: the grace days after the first overdue day are free. */
export const firstPenaltyDay = (overdueSince: string, graceDays: number) => addDays(overdueSince, graceDays)

/**
 * The days to charge a penalty for on `today`: from the first penalty day, or the day after the last one
 * charged, through today; 0 when none.
 */
export function penaltyDaysDue(
  overdueSince: string,
  penaltyThrough: string | null,
  today: string,
  graceDays: number,
): number {
  const first = firstPenaltyDay(overdueSince, graceDays)
  const next = penaltyThrough && penaltyThrough >= first ? addDays(penaltyThrough, 1) : first
  return Math.max(0, daysBetween(next, today) + 1)
}

export interface PenaltyCharge {
  /** Centavos to book (0: nothing). */
  amount: number
  /** Days charged (each once, even when the cap cut the amount to less, or to 0). */
  days: number
  /** What the days would have cost without the lifetime cap. */
  uncapped: number
  /** Whether the lifetime cap cut the charge. */
  capped: boolean
}

/**
 * The penalty a day's run charges an overdue loan: `days` days on today's overdue amount, cut to the legal room
 * that is left. The facts are those after the day's interest was booked.
 */
export function penaltyCharge(
  terms: PenaltyTerms,
  facts: Pick<LoanFacts, 'principal' | 'charged' | 'interestToCome'>,
  overdueAmount: number,
  days: number,
): PenaltyCharge {
  if (!terms.enabled || days <= 0) return { amount: 0, days: Math.max(0, days), uncapped: 0, capped: false }
  const uncapped = days * dailyPenalty(overdueAmount, terms.ratePpmPerDay)
  const room = legalRoom(facts)
  return { amount: Math.min(uncapped, room), days, uncapped, capped: uncapped > room }
}

/** The standing a loan should be in on a day (spec section 4, Overdue), and since when it is overdue. */
export interface StandingFacts {
  plan: 'on_terms' | 'scheduled'
  dueDate: string
  /** On a schedule: the oldest instalment due before today and not fully paid (null: none). */
  oldestUnpaidDueDate: string | null
  today: string
}

export function standingOn(f: StandingFacts): { overdue: boolean; overdueSince: string | null } {
  const due = f.plan === 'scheduled' ? f.oldestUnpaidDueDate : f.dueDate
  if (!due || due >= f.today) return { overdue: false, overdueSince: null }
  return { overdue: true, overdueSince: addDays(due, 1) }
}

/** Days past due on a day: 0 while current. */
export const daysPastDue = (overdueSince: string | null, today: string) =>
  overdueSince ? Math.max(0, daysBetween(overdueSince, today) + 1) : 0
