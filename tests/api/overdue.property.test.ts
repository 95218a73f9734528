/**
 * Issue 18's Done-when over the real API: "Property tests over random histories (extensions, schedules, partial
 * payments, days skipped and caught up): penalties never pass 5% a month of the overdue amount, total cost never
 * passes 100% of principal, running the day twice changes nothing."
 *
 * Each run takes a fresh client with an active loan (some runs at the highest lawful penalty rate, 1 666 ppm a day,
 * with no grace days, so the lifetime cap is reached) and plays a random history: partial payments by the back
 * office, moves of the client's clock by 1 to 60 days (up to 300 in the capped runs), moves to a few days around
 * the due date, at most one extension (chosen, signed with the SMS code, its fee paid), at most one payment
 * schedule agreed from a special offer, a hold released days later, and days skipped by the worker (the client's
 * clock moved without the run) then caught up by the instance's `runServicingDayOnce` after forgetting the last
 * few servicing days. After every step, from the database alone (the penalty rules re-derived here, apart from
 * the daily run's SQL):
 * (a) in every 30-day window, the penalties charged for its days (an entry covering several days spread evenly
 *     over them) are at most 5% of the largest amount owed in it (principal, interest and fees, never penalties),
 *     and each entry is at most floor(owed × 1 666 / 1e6) a day for the days its memo names;
 * (b) every charge together is at most 100% of principal, and once it is reached no penalty is charged again;
 * (c) running the client's business day again services nothing and changes nothing (a loan not yet run today,
 *     fresh or just released from a hold, is run once first);
 * (d) every day a penalty covers is charged once, is past the due date (on terms) or the oldest unpaid instalment's
 *     date (on a schedule) in force when it was run plus the grace days, and not a day the loan was on hold;
 * and, after clock moves, the loan's standing says what its due date or instalments say.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set; OVERDUE_RUNS=30 soaks deeper. A case found: a
 * catch-up of several days on a schedule charged every day on the instalments past due on the last one
 * (`catchUpAcrossInstalment`); the daily run now charges each day on that day's. A false alarm of the test's own
 * (`refusedScheduleThenHold`): a refused offer skipped the step's snapshot after its clock move, so the next
 * hold was dated from a stale day; every step now starts by checking that its snapshot is today's.
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ActiveLoan } from '../../domain/contract/lending-answers'
import type {
  PaymentSchedule,
  RolloverApplication,
  ScheduleOffer,
} from '../../domain/contract/servicing-answers'
import { chargeKinds } from '../../domain/loan/ledger'
import {
  defaultServicingConfig,
  PENALTY_CAP_PPM_PER_DAY,
  PENALTY_CAP_PPM_PER_MONTH,
  type ServicingConfig,
  servicingConfigSchema,
} from '../../domain/loan/servicing-config'
import { addDays, daysBetween } from '../../domain/pricing/manila-date'
import { stateTransition } from '../../server/db/schema-journey'
import { loan } from '../../server/db/schema-lending'
import { loanLedgerEntry, servicingDay } from '../../server/db/schema-payments'
import { paymentSchedule, scheduleInstalment } from '../../server/db/schema-servicing'
import { writeConfig } from '../../server/services/config'
import { addOffset, businessToday, clientScope } from '../../server/services/payments/clock'
import { runServicingDay, runServicingDayOnce } from '../../server/services/payments/servicing'
import { createTestApp } from '../support/app'
import { usingPostgres } from '../support/database'
import { call, lastCode, later, type SignedUp, type TestApp } from './identity-helpers'
import { adminToken, clientAt, seedSmallPsgc } from './journey-helpers'
import { backOffice, type EntryRow, type LoanRow } from './servicing-helpers'

type Action =
  /** A partial payment: a share of today's payoff. */
  | { type: 'pay'; share: number }
  /** The client's clock `days` on (at most 60 unless the run is capped); each day run. */
  | { type: 'clock'; days: number }
  /** The clock to `offset` days from the due date in force (nothing when already past it). */
  | { type: 'toDue'; offset: number }
  /** An extension, taken `at` days from the due date (the clock moved there first when that is still ahead). */
  | { type: 'extend'; kind: 'cheap' | 'expensive'; at?: number }
  /** A payment schedule agreed `at` days from the due date (likewise). */
  | { type: 'schedule'; kind: 'monthly' | 'semi_monthly'; at?: number }
  /**
   * The worker down: the client's clock `skip` days on with no run, then the instance's last `rerun` days
   * forgotten and caught up.
   */
  | { type: 'catchUp'; skip: number; rerun: number }
  /** Held by the back office, the clock `days` on, released. */
  | { type: 'hold'; days: number }

interface Run {
  capped: boolean
  actions: Action[]
}

const RUNS = Number(process.env.OVERDUE_RUNS ?? (usingPostgres ? 5 : 6))
/** OVERDUE_SEED and OVERDUE_PATH replay a failure fast-check reported (it stops at the first: no shrinking). */
const replay = process.env.OVERDUE_SEED
  ? { seed: Number(process.env.OVERDUE_SEED), path: process.env.OVERDUE_PATH }
  : {}
/** Past one SMS code's minute per phone (onboarding's codes, then the extension's, then the schedule's). */
const CODE_WAIT_MS = 3 * 60_000
const PPM = 1_000_000
const maxTerms: ServicingConfig['penalties'] = {
  enabled: true,
  graceDays: 0,
  ratePpmPerDay: PENALTY_CAP_PPM_PER_DAY,
}

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('pay' as const),
      share: fc.double({ min: 0.01, max: 0.6, noNaN: true }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ type: fc.constant('clock' as const), days: fc.integer({ min: 1, max: 60 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('clock' as const), days: fc.integer({ min: 100, max: 300 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('toDue' as const), offset: fc.integer({ min: -3, max: 8 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('extend' as const),
      kind: fc.constantFrom('cheap' as const, 'expensive' as const),
      at: fc.integer({ min: -12, max: 6 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('schedule' as const),
      kind: fc.constantFrom('monthly' as const, 'semi_monthly' as const),
      at: fc.integer({ min: -4, max: 32 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('catchUp' as const),
      skip: fc.integer({ min: 1, max: 40 }),
      rerun: fc.integer({ min: 0, max: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('hold' as const), days: fc.integer({ min: 1, max: 20 }) }),
  },
)

const runArb: fc.Arbitrary<Run> = fc.record({
  capped: fc.boolean(),
  actions: fc.array(actionArb, { minLength: 3, maxLength: 8 }),
})

/**
 * Always run too, at the highest rate: overdue and charged, extended within the grace window, overdue again, a
 * schedule agreed, an instalment missed, a part payment, days skipped and caught up, a hold, then years: the cap.
 */
const walkthrough: Run = {
  capped: true,
  actions: [
    { type: 'toDue', offset: 3 },
    { type: 'extend', kind: 'cheap' },
    { type: 'pay', share: 0.1 },
    { type: 'toDue', offset: 2 },
    { type: 'schedule', kind: 'semi_monthly' },
    { type: 'clock', days: 20 },
    { type: 'pay', share: 0.05 },
    { type: 'catchUp', skip: 12, rerun: 2 },
    { type: 'hold', days: 6 },
    { type: 'clock', days: 300 },
    { type: 'clock', days: 300 },
    { type: 'catchUp', skip: 30, rerun: 1 },
    { type: 'clock', days: 40 },
  ],
}

/**
 * A schedule offer refused after the clock moved to the day it was asked for (days past due charged on the way),
 * then a hold: the held days are counted from the day of the hold, not from the step before the move.
 */
const refusedScheduleThenHold: Run = {
  capped: false,
  actions: [
    { type: 'pay', share: 0.01 },
    { type: 'clock', days: 6 },
    { type: 'toDue', offset: 4 },
    { type: 'schedule', kind: 'semi_monthly', at: 31 },
    { type: 'hold', days: 13 },
    { type: 'clock', days: 57 },
    { type: 'clock', days: 55 },
    { type: 'pay', share: 0.01 },
  ],
}

/** A schedule's instalment missed, then the worker down across the next instalment's due date. */
const catchUpAcrossInstalment: Run = {
  capped: false,
  actions: [
    { type: 'toDue', offset: -1 },
    { type: 'schedule', kind: 'semi_monthly' },
    { type: 'clock', days: 20 },
    { type: 'catchUp', skip: 20, rerun: 0 },
  ],
}

const isCharge = (kind: string) => (chargeKinds as readonly string[]).includes(kind)
const owedPart = (part: string) => part === 'principal' || part === 'interest' || part === 'fees'

/** What the daily run goes by on a day: the loan's plan, due date and instalments as they were when it ran. */
interface Inputs {
  state: string
  plan: string
  dueDate: string
  instalments: { dueDate: string; unpaid: number }[]
}

interface Snapshot {
  today: string
  row: LoanRow
  entries: EntryRow[]
  transitions: { toState: string; event: string }[]
  inputs: Inputs
}

/** A penalty entry's days, from its memo ('late payment D' or 'late payment A to B'). */
function coveredDays(e: EntryRow) {
  const m = /^late payment (\d{4}-\d{2}-\d{2})(?: to (\d{4}-\d{2}-\d{2}))?$/.exec(e.memo ?? '')
  if (!m) throw new Error(`penalty entry ${e.id} has no day range: ${e.memo}`)
  const from = m[1]!
  const to = m[2] ?? from
  return { from, to, days: daysBetween(from, to) + 1 }
}

describe('overdue and penalties over random histories', () => {
  let t: TestApp
  let admin: string
  let bo: ReturnType<typeof backOffice>
  let keys = 0
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await adminToken(t)
    bo = backOffice(t, admin)
  })
  afterAll(() => t?.close())

  const setPenalties = (penalties: ServicingConfig['penalties']) =>
    writeConfig(
      t.database.db,
      'servicing',
      servicingConfigSchema,
      { ...defaultServicingConfig, penalties },
      'test: penalty terms of an overdue property run',
    )

  const active = async (c: SignedUp) => {
    const answer = await call<ActiveLoan | null>(t, 'GET', '/private/client/loan/active', undefined, {
      token: c.token,
    })
    expect(answer.status).toBe(200)
    return answer.body.data
  }

  async function snapshot(c: SignedUp, loanId: number): Promise<Snapshot> {
    const db = t.database.db
    const [row] = await db.select().from(loan).where(eq(loan.id, loanId))
    const entries = await db
      .select()
      .from(loanLedgerEntry)
      .where(eq(loanLedgerEntry.loanId, loanId))
      .orderBy(asc(loanLedgerEntry.id))
    const transitions = await db
      .select({ toState: stateTransition.toState, event: stateTransition.event })
      .from(stateTransition)
      .where(and(eq(stateTransition.machine, 'loanLifecycle'), eq(stateTransition.subjectId, loanId)))
      .orderBy(asc(stateTransition.id))
    const instalments = await db
      .select({
        dueDate: scheduleInstalment.dueDate,
        amount: scheduleInstalment.amount,
        paid: scheduleInstalment.paidAmount,
      })
      .from(scheduleInstalment)
      .innerJoin(
        paymentSchedule,
        and(eq(paymentSchedule.id, scheduleInstalment.scheduleId), eq(paymentSchedule.status, 'active')),
      )
      .where(eq(scheduleInstalment.loanId, loanId))
    return {
      today: await businessToday(db, c.clientId, t.deps.now()),
      row: row!,
      entries,
      transitions,
      inputs: {
        state: row!.state,
        plan: row!.plan,
        dueDate: row!.dueDate,
        instalments: instalments.map((i) => ({ dueDate: i.dueDate, unpaid: i.amount - i.paid })),
      },
    }
  }

  /** Whether the run should find the loan overdue on `day`, and since when (null: current). */
  function overdueSince(inputs: Inputs, day: string): string | null {
    if (inputs.plan === 'scheduled') {
      const late = inputs.instalments.filter((i) => i.dueDate < day && i.unpaid > 0).map((i) => i.dueDate)
      return late.length ? addDays(late.sort()[0]!, 1) : null
    }
    return inputs.dueDate < day ? addDays(inputs.dueDate, 1) : null
  }

  /** (a) and (b): the 5% a month and the 100% of principal, from the ledger alone. */
  function capsHold(s: Snapshot, seen: Set<string>) {
    const { entries, row } = s
    // The amount owed (principal, interest, fees) as it ran: per date its largest, and when each penalty was booked.
    let owed = 0
    const largest = new Map<string, number>()
    const endOfDay = new Map<string, number>()
    const at = new Map<number, number>()
    const time = (e: EntryRow) => new Date(e.at).getTime()
    let charged = 0
    let capReachedAt: number | null = null
    for (const [i, e] of entries.entries()) {
      largest.set(e.businessDate, Math.max(largest.get(e.businessDate) ?? owed, owed))
      if (e.kind === 'penalty') {
        // The run books the day's interest before its penalty; an entry of the same run after it counts too.
        let basis = owed
        for (const next of entries.slice(i + 1)) {
          if (time(next) !== time(e) || next.businessDate !== e.businessDate) break
          if (owedPart(next.part)) basis += next.amount
        }
        at.set(e.id, Math.max(owed, basis))
        if (capReachedAt !== null)
          throw new Error(`penalty ${e.id} after the cap was reached at entry ${capReachedAt}`)
      }
      if (owedPart(e.part)) owed += e.amount
      largest.set(e.businessDate, Math.max(largest.get(e.businessDate)!, owed))
      endOfDay.set(e.businessDate, owed)
      if (isCharge(e.kind)) {
        charged += e.amount
        if (charged >= row.principal && capReachedAt === null) capReachedAt = e.id
      }
    }
    // (b) Every charge together: at most 100% of principal.
    expect(charged, 'total cost').toBeLessThanOrEqual(row.principal)
    if (capReachedAt !== null) seen.add('cap')
    // (a) Each entry: at most the highest lawful daily rate on what was owed, for the days it covers.
    const penalties = entries.filter((e) => e.kind === 'penalty')
    const spread: { from: string; to: string; days: number; amount: number; basis: number }[] = []
    for (const e of penalties) {
      const days = coveredDays(e)
      expect(days.to, `penalty ${e.id} booked on the last day it covers`).toBe(e.businessDate)
      expect(days.days).toBeGreaterThan(0)
      expect(e.part).toBe('penalties')
      expect(e.amount).toBeGreaterThan(0)
      const basis = at.get(e.id)!
      expect(e.amount, `penalty ${e.id} on ${basis} owed for ${days.days} days`).toBeLessThanOrEqual(
        days.days * Math.floor((basis * PENALTY_CAP_PPM_PER_DAY) / PPM),
      )
      if (days.days > 1) seen.add('multi-day penalty')
      spread.push({ ...days, amount: e.amount, basis })
    }
    if (!spread.length) return
    seen.add('penalty')
    // Every 30-day window that holds a penalised day: its share of the penalties at most 5% of the most owed in it.
    const first = spread.map((p) => p.from).sort()[0]!
    const last = spread
      .map((p) => p.to)
      .sort()
      .at(-1)!
    let carried = 0
    const owedOn = new Map<string, number>()
    const dates = [...largest.keys()].sort()
    for (let d = dates[0]!, k = 0; d <= last; d = addDays(d, 1)) {
      while (k < dates.length && dates[k]! <= d) {
        if (dates[k] === d) owedOn.set(d, largest.get(d)!)
        k++
      }
      if (!owedOn.has(d)) owedOn.set(d, carried)
      // What is owed at the end of a day carries to the next.
      carried = endOfDay.get(d) ?? carried
    }
    for (let w = addDays(first, -29); w <= last; w = addDays(w, 1)) {
      const end = addDays(w, 29)
      let sum = 0
      let most = 0
      for (let d = w; d <= end; d = addDays(d, 1)) most = Math.max(most, owedOn.get(d) ?? 0)
      for (const p of spread) {
        const from = p.from > w ? p.from : w
        const to = p.to < end ? p.to : end
        const overlap = from <= to ? daysBetween(from, to) + 1 : 0
        if (!overlap) continue
        sum += (p.amount * overlap) / p.days
        most = Math.max(most, p.basis)
      }
      expect(
        sum * PPM,
        `penalties of the 30 days from ${w}: ${sum} on at most ${most} owed`,
      ).toBeLessThanOrEqual(PENALTY_CAP_PPM_PER_MONTH * most + 1e-3)
    }
  }

  /** (d) The penalties a step booked: each day once, overdue past the grace days as the run saw it, never on hold. */
  function penaltiesLawful(
    before: Snapshot,
    after: Snapshot,
    grace: number,
    held: { from: string; to: string }[],
    charged: Set<string>,
  ) {
    const lastId = before.entries.at(-1)?.id ?? 0
    for (const e of after.entries.filter((x) => x.kind === 'penalty' && x.id > lastId)) {
      const { from, to } = coveredDays(e)
      // On a schedule the amount overdue is the instalments past due: at most the highest rate on each day's.
      let most = 0
      for (let d = from; d <= to; d = addDays(d, 1)) {
        const late = before.inputs.instalments.filter((i) => i.dueDate < d).reduce((a, i) => a + i.unpaid, 0)
        most += Math.floor((late * PENALTY_CAP_PPM_PER_DAY) / PPM)
      }
      if (before.inputs.plan === 'scheduled')
        expect(
          e.amount,
          `penalty ${e.id} (${e.memo}) on the instalments overdue each day`,
        ).toBeLessThanOrEqual(most)
      for (let d = from; d <= to; d = addDays(d, 1)) {
        expect(charged.has(d), `penalty day ${d} charged twice`).toBe(false)
        charged.add(d)
        const since = overdueSince(before.inputs, d)
        expect(since, `penalty ${e.id} for ${d}, when the loan was current`).not.toBeNull()
        expect(
          d >= addDays(since!, grace),
          `penalty ${e.id} for ${d}: overdue since ${since}, ${grace} grace days`,
        ).toBe(true)
        for (const h of held) expect(d >= h.from && d <= h.to, `penalty for ${d}, on hold`).toBe(false)
      }
    }
  }

  /** (c) The client's day run again: nothing to do (a loan not run today yet is run once, then nothing). */
  async function runTwice(c: SignedUp, loanId: number, mayBeBehind: boolean) {
    const db = t.database.db
    const instanceDay = await businessToday(db, null, t.deps.now())
    const today = await businessToday(db, c.clientId, t.deps.now())
    const [row] = await db.select().from(loan).where(eq(loan.id, loanId))
    const behind = row!.state === 'active' && (row!.servicedThrough ?? '') < today
    if (behind && !mayBeBehind)
      throw new Error(`loan serviced through ${row!.servicedThrough}, today is ${today}`)
    const first = await runServicingDay(t.deps, instanceDay, c.clientId)
    expect(first.loans).toBe(behind ? 1 : 0)
    const once = await snapshot(c, loanId)
    if (once.row.state === 'active') expect(once.row.servicedThrough).toBe(today)
    const again = await runServicingDay(t.deps, instanceDay, c.clientId)
    expect(again).toMatchObject({ loans: 0, overdue: 0, caughtUp: 0, penalties: 0, interest: 0 })
    const twice = await snapshot(c, loanId)
    expect(twice.entries).toEqual(once.entries)
    expect(twice.row.version).toBe(once.row.version)
    expect(twice.row).toEqual(once.row)
    expect(twice.transitions.length).toBe(once.transitions.length)
    return twice
  }

  /** The standing the run left after running days with nothing else happening. */
  function standingHolds(s: Snapshot) {
    if (s.row.state !== 'active') return
    const since = overdueSince(s.inputs, s.today)
    expect(s.row).toMatchObject({
      servicedThrough: s.today,
      standing: since ? 'overdue' : 'current',
      overdueSince: since,
    })
    const last = s.transitions.at(-1)
    expect(last?.toState).toBe(`active.${s.row.plan}.${s.row.standing}`)
  }

  /** Signs an amendment's documents with the SMS code, `wait` past the last code to this phone. */
  async function sign<T>(c: SignedUp, path: string, wait: number) {
    return later(t, wait, async () => {
      const sent = await call(t, 'POST', path, {}, { token: c.token })
      expect(sent.status, JSON.stringify(sent.body.response)).toBe(200)
      const code = await lastCode(t, c.phone, 'amendment')
      const signed = await call<T>(t, 'POST', path, { code }, { token: c.token })
      expect(signed.status, JSON.stringify(signed.body.response)).toBe(200)
      return signed.body.data
    })
  }

  async function play(run: Run, seen: Set<string>) {
    const terms = run.capped ? maxTerms : defaultServicingConfig.penalties
    const c = await clientAt(t, 'loan_page')
    const db = t.database.db
    const loanId = (await db.select().from(loan).where(eq(loan.clientId, c.clientId)))[0]!.id
    let s = await snapshot(c, loanId)
    const held: { from: string; to: string }[] = []
    const charged = new Set<string>()
    let extended = false
    let scheduled = false
    let codes = 0
    capsHold(s, seen)
    for (const action of run.actions) {
      const prev = s
      let ranDays = false
      let released = false
      if (prev.row.state !== 'active' && prev.row.state !== 'on_hold') break
      // Every step starts from the snapshot of the one before: its day is the hold's first (see 'hold').
      expect(await businessToday(db, c.clientId, t.deps.now()), 'the last step checked').toBe(prev.today)
      // An extension or a schedule at a day still ahead: the clock there first (its days run), then the offer.
      let movedAhead = false
      if ((action.type === 'extend' || action.type === 'schedule') && action.at !== undefined) {
        const ahead = daysBetween(prev.today, addDays(prev.row.dueDate, action.at))
        if (ahead > 0) {
          expect((await bo.clock(c, ahead)).status).toBe(200)
          movedAhead = true
        }
      }
      const view = await active(c)
      switch (action.type) {
        case 'pay': {
          const amount = Math.max(1, Math.floor(view!.amountDue.amount * action.share))
          const paid = await bo.pay(c, amount, `overdue-${c.clientId}-${keys++}`)
          expect(paid.status).toBe(201)
          break
        }
        case 'clock':
        case 'toDue': {
          const days =
            action.type === 'clock'
              ? run.capped
                ? action.days
                : Math.min(action.days, 60)
              : Math.max(0, daysBetween(prev.today, prev.row.dueDate) + action.offset)
          if (!days) continue
          const moved = await bo.clock(c, days)
          expect(moved.status).toBe(200)
          expect(moved.body.data.daysRun).toBe(days)
          ranDays = true
          break
        }
        case 'extend': {
          const offer = view!.rollovers.find((r) => r.type === action.kind && r.status === 'inactive')
          if (extended || !offer?.available) {
            seen.add('extension refused')
            // The clock moved all the same: its days are checked like a clock move's (not skipped, so the next
            // step does not start from a stale day).
            if (!movedAhead) continue
            ranDays = true
            break
          }
          const chosen = await call<{ id: number; loanId: number }>(
            t,
            'PUT',
            '/private/client/loan/active/rollover',
            { type: action.kind },
            { token: c.token },
          )
          expect(chosen.status, JSON.stringify(chosen.body.response)).toBe(200)
          const { id: rid } = chosen.body.data
          const app = await call<RolloverApplication>(
            t,
            'POST',
            `/private/client/loan/${loanId}/rollover/${rid}/application`,
            undefined,
            { token: c.token },
          )
          expect(app.status).toBe(201)
          codes++
          await sign<RolloverApplication>(
            c,
            `/private/client/loan/${loanId}/rollover/${rid}/application/${app.body.data.id}/document`,
            codes * CODE_WAIT_MS,
          )
          const fee = (await active(c))!.rollovers.find((r) => r.id === rid)!.fee.amount
          const paid = await bo.pay(c, fee, `overdue-fee-${c.clientId}-${keys++}`)
          expect(paid.status).toBe(201)
          const [row] = await db.select().from(loan).where(eq(loan.id, loanId))
          expect(row!.dueDate).toBe(offer.newDueDate)
          extended = true
          seen.add('extended')
          break
        }
        case 'schedule': {
          const offer = view!.specialOffers?.find((o) => o.type === action.kind)
          if (scheduled || !offer?.available) {
            seen.add('schedule refused')
            // Likewise: a refused offer after the clock moved is a clock move (seed 1271849112 held the loan
            // from a stale day and blamed the days the move had charged on the hold).
            if (!movedAhead) continue
            ranDays = true
            break
          }
          const path = `/private/client/loan/active/payment-schedule/special-offer/submit/${offer.id}`
          const quote = await call<ScheduleOffer>(t, 'GET', path, undefined, { token: c.token })
          expect(quote.status).toBe(200)
          codes++
          const agreed = await sign<PaymentSchedule>(c, path, codes * CODE_WAIT_MS)
          expect(agreed.type).toBe(action.kind)
          scheduled = true
          seen.add('scheduled')
          break
        }
        case 'catchUp': {
          // The worker was down: the client's days pass with no run, then the instance catches up its last days.
          const now = t.deps.now()
          await addOffset(db, clientScope(c.clientId), action.skip, now)
          const instanceToday = await businessToday(db, null, now)
          const kept = addDays(instanceToday, -(action.rerun + 1))
          await db.insert(servicingDay).values({ day: kept, completedAt: now }).onConflictDoNothing()
          await db.execute(sql`delete from servicing_day where day > ${kept}::date`)
          expect(await runServicingDayOnce(t.deps)).toBe(instanceToday)
          ranDays = true
          seen.add('caught up')
          break
        }
        case 'hold': {
          if (prev.row.state !== 'active') continue
          const path = (what: string) => `/private/back-office/loan/${loanId}/${what}`
          const hold = await call(
            t,
            'POST',
            path('hold'),
            { reason: 'Dispute opened by the client' },
            { token: admin },
          )
          expect(hold.status, JSON.stringify(hold.body.response)).toBe(200)
          expect((await bo.clock(c, action.days)).status).toBe(200)
          const release = await call(
            t,
            'POST',
            path('release'),
            { reason: 'Dispute closed' },
            { token: admin },
          )
          expect(release.status, JSON.stringify(release.body.response)).toBe(200)
          // On hold from the day after the hold through the day before the release (that day is charged again).
          if (action.days > 1)
            held.push({ from: addDays(prev.today, 1), to: addDays(prev.today, action.days - 1) })
          released = true
          seen.add('held')
          break
        }
      }
      // (c) first: a loan fresh or just released is run once for today, then nothing more.
      await runTwice(c, loanId, released || prev.row.servicedThrough === null)
      s = await snapshot(c, loanId)
      if (ranDays) standingHolds(s)
      capsHold(s, seen)
      penaltiesLawful(prev, s, terms.graceDays, held, charged)
      if (s.transitions.some((x) => x.event === 'CAUGHT_UP')) seen.add('caught up standing')
    }
  }

  it(
    'penalties stay within 5% a month and the 100% cap, and a day run twice changes nothing',
    async () => {
      const seen = new Set<string>()
      try {
        await fc.assert(
          fc.asyncProperty(runArb, async (run) => {
            await setPenalties(run.capped ? maxTerms : defaultServicingConfig.penalties)
            await play(run, seen)
          }),
          // The fixed examples run first, then RUNS random histories.
          {
            numRuns: RUNS + 3,
            examples: [[walkthrough], [catchUpAcrossInstalment], [refusedScheduleThenHold]],
            endOnFailure: true,
            ...replay,
          },
        )
      } finally {
        await setPenalties(defaultServicingConfig.penalties)
      }
      // Not vacuous: the walkthrough and the runs reached every case (not when replaying a path: that skips the
      // fixed examples, and only the walkthrough reaches the cap).
      if (!replay.path)
        for (const what of [
          'penalty',
          'multi-day penalty',
          'cap',
          'extended',
          'scheduled',
          'caught up',
          'held',
        ])
          expect(seen).toContain(what)
    },
    150_000 + RUNS * 30_000,
  )
})
