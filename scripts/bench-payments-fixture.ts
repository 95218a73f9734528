/**
 * BENCH FIXTURE ONLY (part of `npm run bench`, scripts/bench-payments.ts): N active loans of N distinct clients,
 * inserted straight into the bench's own throw-away database with set-based SQL (generate_series), because
 * creating them through the API (sign-up, the journey, the decision, signing, the payout) would take far longer
 * than the benchmark itself. Never run against a real database: the clients cannot log in (their password hash is
 * a placeholder), and nothing here goes through the product's rules.
 *
 * The rows are those the product has written once a loan is paid out (server/services/lending/payout.ts
 * `activateLoan`, server/services/journey/journey.ts), as far as posting a payment reads or touches them:
 * - `client` (active, verified phone and e-mail) and its `client_journey` at `loan_page` (snapshot version 2);
 * - `application`: completed (status 4), signed, with the signed offer priced by the pricing engine itself
 *   (server/services/pricing.ts `priceOffer`, first-loan prices, a few amounts and terms, with and without the
 *   optional package fee);
 * - `loan`: active (status 4, state 'active'), started today in Manila, due after the term, the offer's figures
 *   and fee lines, nothing accrued yet (version 2: the draft's insert, then DISBURSED);
 * - `loan_ledger_entry`: what the payout books: the disbursement (principal) and one 'fee' entry per non-zero
 *   fee line (memo: the fee's name), business date today;
 * - `state_transition`: the loan's DISBURSED move (draft -> active) by the payout job.
 * Left out, because posting never reads them: consents, profile, documents, the payout account and disbursement,
 * the journey's own history.
 */
import { sql } from 'drizzle-orm'
import { LOAN_MODEL_VERSION, loanLifecycleMachine } from '../domain/loan/loan-lifecycle.machine'
import { manilaDate } from '../domain/pricing/manila-date'
import type { Database } from '../server/db/client'
import { addYear } from '../server/services/lending/payout'
import { priceOffer } from '../server/services/pricing'

/** The signed offers the fixture's loans cycle through (first-loan prices). The smallest principal is ₱3,000. */
const OFFER_FIGURES = [
  { amount: 300_000, term: 7, withPackageFee: true },
  { amount: 500_000, term: 14, withPackageFee: false },
  { amount: 1_000_000, term: 30, withPackageFee: true },
  { amount: 750_000, term: 21, withPackageFee: false },
  { amount: 1_000_000, term: 30, withPackageFee: false },
]
/** Every fixture loan's principal is at least this (centavos): a bench payment below it is partial. */
export const FIXTURE_MIN_PRINCIPAL = Math.min(...OFFER_FIGURES.map((o) => o.amount))

const BATCH = 5_000

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows

/**
 * Inserts `count` active loans for `count` new clients; answers the clients' ids (one loan each). Calls add to
 * what earlier calls inserted (phones and e-mails continue from the fixture clients already there).
 */
export async function createLoanFixture(database: Database, count: number, now = new Date()) {
  const db = database.db
  const offers = await Promise.all(
    OFFER_FIGURES.map((figures) => priceOffer(db, { kind: 'new', ...figures }, now)),
  )
  const today = manilaDate(now)
  const [{ taken, others }] = rowsOf<{ taken: number; others: number }>(
    await db.execute(sql`select count(*) filter (where email like 'bench-fixture-%')::int as taken,
                                count(*) filter (where email not like 'bench-fixture-%')::int as others
                         from client`),
  ) as [{ taken: number; others: number }]
  // A database with clients of its own is not the bench's throw-away one.
  if (others > 0)
    throw new Error('bench fixture: this database has real clients; the fixture runs on a fresh one')
  const clientIds: number[] = []
  for (let from = taken + 1; from <= taken + count; from += BATCH) {
    const to = Math.min(taken + count, from + BATCH - 1)
    const result = await db.execute(sql`
      with offer as (
        select (ord - 1)::int as k, o as signed from jsonb_array_elements(${JSON.stringify(offers)}::jsonb)
          with ordinality as t(o, ord)
      ),
      c as (
        insert into client (phone, email, password_hash, status, first_name, phone_verified_at, email_verified_at,
                            created_at, updated_at)
        select '099' || lpad(g::text, 8, '0'), 'bench-fixture-' || g || '@bench.invalid',
               'bench-fixture-placeholder-not-a-password-hash', 1, 'Bench', ${now}, ${now}, ${now}, ${now}
        from generate_series(${from}::int, ${to}::int) as g
        returning id
      ),
      j as (
        insert into client_journey (client_id, snapshot, step, version, updated_at)
        -- version: the row's change counter (some dozen steps from sign-up to the payout); nothing reads it here.
        select id, '{"version":2,"value":"loan_page"}'::jsonb, 'loan_page', 12, ${now} from c
        returning client_id
      ),
      a as (
        insert into application (client_id, status, desired_amount, desired_term, principal_amount, term,
                                 package_fee_consent, payment_method, client_kind, accepted_offer, version,
                                 signed_at, created_at, updated_at)
        select c.id, 4, (offer.signed->'principal'->>'amount')::bigint, (offer.signed->>'term')::int,
               (offer.signed->'principal'->>'amount')::bigint, (offer.signed->>'term')::int,
               (offer.signed->'borrowers_advantage_package_fee'->>'amount')::bigint > 0, 'bank_transfer', 'new',
               offer.signed, 3, ${now}, ${now}, ${now}
        from c join offer on offer.k = c.id % ${offers.length}
        returning id, client_id, accepted_offer
      ),
      l as (
        insert into loan (client_id, application_id, status, principal, interest, fees, total, term, fee_lines,
                          created_at, due_date, final_closing_date, state, start_date, disbursed_at,
                          accrued_days, accrual_basis, held_days, version)
        select a.client_id, a.id, 4, (o->'principal'->>'amount')::bigint, (o->'interest'->>'amount')::bigint,
               f.processing + f.service + f.withdrawal + f.invoicing + f.package,
               (o->'total'->>'amount')::bigint, (o->>'term')::int,
               jsonb_build_object('processingFee', f.processing, 'serviceFee', f.service,
                                  'withdrawalFee', f.withdrawal, 'invoicingFee', f.invoicing,
                                  'borrowersAdvantagePackageFee', f.package),
               ${now}, ${today}::date + (o->>'term')::int, ${addYear(today)}::date, 'active', ${today}::date,
               ${now}, 0, 0, 0, 2
        from a
        cross join lateral (select a.accepted_offer as o) as offer_of
        cross join lateral (select (o->'processingFee'->>'amount')::bigint as processing,
                                   (o->'serviceFee'->>'amount')::bigint as service,
                                   (o->'withdrawalFee'->>'amount')::bigint as withdrawal,
                                   (o->'invoicingFee'->>'amount')::bigint as invoicing,
                                   (o->'borrowers_advantage_package_fee'->>'amount')::bigint as package) as f
        returning id, client_id, principal, fee_lines
      ),
      e as (
        insert into loan_ledger_entry (loan_id, client_id, kind, part, amount, business_date, at, memo)
        select l.id, l.client_id, line.kind, line.part, line.amount, ${today}::date, ${now}, line.memo
        from l cross join lateral (values
          (0, 'disbursement', 'principal', l.principal, null),
          (1, 'fee', 'fees', (l.fee_lines->>'processingFee')::bigint, 'processingFee'),
          (2, 'fee', 'fees', (l.fee_lines->>'serviceFee')::bigint, 'serviceFee'),
          (3, 'fee', 'fees', (l.fee_lines->>'withdrawalFee')::bigint, 'withdrawalFee'),
          (4, 'fee', 'fees', (l.fee_lines->>'invoicingFee')::bigint, 'invoicingFee'),
          (5, 'fee', 'fees', (l.fee_lines->>'borrowersAdvantagePackageFee')::bigint, 'borrowersAdvantagePackageFee')
        ) as line(n, kind, part, amount, memo)
        where line.amount <> 0
        returning 1
      ),
      t as (
        insert into state_transition (machine, subject_id, client_id, model_version, from_state, to_state, event,
                                      call, actor_kind, actor_id, at)
        select ${loanLifecycleMachine.id}, l.id, l.client_id, ${LOAN_MODEL_VERSION}, 'draft', 'active.on_terms.current',
               'DISBURSED', null, 'job', 'payout:bench-fixture', ${now}
        from l
        returning 1
      )
      select l.client_id::int as id,
             (select count(*) from j)::int as journeys, (select count(*) from e)::int as entries,
             (select count(*) from t)::int as transitions
      from l order by l.client_id`)
    const rows = rowsOf<{ id: number; journeys: number; entries: number; transitions: number }>(result)
    if (rows.length !== to - from + 1 || rows[0]?.journeys !== rows.length)
      throw new Error(`bench fixture: ${rows.length} loans inserted for ${to - from + 1} clients`)
    for (const row of rows) clientIds.push(row.id)
  }
  // Fresh statistics, as a database that has lived with these rows would have.
  await db.execute(sql`analyze`)
  return { clientIds, today }
}
