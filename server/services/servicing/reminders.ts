/**
 * Payment reminders (issue 18, item 2; docs/decisions/0028-reminders-and-collection-contacts.md): queued once a
 * business day for every active loan in one set-based statement, sent by a servicing job, each one recorded in
 * `collection_contact` (queued, then sent, skipped or failed, with the reason).
 *
 * Lawful by construction (SEC MC 18 s.2019, RA 11765, Data Privacy Act):
 * - the recipient is read from `client` when sending, by channel: the borrower's own phone or e-mail. No other
 *   table is ever read for a recipient (the references of `client_contact` are never contacted);
 * - every scheduled instant is inside 06:00-22:00 Manila (`reminderSendAt`), and the window is checked again at
 *   send time: a job that runs late (downtime, a queue) moves the reminders to the next window instead;
 * - the texts are server/locales/en/reminders.json, checked against the banned phrases in tests;
 * - on hold, paid, sold and written-off loans get none (checked when queuing and again when sending), nor does a
 *   reminder whose due date is no longer the loan's (an extension or a payment moved it);
 * - sending is at most once: a contact is marked `sending` (committed) before the provider is called, so a second
 *   process or a retried job never sends it again. A process that dies in between leaves it `sending`: one
 *   reminder lost, the side to err on when the message is a request for money.
 * Logs carry ids and counts only, never a phone, an e-mail or an amount.
 */
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm'
import { outstandingOf } from '../../../domain/loan/ledger'
import {
  insideLawfulWindow,
  type ReminderTerms,
  reminderDays,
  reminderSendAt,
} from '../../../domain/loan/reminders'
import { loanNumberOf } from '../../../domain/payments/reference'
import { addDays } from '../../../domain/pricing/manila-date'
import type { Db, DbOrTx } from '../../db/client'
import { collectionContact } from '../../db/schema-collection'
import { client } from '../../db/schema-identity'
import { loan } from '../../db/schema-lending'
import { servicingJob } from '../../db/schema-payments'
import { paymentSchedule, scheduleInstalment } from '../../db/schema-servicing'
import type { AppDeps } from '../../deps'
import { businessToday } from '../payments/clock'
import { REMINDER_JOB } from '../payments/job-kinds'
import { todaysBalances } from '../payments/views'
import { servicingTerms } from './facts'
import { reminderMessage } from './reminder-texts'

type SendDeps = Pick<AppDeps, 'database' | 'logger' | 'now' | 'messaging'>
type Contact = typeof collectionContact.$inferSelect

/** Contacts claimed per round of `sendDueReminders`. */
export const REMINDER_BATCH = 200
/** A provider failure is retried this many times in all (15 minutes apart, inside the window), then `failed`. */
const MAX_SEND_ATTEMPTS = 3
const RETRY_MS = 15 * 60_000
const CHANNELS = ['sms', 'email'] as const

/** The job that sends the reminders due at `at` (one per instant, re-armed if it already ran). */
async function armReminderJob(db: DbOrTx, at: Date, now: Date) {
  await db
    .insert(servicingJob)
    .values({ kind: REMINDER_JOB, subjectId: at.toISOString(), runAt: at, createdAt: now })
    .onConflictDoUpdate({
      target: [servicingJob.kind, servicingJob.subjectId],
      set: { doneAt: null, attempts: 0, runAt: at, lastError: null },
    })
}

/**
 * Queues the reminders due on each active loan's business day (the instance's `instanceDay` plus the client's
 * clock offset), of one client or of all, in one INSERT ... SELECT; a reminder already queued (same loan, kind,
 * channel and due date) is not queued again. The relevant due date is the loan's, or on a payment schedule the
 * oldest unpaid instalment's. All go out at `reminderSendAt(now, sendHour)`, and a REMINDER_JOB is armed for that
 * instant. Answers how many contacts were queued.
 */
export async function queueReminders(
  db: DbOrTx,
  args: { instanceDay: string; clientId: number | null; now: Date },
): Promise<number> {
  const terms = (await servicingTerms(db)).servicing.reminders
  const days = reminderDays(terms)
  if (!days.length) return 0
  const sendAt = reminderSendAt(args.now, terms.sendHour)
  const kinds = sql.join(
    days.map((d) => sql`(${d.kind}::text, ${d.dueDays}::int)`),
    sql`, `,
  )
  const channels = sql.join(
    CHANNELS.map((c) => sql`(${c}::text)`),
    sql`, `,
  )
  const result = (await db.execute(sql`
    with l as (
      select loan.id, loan.client_id, (${args.instanceDay}::date + coalesce(o.offset_days, 0)) as today,
        case when loan.plan = 'scheduled' then (
          select min(i.due_date) from schedule_instalment i
            join payment_schedule s on s.id = i.schedule_id and s.status = 'active'
          where i.loan_id = loan.id and i.amount > i.paid_amount
        ) else loan.due_date end as due
      from loan left join clock_offset o on o.scope = 'client:' || loan.client_id
      where loan.state = 'active'
        and (${args.clientId}::bigint is null or loan.client_id = ${args.clientId}::bigint)
    ),
    k (kind, due_days) as (values ${kinds}),
    ch (channel) as (values ${channels}),
    ins as (
      insert into collection_contact
        (loan_id, client_id, kind, channel, due_date, business_date, scheduled_at, status, created_at)
      select l.id, l.client_id, k.kind, ch.channel, l.due, l.today, ${sendAt.toISOString()}::timestamptz,
        'queued', ${args.now.toISOString()}::timestamptz
      from l join k on (l.due - l.today) = k.due_days cross join ch
      where l.due is not null
      on conflict (loan_id, kind, channel, due_date) do nothing
      returning 1
    )
    select count(*)::int as n from ins
  `)) as unknown as { rows: { n: number | string }[] }
  const queued = Number(result.rows[0]?.n ?? 0)
  if (queued > 0) await armReminderJob(db, sendAt, args.now)
  return queued
}

/** Takes up to `limit` queued contacts due by `now` for sending (status `sending`, committed), skipping locked ones. */
async function claimDueContacts(db: Db, now: Date, limit: number): Promise<Contact[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: collectionContact.id })
      .from(collectionContact)
      .where(and(eq(collectionContact.status, 'queued'), lte(collectionContact.scheduledAt, now)))
      .orderBy(collectionContact.scheduledAt, collectionContact.loanId, collectionContact.id)
      .limit(limit)
      .for('update', { skipLocked: true })
    if (!due.length) return []
    return tx
      .update(collectionContact)
      .set({ status: 'sending', attempts: sql`${collectionContact.attempts} + 1` })
      .where(
        and(
          inArray(
            collectionContact.id,
            due.map((d) => d.id),
          ),
          eq(collectionContact.status, 'queued'),
        ),
      )
      .returning()
  })
}

/** Outside the window: every queued contact due by now waits for the next lawful instant. */
async function postponeDue(db: Db, terms: ReminderTerms, now: Date) {
  const next = reminderSendAt(now, terms.sendHour)
  const moved = await db
    .update(collectionContact)
    .set({ scheduledAt: next })
    .where(and(eq(collectionContact.status, 'queued'), lte(collectionContact.scheduledAt, now)))
    .returning({ id: collectionContact.id })
  if (moved.length) await armReminderJob(db, next, now)
  return moved.length
}

const settle = (db: Db, id: number, set: Partial<Contact>) =>
  db.update(collectionContact).set(set).where(eq(collectionContact.id, id))

/** The loan's due date that matters today: its own, or on a schedule the oldest unpaid instalment's. */
async function relevantDueDate(db: Db, row: typeof loan.$inferSelect): Promise<string | null> {
  if (row.plan !== 'scheduled') return row.dueDate
  const [oldest] = await db
    .select({ due: sql<string | null>`min(${scheduleInstalment.dueDate})::text` })
    .from(scheduleInstalment)
    .innerJoin(
      paymentSchedule,
      and(eq(paymentSchedule.id, scheduleInstalment.scheduleId), eq(paymentSchedule.status, 'active')),
    )
    .where(
      and(
        eq(scheduleInstalment.loanId, row.id),
        sql`${scheduleInstalment.amount} > ${scheduleInstalment.paidAmount}`,
      ),
    )
  return oldest?.due ?? null
}

/** What the reminder asks for: the payoff today on terms; on a schedule, the instalments unpaid up to its date. */
async function amountDue(db: Db, row: typeof loan.$inferSelect, dueDate: string, today: string) {
  if (row.plan !== 'scheduled') return outstandingOf(await todaysBalances(db, row, today))
  const [due] = await db
    .select({
      total: sql<string>`coalesce(sum(${scheduleInstalment.amount} - ${scheduleInstalment.paidAmount}), 0)`,
    })
    .from(scheduleInstalment)
    .innerJoin(
      paymentSchedule,
      and(eq(paymentSchedule.id, scheduleInstalment.scheduleId), eq(paymentSchedule.status, 'active')),
    )
    .where(and(eq(scheduleInstalment.loanId, row.id), sql`${scheduleInstalment.dueDate} <= ${dueDate}::date`))
  return Number(due?.total ?? 0)
}

type Verdict =
  | { send: false; reason: string }
  | { send: true; phone: string; email: string; amount: number; loanNumber: string }

/**
 * Whether a claimed contact still goes out, and the borrower's own phone and e-mail (from `client`, the only
 * place a recipient is read from). The same for every contact of one loan and due date in a batch.
 */
async function verdictOf(db: Db, c: Contact, now: Date): Promise<Verdict> {
  const [found] = await db
    .select({ loan, phone: client.phone, email: client.email })
    .from(loan)
    .innerJoin(client, eq(client.id, loan.clientId))
    .where(and(eq(loan.id, c.loanId), eq(loan.clientId, c.clientId)))
  if (!found) return { send: false, reason: 'loan not found' }
  const row = found.loan
  if (row.state !== 'active') return { send: false, reason: `loan ${row.state}` }
  const dueDate = await relevantDueDate(db, row)
  if (dueDate !== c.dueDate) return { send: false, reason: 'due date changed' }
  // A later day's reminder of the loan exists (the clock moved on, a long downtime): only the latest goes, so a
  // borrower never gets two of one loan at once.
  const [newer] = await db
    .select({ id: collectionContact.id })
    .from(collectionContact)
    .where(and(eq(collectionContact.loanId, c.loanId), gt(collectionContact.businessDate, c.businessDate)))
    .limit(1)
  if (newer) return { send: false, reason: 'superseded' }
  const today = await businessToday(db, row.clientId, now)
  // Postponed past its next morning: stale.
  if (today > addDays(c.businessDate, 1)) return { send: false, reason: 'stale' }
  const amount = await amountDue(db, row, dueDate, today)
  if (amount <= 0) return { send: false, reason: 'nothing due' }
  return { send: true, phone: found.phone, email: found.email, amount, loanNumber: loanNumberOf(row.id) }
}

export interface ReminderRound {
  sent: number
  skipped: number
  failed: number
  postponed: number
}

/**
 * Sends the queued reminders due by now, batch by batch until none is left (the REMINDER_JOB's runner; safe to
 * run in several processes at once). Outside the lawful window nothing is sent: the due ones move to the next
 * window. The provider is called outside any transaction.
 */
export async function sendDueReminders(deps: SendDeps, limit = REMINDER_BATCH): Promise<ReminderRound> {
  const db = deps.database.db
  const round: ReminderRound = { sent: 0, skipped: 0, failed: 0, postponed: 0 }
  const terms = (await servicingTerms(db)).servicing.reminders
  for (;;) {
    const now = deps.now()
    if (!insideLawfulWindow(now)) {
      round.postponed += await postponeDue(db, terms, now)
      break
    }
    const claimed = await claimDueContacts(db, now, limit)
    if (!claimed.length) break
    // The SMS and the e-mail of one loan's reminder share their checks.
    const verdicts = new Map<string, Promise<Verdict>>()
    for (const c of claimed) {
      const at = deps.now()
      if (!insideLawfulWindow(at)) {
        // The window closed during the batch: back to the queue, for the next window.
        await settle(db, c.id, { status: 'queued', scheduledAt: reminderSendAt(at, terms.sendHour) })
        await armReminderJob(db, reminderSendAt(at, terms.sendHour), at)
        round.postponed++
        continue
      }
      const key = `${c.loanId}:${c.kind}:${c.dueDate}:${c.businessDate}`
      if (!verdicts.has(key)) verdicts.set(key, verdictOf(db, c, at))
      const verdict = await verdicts.get(key)!
      if (!verdict.send) {
        await settle(db, c.id, { status: 'skipped', reason: verdict.reason })
        round.skipped++
        continue
      }
      const channel = c.channel as 'sms' | 'email'
      const message = reminderMessage(channel, {
        kind: c.kind,
        clientId: c.clientId,
        loanNumber: verdict.loanNumber,
        amount: verdict.amount,
        dueDate: c.dueDate,
      })
      try {
        await deps.messaging.send(db, {
          channel,
          recipient: channel === 'sms' ? verdict.phone : verdict.email,
          ...message,
          purpose: 'payment_reminder',
        })
        const provider = deps.messaging.channels?.[channel] ?? deps.messaging.name
        await settle(db, c.id, { status: 'sent', sentAt: deps.now(), provider })
        round.sent++
      } catch {
        const retry = c.attempts < MAX_SEND_ATTEMPTS
        const next = reminderSendAt(new Date(deps.now().getTime() + RETRY_MS), terms.sendHour)
        await settle(
          db,
          c.id,
          retry
            ? { status: 'queued', scheduledAt: next, reason: 'provider error' }
            : { status: 'failed', reason: 'provider error' },
        )
        if (retry) await armReminderJob(db, next, deps.now())
        deps.logger.warn({ contactId: c.id, loanId: c.loanId, channel, retry }, 'payment reminder not sent')
        round.failed++
      }
    }
  }
  if (round.sent || round.skipped || round.failed || round.postponed)
    deps.logger.info({ ...round }, 'payment reminders')
  return round
}
