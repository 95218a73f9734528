/**
 * The penalty rules of issue 18 (domain/loan/penalty.ts), pure: the legal ceilings by property, the days
 * charged once each, and the standing of spec section 4 (Overdue). The daily run's SQL is held to the same
 * numbers by tests/api/daily-run.test.ts and tests/api/overdue.property.test.ts.
 */
import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  dailyPenalty,
  daysPastDue,
  firstPenaltyDay,
  penaltyCharge,
  penaltyDaysDue,
  standingOn,
} from '../../domain/loan/penalty'
import {
  defaultServicingConfig,
  PENALTY_CAP_PPM_PER_DAY,
  PENALTY_CAP_PPM_PER_MONTH,
  servicingConfigSchema,
} from '../../domain/loan/servicing-config'
import { addDays } from '../../domain/pricing/manila-date'

const day = fc.integer({ min: 0, max: 3_000 }).map((n) => addDays('2026-01-01', n))
const amount = fc.integer({ min: 0, max: 100_000_000 })
const rate = fc.integer({ min: 0, max: 10_000 })

describe('late-payment penalties', () => {
  it('30 days of the daily penalty never pass 5% of the amount overdue, whatever rate is asked', () => {
    fc.assert(
      fc.property(amount, rate, (overdue, ppm) => {
        const month = 30 * dailyPenalty(overdue, ppm)
        expect(month * 1_000_000).toBeLessThanOrEqual(overdue * PENALTY_CAP_PPM_PER_MONTH)
        expect(dailyPenalty(overdue, ppm)).toBeGreaterThanOrEqual(0)
      }),
    )
    expect(PENALTY_CAP_PPM_PER_DAY).toBe(1_666)
    expect(dailyPenalty(1_000_000, 1_500)).toBe(1_500)
    expect(dailyPenalty(999, 1_500)).toBe(1)
    expect(dailyPenalty(0, 1_500)).toBe(0)
  })

  it('the configuration refuses a rate above the legal ceiling', () => {
    const withRate = (ratePpmPerDay: number) =>
      v.safeParse(servicingConfigSchema, {
        ...defaultServicingConfig,
        penalties: { ...defaultServicingConfig.penalties, ratePpmPerDay },
      }).success
    expect(withRate(PENALTY_CAP_PPM_PER_DAY)).toBe(true)
    expect(withRate(PENALTY_CAP_PPM_PER_DAY + 1)).toBe(false)
    expect(withRate(-1)).toBe(false)
  })

  it('charges each day once: the days due, charged and asked again, are none', () => {
    fc.assert(
      fc.property(
        day,
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 400 }),
        (since, grace, n) => {
          const today = addDays(since, n)
          const due = penaltyDaysDue(since, null, today, grace)
          expect(due).toBe(Math.max(0, n - grace + 1))
          // Charged through today: nothing more today; one more the next day.
          const through = due > 0 ? today : null
          expect(penaltyDaysDue(since, through, today, grace)).toBe(0)
          if (due > 0) expect(penaltyDaysDue(since, through, addDays(today, 1), grace)).toBe(1)
          // Day by day adds up to the same days as one catch-up.
          let charged: string | null = null
          let total = 0
          for (let d = 0; d <= n; d += Math.max(1, Math.floor(n / 7))) {
            const at = addDays(since, d)
            const k = penaltyDaysDue(since, charged, at, grace)
            if (k > 0) charged = at
            total += k
          }
          const last = penaltyDaysDue(since, charged, today, grace)
          expect(total + last).toBe(due)
        },
      ),
    )
    expect(firstPenaltyDay('2026-12-11', 3)).toBe('2026-12-14')
  })

  it('stops at the legal room: the charge is cut to it, and nothing is charged once it is 0', () => {
    const terms = { enabled: true, graceDays: 0, ratePpmPerDay: 1_666 }
    fc.assert(
      fc.property(
        fc.integer({ min: 100_000, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_200_000 }),
        fc.integer({ min: 1, max: 60 }),
        (principal, charged, days) => {
          const facts = { principal, charged: Math.min(charged, principal), interestToCome: 0 }
          const c = penaltyCharge(terms, facts, principal, days)
          expect(c.amount).toBeLessThanOrEqual(principal - facts.charged)
          expect(c.amount).toBeLessThanOrEqual(c.uncapped)
          expect(c.capped).toBe(c.uncapped > principal - facts.charged)
          expect(facts.charged + c.amount).toBeLessThanOrEqual(principal)
        },
      ),
    )
    expect(
      penaltyCharge(terms, { principal: 500_000, charged: 500_000, interestToCome: 0 }, 500_000, 5).amount,
    ).toBe(0)
    expect(
      penaltyCharge({ ...terms, enabled: false }, { principal: 1, charged: 0, interestToCome: 0 }, 9, 9)
        .amount,
    ).toBe(0)
  })

  it('overdue the day after an unpaid due date (on terms) or instalment (on a schedule)', () => {
    expect(
      standingOn({ plan: 'on_terms', dueDate: '2026-12-10', oldestUnpaidDueDate: null, today: '2026-12-10' }),
    ).toEqual({ overdue: false, overdueSince: null })
    expect(
      standingOn({ plan: 'on_terms', dueDate: '2026-12-10', oldestUnpaidDueDate: null, today: '2026-12-11' }),
    ).toEqual({ overdue: true, overdueSince: '2026-12-11' })
    // On a schedule the loan's own due date does not count: its instalments do.
    expect(
      standingOn({ plan: 'scheduled', dueDate: '2026-12-01', oldestUnpaidDueDate: null, today: '2026-12-20' })
        .overdue,
    ).toBe(false)
    expect(
      standingOn({
        plan: 'scheduled',
        dueDate: '2026-12-01',
        oldestUnpaidDueDate: '2026-12-15',
        today: '2026-12-20',
      }),
    ).toEqual({ overdue: true, overdueSince: '2026-12-16' })
    expect(daysPastDue('2026-12-11', '2026-12-11')).toBe(1)
    expect(daysPastDue(null, '2026-12-11')).toBe(0)
  })
})
