/**
 * The daily servicing run (issue 18, item 1; docs/decisions/0027-daily-servicing-run-and-penalties.md): for
 * every active loan, up to its business day, in set-based SQL (one statement per batch of loans, not one
 * transaction per loan, so 100,000 loans take seconds on PostgreSQL):
 *   1. a payment schedule's interest for the periods started (ledger kind schedule_interest);
 *   2. the contract's interest accrued (interest_accrual; domain/loan/ledger.ts `accrue`, the same arithmetic);
 *   3. the standing: OVERDUE the day after an unpaid due date (on terms) or instalment (on a schedule), CAUGHT_UP
 *      when nothing is past due any more, each with its state_transition row (domain/loan/penalty.ts `standingOn`);
 *   4. the late-payment penalty for the days past due after the grace days, each day once, on the amount overdue,
 *      cut to the lifetime cap (domain/loan/penalty.ts `penaltyCharge`);
 *   5. chosen extensions whose fee was not paid in time expire (the few loans concerned, one by one).
 * A loan's `serviced_through` says which business day it was run for: running a day twice adds nothing.
 *
 * Each loan's business day is the instance's day plus the client's own clock offset (sandbox), so one run serves
 * every loan on its own clock. The loans of a batch are locked first (FOR UPDATE SKIP LOCKED, in id order), then
 * computed by a second statement that sees every commit before the lock: a posting that holds a loan is not
 * waited for; its loan is taken by the next round of the loop (the posting itself runs the day for its loan
 * first: `serviceLoanLocked`). On hold, paid, sold and written-off loans are not run: a hold stops accrual.
 */
import { eq, sql } from 'drizzle-orm'
import { chargeKinds } from '../../../domain/loan/ledger'
import { LOAN_MODEL_VERSION, loanLifecycleMachine } from '../../../domain/loan/loan-lifecycle.machine'
import { PENALTY_CAP_PPM_PER_DAY, type ServicingConfig } from '../../../domain/loan/servicing-config'
import { TOTAL_COST_CAP_BPS } from '../../../domain/pricing/caps'
import { addDays } from '../../../domain/pricing/manila-date'
import type { Db, Tx } from '../../db/client'
import { loan } from '../../db/schema-lending'
import type { AppDeps } from '../../deps'
import type { Actor } from '../journey/journey'
import { readOffsets } from '../payments/clock'
import { expireExtensionInvoices } from './extensions'

type RunDeps = Pick<AppDeps, 'database' | 'logger' | 'now'>

/** Loans per batch: one lock statement and one compute statement each. */
export const DAILY_RUN_BATCH = 5_000

export interface DayRunResult {
  loans: number
  overdue: number
  caughtUp: number
  penalties: number
  interest: number
}

const zero = (): DayRunResult => ({ loans: 0, overdue: 0, caughtUp: 0, penalties: 0, interest: 0 })

const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '))

/**
 * Runs the day for loans already locked by the caller (ids), each up to its own business day (the instance's
 * `instanceDay` plus the client's offset). Answers what it did; the caller's transaction commits it.
 */
export async function serviceLockedLoans(
  tx: Tx,
  ids: readonly number[],
  instanceDay: string,
  config: Pick<ServicingConfig, 'penalties'>,
  actor: Actor,
  now: Date,
): Promise<DayRunResult> {
  if (!ids.length) return zero()
  const p = config.penalties
  const rate = p.enabled ? Math.min(p.ratePpmPerDay, PENALTY_CAP_PPM_PER_DAY) : 0
  const idArray = `{${ids.join(',')}}`
  const at = now.toISOString()
  const result = (await tx.execute(sql`
    with l as (
      select loan.*, (${instanceDay}::date + coalesce(o.offset_days, 0)) as today
      from loan left join clock_offset o on o.scope = 'client:' || loan.client_id
      where loan.id = any(${idArray}::bigint[]) and loan.state = 'active'
    ),
    bal as (
      select e.loan_id,
        coalesce(sum(e.amount) filter (where e.part = 'principal'), 0) as principal_owed,
        coalesce(sum(e.amount) filter (where e.part in ('interest', 'fees')), 0) as charges_owed,
        coalesce(sum(e.amount) filter (where e.kind in (${sqlList(chargeKinds)})), 0) as charged,
        coalesce(sum(e.amount) filter (where e.kind = 'interest_accrual'), 0) as interest_booked,
        coalesce(sum(e.amount) filter (where e.kind = 'schedule_interest'), 0) as schedule_booked
      -- A join, not "= any(array)": a filter tests every entry against the whole array (quadratic in the batch).
      from loan_ledger_entry e
      join (select unnest(${idArray}::bigint[]) as id) as batch on batch.id = e.loan_id
      group by e.loan_id
    ),
    sch as (
      select i.loan_id,
        coalesce(sum(i.interest) filter (where i.period_start <= l.today), 0) as started,
        coalesce(sum(i.interest) filter (where i.period_start > l.today), 0) as to_come,
        coalesce(sum(i.amount - i.paid_amount) filter (where i.due_date < l.today and i.amount > i.paid_amount), 0) as overdue_amount,
        min(i.due_date) filter (where i.due_date < l.today and i.amount > i.paid_amount) as oldest_due
      from schedule_instalment i
      join payment_schedule s on s.id = i.schedule_id and s.status = 'active'
      join l on l.id = i.loan_id
      group by i.loan_id
    ),
    -- 1 and 2: the schedule's interest due and the contract's interest accrued, as domain/loan/ledger.ts does it.
    acc as (
      select l.*, b.principal_owed, b.charges_owed, b.charged, b.interest_booked,
        case when l.plan = 'scheduled' then greatest(0, coalesce(s.started, 0) - b.schedule_booked) else 0 end as schedule_due,
        coalesce(s.to_come, 0) as schedule_to_come,
        coalesce(s.overdue_amount, 0) as schedule_overdue,
        s.oldest_due,
        case when l.start_date is null then l.accrued_days
          else greatest(l.accrued_days, least(l.term, (l.today - l.start_date) + 1 - l.held_days)) end as target_days
      from l join bal b on b.loan_id = l.id left join sch s on s.loan_id = l.id
    ),
    acc2 as (
      select acc.*,
        acc.accrual_basis + greatest(0, acc.principal_owed)::numeric * (acc.target_days - acc.accrued_days) as new_basis
      from acc
    ),
    acc3 as (
      select acc2.*,
        case when acc2.principal <= 0 or acc2.term <= 0 then 0 else
          least(acc2.interest::numeric, div(acc2.new_basis * acc2.interest, acc2.principal::numeric * acc2.term))
          - least(acc2.interest::numeric, div(acc2.accrual_basis::numeric * acc2.interest, acc2.principal::numeric * acc2.term))
        end::bigint as interest_due
      from acc2
    ),
    -- 3: the standing the loan should be in today, and since when it is overdue.
    st as (
      select acc3.*,
        case when acc3.plan = 'scheduled' then acc3.oldest_due else acc3.due_date end as late_due
      from acc3
    ),
    st2 as (
      select st.*,
        (st.late_due is not null and st.late_due < st.today) as should_overdue,
        case when st.late_due is not null and st.late_due < st.today then st.late_due + 1 end as new_overdue_since,
        st.charges_owed + st.schedule_due + st.interest_due as charges_after
      from st
    ),
    -- 4: the penalty: days past due after the grace days not charged yet, on the amount overdue, cut to the cap.
    pen as (
      select st2.*,
        case when not st2.should_overdue or ${rate}::int = 0 then 0
          else greatest(0, st2.today - greatest(st2.new_overdue_since + ${p.graceDays}::int,
            coalesce(st2.penalty_through + 1, st2.new_overdue_since + ${p.graceDays}::int)) + 1) end as penalty_days,
        case when st2.plan = 'scheduled'
          then least(st2.schedule_overdue, greatest(0, st2.principal_owed) + greatest(0, st2.charges_after))
          else greatest(0, st2.principal_owed) + greatest(0, st2.charges_after) end as overdue_amount,
        greatest(0, st2.principal_owed) + greatest(0, st2.charges_after) as owed_amount,
        greatest(0, div(st2.principal::numeric * ${TOTAL_COST_CAP_BPS}::int, 10000)
          - (st2.charged + st2.schedule_due + st2.interest_due)
          - (case when st2.target_days >= st2.term then 0 else greatest(0, st2.interest - st2.interest_booked - st2.interest_due) end)
          - st2.schedule_to_come) as room
      from st2
    ),
    -- On a schedule each day is charged on the instalments past due that day: a catch-up of several days must not
    -- charge the days before an instalment's date on it. (On terms the days caught up are charged on today's amount,
    -- which differs from each day's only by contract interest accrued past the due date: none unless a hold
    -- pushed the accrual past it.)
    pen2 as (
      select pen.*,
        least(pen.room, case
          when pen.penalty_days <= 0 then 0
          when pen.plan = 'scheduled' and pen.penalty_days > 1 then (
            select coalesce(sum(div(least(o.amount, pen.owed_amount)::numeric * ${rate}::int, 1000000)), 0)
            from generate_series(0, pen.penalty_days - 1) as k(back)
            cross join lateral (
              select coalesce(sum(i.amount - i.paid_amount), 0) as amount
              from schedule_instalment i
              join payment_schedule s on s.id = i.schedule_id and s.status = 'active'
              where i.loan_id = pen.id and i.due_date < pen.today - k.back and i.amount > i.paid_amount
            ) o)
          else pen.penalty_days::numeric * div(pen.overdue_amount::numeric * ${rate}::int, 1000000) end)::bigint as penalty,
        case when pen.should_overdue and not pen.standing = 'overdue' then 'OVERDUE'
          when not pen.should_overdue and pen.standing = 'overdue' then 'CAUGHT_UP' end as event
      from pen
    ),
    upd as (
      update loan set
        accrued_days = pen2.target_days,
        accrual_basis = pen2.new_basis::bigint,
        standing = case when pen2.should_overdue then 'overdue' else 'current' end,
        overdue_since = pen2.new_overdue_since,
        penalty_through = case when pen2.penalty_days > 0 then pen2.today else loan.penalty_through end,
        serviced_through = pen2.today,
        version = loan.version + 1
      from pen2 where loan.id = pen2.id
      returning loan.id
    ),
    entries as (
      insert into loan_ledger_entry (loan_id, client_id, kind, part, amount, business_date, at, memo)
      select pen2.id, pen2.client_id, v.kind, v.part, v.amount, pen2.today, ${at}::timestamptz, v.memo
      from pen2 cross join lateral (values
        (1, 'schedule_interest', 'interest', pen2.schedule_due, 'schedule period'),
        (2, 'interest_accrual', 'interest', pen2.interest_due,
          'days ' || (pen2.accrued_days + 1) || '-' || pen2.target_days),
        (3, 'penalty', 'penalties', pen2.penalty,
          case when pen2.penalty_days = 1 then 'late payment ' || pen2.today
            else 'late payment ' || (pen2.today - pen2.penalty_days + 1) || ' to ' || pen2.today end)
      ) as v(ord, kind, part, amount, memo)
      where v.amount > 0
      order by pen2.id, v.ord
      returning kind, amount
    ),
    history as (
      insert into state_transition (machine, subject_id, client_id, model_version, from_state, to_state, event, call, actor_kind, actor_id, at)
      select ${loanLifecycleMachine.id}, pen2.id, pen2.client_id, ${LOAN_MODEL_VERSION}::int,
        'active.' || pen2.plan || '.' || pen2.standing,
        'active.' || pen2.plan || '.' || case when pen2.event = 'OVERDUE' then 'overdue' else 'current' end,
        pen2.event, ${actor.call}, ${actor.kind}, ${String(actor.id)}, ${at}::timestamptz
      from pen2 where pen2.event is not null
      returning event
    )
    select
      (select count(*) from upd)::int as loans,
      (select count(*) from history where event = 'OVERDUE')::int as overdue,
      (select count(*) from history where event = 'CAUGHT_UP')::int as caught_up,
      (select coalesce(sum(amount), 0) from entries where kind = 'penalty')::bigint as penalties,
      (select coalesce(sum(amount), 0) from entries where kind <> 'penalty')::bigint as interest
  `)) as unknown as { rows: Record<string, unknown>[] }
  const row = result.rows[0] ?? {}
  return {
    loans: Number(row.loans ?? 0),
    overdue: Number(row.overdue ?? 0),
    caughtUp: Number(row.caught_up ?? 0),
    penalties: Number(row.penalties ?? 0),
    interest: Number(row.interest ?? 0),
  }
}

/**
 * Locks up to `limit` active loans (of one client, or all) not yet run for their business day, with ids above
 * `after` (keyset: each batch reads on from the last, so a run reads the loans once, not once per batch).
 */
async function lockBatch(tx: Tx, instanceDay: string, clientId: number | null, limit: number, after: number) {
  const result = (await tx.execute(sql`
    select loan.id from loan left join clock_offset o on o.scope = 'client:' || loan.client_id
    where loan.state = 'active' and loan.id > ${after}
      and (${clientId}::bigint is null or loan.client_id = ${clientId}::bigint)
      and (loan.serviced_through is null
        or loan.serviced_through < ${instanceDay}::date + coalesce(o.offset_days, 0))
    order by loan.id
    limit ${limit}
    for update of loan skip locked
  `)) as unknown as { rows: { id: number | string }[] }
  return result.rows.map((r) => Number(r.id))
}

/** Loans of a batch with a chosen extension whose invoice is past its last day. */
async function loansWithExpiredInvoices(tx: Tx, ids: readonly number[], instanceDay: string) {
  if (!ids.length) return []
  const result = (await tx.execute(sql`
    select distinct loan.id from loan
      left join clock_offset o on o.scope = 'client:' || loan.client_id
      join loan_extension x on x.loan_id = loan.id
    where loan.id = any(${`{${ids.join(',')}}`}::bigint[])
      and x.invoice_status = 'unpaid'
      and x.payable_until < ${instanceDay}::date + coalesce(o.offset_days, 0)
  `)) as unknown as { rows: Record<string, unknown>[] }
  return result.rows.map((r) => Number(r.id))
}

/**
 * Runs the day for every active loan (of one client, or all) not yet run for its business day: batch by batch,
 * each in its own transaction, until none is left. Loans locked by a posting are skipped and taken by the
 * next round (or run by the posting itself).
 */
export async function runDayForLoans(
  deps: RunDeps,
  instanceDay: string,
  clientId: number | null,
  config: Pick<ServicingConfig, 'penalties'>,
  actor: Actor,
  batch = DAILY_RUN_BATCH,
): Promise<DayRunResult> {
  const total = zero()
  let after = 0
  for (let round = 0; round < 10_000; round++) {
    const now = deps.now()
    const done = await deps.database.db.transaction(async (tx) => {
      // The compute statement's CTEs make PostgreSQL estimate hundreds of thousands of rows, so it JIT-compiles
      // the plan: 1.5 s a batch, many times the statement itself. Off for this transaction only.
      if (deps.database.kind === 'postgres') await tx.execute(sql`set local jit = off`)
      const ids = await lockBatch(tx, instanceDay, clientId, batch, after)
      if (!ids.length) return null
      const result = await serviceLockedLoans(tx, ids, instanceDay, config, actor, now)
      for (const id of await loansWithExpiredInvoices(tx, ids, instanceDay))
        await expireForLoan(tx, id, instanceDay, now)
      return { result, last: ids.at(-1)! }
    })
    if (!done) {
      // Loans a posting held (skipped) are taken again once it commits, from the start; stop when nothing is left.
      if (!(await pendingLoans(deps.database.db, instanceDay, clientId))) break
      if (after > 0) after = 0
      else await new Promise((resolve) => setTimeout(resolve, 20))
      continue
    }
    after = done.last
    for (const key of Object.keys(total) as (keyof DayRunResult)[]) total[key] += done.result[key]
  }
  return total
}

async function pendingLoans(db: Db, instanceDay: string, clientId: number | null) {
  const result = (await db.execute(sql`
    select count(*)::int as n from loan left join clock_offset o on o.scope = 'client:' || loan.client_id
    where loan.state = 'active'
      and (${clientId}::bigint is null or loan.client_id = ${clientId}::bigint)
      and (loan.serviced_through is null
        or loan.serviced_through < ${instanceDay}::date + coalesce(o.offset_days, 0))
  `)) as unknown as { rows: { n: number | string }[] }
  return Number(result.rows[0]?.n ?? 0)
}

async function expireForLoan(tx: Tx, loanId: number, instanceDay: string, now: Date) {
  const [row] = await tx.select().from(loan).where(eq(loan.id, loanId))
  if (!row) return
  const offsets = await readOffsets(tx, row.clientId)
  await expireExtensionInvoices(tx, row, addDays(instanceDay, offsets.client), now)
}
