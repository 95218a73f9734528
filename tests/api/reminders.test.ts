/**
 * Issue 18, item 2 over the database: payment reminders are queued on the configured days before, on and after
 * the due date, once (queuing a day twice adds nothing), sent only inside 06:00-22:00 Manila (a late job moves
 * them to the next window), only to the borrower's own phone and e-mail (never to the reference the journey
 * stored), skipped once the loan is on hold, paid or its due date moved, sent once when two workers race, and
 * each contact is recorded in collection_contact. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { reminderDays } from '../../domain/loan/reminders'
import { defaultServicingConfig, servicingConfigSchema } from '../../domain/loan/servicing-config'
import { paymentReferenceOf } from '../../domain/payments/reference'
import { addDays, daysBetween, manilaDate, manilaDayStart } from '../../domain/pricing/manila-date'
import { collectionContact } from '../../server/db/schema-collection'
import { client, outboxMessage } from '../../server/db/schema-identity'
import { clientContact } from '../../server/db/schema-journey'
import { loan } from '../../server/db/schema-lending'
import { servicingJob } from '../../server/db/schema-payments'
import { paymentSchedule, scheduleInstalment } from '../../server/db/schema-servicing'
import { writeConfig } from '../../server/services/config'
import { addOffset, businessToday, clientScope } from '../../server/services/payments/clock'
import { REMINDER_JOB } from '../../server/services/payments/job-kinds'
import { runServicingJobs } from '../../server/services/payments/jobs'
import { servicingTerms } from '../../server/services/servicing/facts'
import { queueReminders, sendDueReminders } from '../../server/services/servicing/reminders'
import { createTestApp } from '../support/app'
import { call, type SignedUp, type TestApp } from './identity-helpers'
import { adminToken, clientAt, seedSmallPsgc } from './journey-helpers'

const HOUR_MS = 3_600_000

describe('payment reminders', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await createTestApp()
    await seedSmallPsgc(t)
    admin = await adminToken(t)
  })
  afterAll(() => t.close())
  afterEach(() => t.setClock(() => new Date()))

  const db = () => t.database.db
  /** An instant on the real Manila day at a wall-clock hour (fractional): the business day stays the same. */
  const todayAt = (hour: number, plusDays = 0) =>
    new Date(manilaDayStart(addDays(manilaDate(new Date()), plusDays)).getTime() + hour * HOUR_MS)
  /**
   * Moves a client's business clock as the sandbox does, without its servicing run: the run queues the day's
   * reminders at the real time (checked once below, through the sandbox call), and these tests queue at chosen
   * instants instead.
   */
  const clock = async (c: SignedUp, days: number) => {
    if (days > 0) await addOffset(db(), clientScope(c.clientId), days, new Date())
  }
  const sandboxClock = async (c: SignedUp, days: number) => {
    const r = await call(
      t,
      'POST',
      '/private/back-office/sandbox/clock',
      { clientId: c.clientId, days },
      { token: admin },
    )
    expect(r.status, JSON.stringify(r.body.response)).toBe(200)
  }
  const loanOf = async (c: SignedUp) =>
    (await db().select().from(loan).where(eq(loan.clientId, c.clientId)))[0]!
  /** Moves the client's business day to `dueDays` before the due date (negative: after). */
  const toDueDays = async (c: SignedUp, dueDays: number) => {
    const l = await loanOf(c)
    const today = await businessToday(db(), c.clientId, new Date())
    await clock(c, daysBetween(today, addDays(l.dueDate, -dueDays)))
    expect(daysBetween(await businessToday(db(), c.clientId, new Date()), l.dueDate)).toBe(dueDays)
    return l
  }
  const instanceDay = (now: Date) => businessToday(db(), null, now)
  const queue = async (c: SignedUp | null, now: Date) =>
    queueReminders(db(), { instanceDay: await instanceDay(now), clientId: c?.clientId ?? null, now })
  const contacts = (c: SignedUp) =>
    db().select().from(collectionContact).where(eq(collectionContact.clientId, c.clientId))
  const send = async (now: Date) => {
    t.setClock(() => now)
    try {
      return await sendDueReminders(t.deps)
    } finally {
      t.setClock(() => new Date())
    }
  }
  const reminderOutbox = () =>
    db().select().from(outboxMessage).where(eq(outboxMessage.purpose, 'payment_reminder'))
  const ownAddresses = async (c: SignedUp) => {
    const [row] = await db().select().from(client).where(eq(client.id, c.clientId))
    return { phone: row!.phone, email: row!.email }
  }

  it('queues one SMS and one e-mail on a configured day, once, and nothing on other days', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await toDueDays(c, 3)
    await queue(c, todayAt(7))
    const rows = await contacts(c)
    expect(rows.map((r) => [r.kind, r.channel, r.status, r.dueDate]).sort()).toEqual([
      ['before_3', 'email', 'queued', l.dueDate],
      ['before_3', 'sms', 'queued', l.dueDate],
    ])
    for (const r of rows) {
      expect(r.loanId).toBe(l.id)
      expect(r.businessDate).toBe(addDays(l.dueDate, -3))
      // Asked at 07:00 Manila: sent at the configured 09:00.
      expect(r.scheduledAt.toISOString()).toBe(todayAt(9).toISOString())
    }
    // Queued twice (a second run, a second process): nothing more.
    expect(await queue(c, todayAt(8))).toBe(0)
    expect(await queue(null, todayAt(8))).toBe(0)
    expect(await contacts(c)).toHaveLength(2)
    // The job that sends them is armed for that instant.
    const [job] = await db()
      .select()
      .from(servicingJob)
      .where(and(eq(servicingJob.kind, REMINDER_JOB), eq(servicingJob.subjectId, todayAt(9).toISOString())))
    expect(job?.runAt.toISOString()).toBe(todayAt(9).toISOString())

    // Two days before: not a configured day.
    await toDueDays(c, 2)
    await queue(c, todayAt(7))
    expect((await contacts(c)).map((r) => r.kind)).not.toContain('before_2')
  })

  it('the servicing day the sandbox clock runs queues the day’s reminders', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await loanOf(c)
    const today = await businessToday(db(), c.clientId, new Date())
    await sandboxClock(c, daysBetween(today, addDays(l.dueDate, -1)))
    const rows = await contacts(c)
    // Each configured day passed on the way (the clock ran each of them), once per channel.
    const expected = reminderDays(defaultServicingConfig.reminders)
      .filter((d) => d.dueDays >= 1 && d.dueDays <= daysBetween(today, l.dueDate))
      .map((d) => d.kind)
    expect([...new Set(rows.map((r) => r.kind))].sort()).toEqual([...expected].sort())
    expect(rows).toHaveLength(expected.length * 2)
    for (const r of rows) expect(r.status).toBe('queued')
    // Sent when due: only the latest day's (before_1) goes out, never several reminders of one loan at once.
    await send(new Date(Math.max(...rows.map((r) => r.scheduledAt.getTime()))))
    const after = await contacts(c)
    expect(after.filter((r) => r.status === 'sent').map((r) => r.kind)).toEqual(['before_1', 'before_1'])
    for (const r of after.filter((r) => r.kind !== 'before_1')) expect(r.reason).toBe('superseded')
  })

  it('sends only inside 06:00-22:00 Manila, only to the borrower, and records each contact', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await toDueDays(c, 1)
    await queue(c, todayAt(21.5))
    const rows = await contacts(c)
    expect(rows.map((r) => r.kind)).toEqual(['before_1', 'before_1'])
    // Asked at 21:30: lawful, sent at once.
    expect(rows[0]!.scheduledAt.toISOString()).toBe(todayAt(21.5).toISOString())
    // The job ran late, at 22:00 sharp and at 03:00: nothing goes out, the reminders wait for 09:00.
    const before = (await reminderOutbox()).length
    expect((await send(todayAt(22))).sent).toBe(0)
    expect((await send(todayAt(27))).sent).toBe(0)
    expect((await reminderOutbox()).length).toBe(before)
    for (const r of await contacts(c)) {
      expect(r.status).toBe('queued')
      expect(r.scheduledAt.toISOString()).toBe(todayAt(9, 1).toISOString())
    }
    // 05:59 the next day: still nothing (not due yet, and outside the window anyway).
    expect((await send(todayAt(5.99, 1))).sent).toBe(0)
    // 09:00: the job armed for the new instant sends them, through the servicing worker's round.
    t.setClock(() => todayAt(9, 1))
    await runServicingJobs(t.deps)
    const sent = await contacts(c)
    expect(sent.map((r) => r.status)).toEqual(['sent', 'sent'])
    for (const r of sent) expect(r.sentAt?.toISOString()).toBe(todayAt(9, 1).toISOString())
    const own = await ownAddresses(c)
    const messages = (await reminderOutbox()).filter(
      (m) => m.recipient === own.phone || m.recipient === own.email,
    )
    expect(messages.map((m) => m.channel).sort()).toEqual(['email', 'sms'])
    const sms = messages.find((m) => m.channel === 'sms')!
    expect(sms.body).toContain(paymentReferenceOf(c.clientId))
    expect(sms.body).toContain('hiram.ph/profile/repayment')
    expect(sms.body).toMatch(/PHP [\d,]+\.\d{2}/)
    expect(messages.find((m) => m.channel === 'email')!.subject).toBeTruthy()
    expect(l.dueDate).toBe(sent[0]!.dueDate)
    // Every instant a reminder went out at was inside the window.
    for (const r of await db().select().from(collectionContact).where(eq(collectionContact.status, 'sent'))) {
      const hour = (r.sentAt!.getUTCHours() + 8) % 24
      expect(hour).toBeGreaterThanOrEqual(6)
      expect(hour).toBeLessThan(22)
    }
  })

  it('queues on the due date and after it, per the configuration', async () => {
    const c = await clientAt(t, 'loan_page')
    await toDueDays(c, 0)
    await queue(c, todayAt(10))
    await toDueDays(c, -1)
    await queue(c, todayAt(10))
    await toDueDays(c, -7)
    await queue(c, todayAt(10))
    const kinds = new Set((await contacts(c)).map((r) => r.kind))
    for (const k of ['due_today', 'after_1', 'after_7']) expect(kinds).toContain(k)
    // The configured days and nothing else.
    const configured = new Set(reminderDays(defaultServicingConfig.reminders).map((d) => d.kind))
    for (const k of kinds) expect(configured).toContain(k)
    // Sent at 10:00 a week past due: only today's (after_7) goes out; the older ones are superseded by it.
    await send(todayAt(10))
    const rows = await contacts(c)
    for (const r of rows.filter((r) => r.kind === 'after_7')) expect(r.status).toBe('sent')
    for (const r of rows.filter((r) => r.kind !== 'after_7')) {
      expect(r.status).toBe('skipped')
      expect(r.reason).toBe('superseded')
    }
    const own = await ownAddresses(c)
    const overdue = (await reminderOutbox()).filter(
      (m) => m.recipient === own.phone && m.body.includes('still unpaid'),
    )
    expect(overdue).toHaveLength(1)
  })

  it('skips a loan on hold, a paid loan, and a reminder whose due date moved; queues none for a loan on hold', async () => {
    const held = await clientAt(t, 'loan_page')
    const paid = await clientAt(t, 'loan_page')
    const moved = await clientAt(t, 'loan_page')
    for (const c of [held, paid, moved]) {
      await toDueDays(c, 3)
      await queue(c, todayAt(7))
      expect(await contacts(c)).toHaveLength(2)
    }
    const heldLoan = await loanOf(held)
    await db().update(loan).set({ state: 'on_hold' }).where(eq(loan.id, heldLoan.id))
    const active = await call<{ amountDue: { amount: number } }>(
      t,
      'GET',
      '/private/client/loan/active',
      undefined,
      {
        token: paid.token,
      },
    )
    const payment = await call<{ status: string }>(
      t,
      'POST',
      '/private/back-office/payments',
      {
        reference: paymentReferenceOf(paid.clientId),
        amount: active.body.data.amountDue.amount,
        channel: 'bayad',
        idempotencyKey: `reminder-pay-${paid.clientId}`,
      },
      { token: admin },
    )
    expect(payment.body.data?.status, JSON.stringify(payment.body.response)).toBe('posted')
    expect((await loanOf(paid)).state).toBe('paid')
    const movedLoan = await loanOf(moved)
    await db()
      .update(loan)
      .set({ dueDate: addDays(movedLoan.dueDate, 7) })
      .where(eq(loan.id, movedLoan.id))

    await send(todayAt(10))
    const reasons = async (c: SignedUp) => (await contacts(c)).map((r) => [r.status, r.reason])
    expect(await reasons(held)).toEqual([
      ['skipped', 'loan on_hold'],
      ['skipped', 'loan on_hold'],
    ])
    expect(await reasons(paid)).toEqual([
      ['skipped', 'loan paid'],
      ['skipped', 'loan paid'],
    ])
    expect(await reasons(moved)).toEqual([
      ['skipped', 'due date changed'],
      ['skipped', 'due date changed'],
    ])
    const own = [...(await Promise.all([held, paid, moved].map(ownAddresses)))].flatMap((a) => [
      a.phone,
      a.email,
    ])
    const out = await db()
      .select()
      .from(outboxMessage)
      .where(and(eq(outboxMessage.purpose, 'payment_reminder'), inArray(outboxMessage.recipient, own)))
    expect(out).toHaveLength(0)

    // A loan on hold is not even queued: three days before its (new) due date nothing is added.
    await db()
      .update(loan)
      .set({ dueDate: addDays(heldLoan.dueDate, 1) })
      .where(eq(loan.id, heldLoan.id))
    await clock(held, 1)
    await queue(held, todayAt(7))
    expect(await contacts(held)).toHaveLength(2)
  })

  it('on a payment schedule: reminds of the oldest unpaid instalment, for its amount, and skips it once paid', async () => {
    const c = await clientAt(t, 'loan_page')
    const l = await loanOf(c)
    const today = await businessToday(db(), c.clientId, new Date())
    const [schedule] = await db()
      .insert(paymentSchedule)
      .values({
        loanId: l.id,
        clientId: c.clientId,
        type: 'monthly',
        status: 'active',
        offeredAt: new Date(),
      })
      .returning()
    const instalments = await db()
      .insert(scheduleInstalment)
      .values(
        [
          { seq: 1, dueDate: addDays(today, 3), amount: 270_000, interest: 10_000 },
          { seq: 2, dueDate: addDays(today, 33), amount: 270_000, interest: 10_000 },
        ].map((i) => ({ ...i, scheduleId: schedule!.id, loanId: l.id, periodStart: today })),
      )
      .returning()
    await db().update(loan).set({ plan: 'scheduled' }).where(eq(loan.id, l.id))
    await queue(c, todayAt(7))
    const rows = await contacts(c)
    expect(rows.map((r) => [r.kind, r.dueDate])).toEqual([
      ['before_3', addDays(today, 3)],
      ['before_3', addDays(today, 3)],
    ])
    // The first instalment's SMS goes out for its own amount, not the whole loan's.
    await send(todayAt(9.5))
    const own = await ownAddresses(c)
    const sms = (await reminderOutbox()).filter((m) => m.recipient === own.phone)
    expect(sms).toHaveLength(1)
    expect(sms[0]!.body).toContain('PHP 2,700.00')

    // The day before it, its reminder is queued, but the instalment is paid before it goes out: skipped.
    await clock(c, 2)
    await queue(c, todayAt(7))
    await db()
      .update(scheduleInstalment)
      .set({ paidAmount: 270_000 })
      .where(eq(scheduleInstalment.id, instalments[0]!.id))
    await send(todayAt(9.6))
    expect(
      (await contacts(c)).filter((r) => r.kind === 'before_1').map((r) => [r.dueDate, r.status, r.reason]),
    ).toEqual([
      [addDays(today, 3), 'skipped', 'due date changed'],
      [addDays(today, 3), 'skipped', 'due date changed'],
    ])
    // A day before the second instalment: its reminder.
    await clock(c, 30)
    await queue(c, todayAt(7))
    expect((await contacts(c)).filter((r) => r.status === 'queued').map((r) => [r.kind, r.dueDate])).toEqual([
      ['before_1', addDays(today, 33)],
      ['before_1', addDays(today, 33)],
    ])
  })

  it('two workers sending at once send each reminder once', async () => {
    const c = await clientAt(t, 'loan_page')
    await toDueDays(c, 1)
    await queue(c, todayAt(12))
    t.setClock(() => todayAt(12))
    await Promise.all([sendDueReminders(t.deps, 1), sendDueReminders(t.deps, 1), sendDueReminders(t.deps)])
    const own = await ownAddresses(c)
    const out = (await reminderOutbox()).filter((m) => m.recipient === own.phone || m.recipient === own.email)
    expect(out).toHaveLength(2)
    expect((await contacts(c)).map((r) => r.status)).toEqual(['sent', 'sent'])
  })

  it('no reminder ever goes to anyone but the borrower: every reminder in the outbox is its client’s own phone or e-mail, never a reference', async () => {
    // Reminders off: nothing is queued at all.
    const c = await clientAt(t, 'loan_page')
    await toDueDays(c, 3)
    const before = (await servicingTerms(db())).servicing
    await writeConfig(
      db(),
      'servicing',
      servicingConfigSchema,
      { ...before, reminders: { ...before.reminders, enabled: false } },
      'test: reminders off',
    )
    try {
      expect(await queue(c, todayAt(7))).toBe(0)
      expect(await contacts(c)).toHaveLength(0)
    } finally {
      await writeConfig(db(), 'servicing', servicingConfigSchema, before, 'test: reminders back on')
    }

    const sent = await db()
      .select({ recipient: outboxMessage.recipient, channel: outboxMessage.channel })
      .from(outboxMessage)
      .where(eq(outboxMessage.purpose, 'payment_reminder'))
    expect(sent.length).toBeGreaterThan(0)
    const clients = await db().select({ phone: client.phone, email: client.email }).from(client)
    const borrowers = new Set(clients.flatMap((b) => [b.phone, b.email]))
    const references = new Set(
      (await db().select({ phone: clientContact.phone }).from(clientContact)).map((r) => r.phone),
    )
    expect(references.size).toBeGreaterThan(0)
    for (const m of sent) {
      expect(borrowers.has(m.recipient)).toBe(true)
      expect(references.has(m.recipient)).toBe(false)
    }
    // And per contact: the number of sent contacts equals the number of reminder messages.
    const sentContacts = await db()
      .select()
      .from(collectionContact)
      .where(eq(collectionContact.status, 'sent'))
    expect(sentContacts.length).toBe(sent.length)
  })
})
