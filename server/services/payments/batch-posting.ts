/**
 * Group commit of the gateway's paid webhooks (issue 16, item 9; docs/decisions/0026-batched-posting.md).
 *
 * A webhook posted on its own costs ~28 statements and 7 commits; on PGlite (one connection, ~1 ms of CPU per
 * statement) that caps a server near 40 postings/s. Here the paid events that wait at the same moment are posted
 * together in ONE transaction with a handful of set-based statements, while the money rules still run per loan in
 * TypeScript with the same functions as the single path (accrual and allocation: domain/loan/ledger.ts; the
 * statechart: `advanceLoan`). Each webhook answers once its batch committed.
 *
 * Only the common case is batched: a reference naming a client whose payment loan (the same choice as
 * `loanForPayments`) is active on its terms, with no unpaid extension invoice, and a payment that leaves
 * something owed (no settlement, no credit, no residue waiver). Everything else (unmatched references, paid or
 * on-hold loans, schedules, extensions, a payment that settles the loan, duplicates, an event whose inbox row
 * already exists) goes to the single path, `receivePaid`, unchanged, after the batch: the batched path writes
 * exactly the rows that path writes, in one transaction instead of several.
 *
 * Concurrency: one batch at a time per server process on PGlite, two on PostgreSQL; a client has at most one
 * event in flight (a second one waits for the next batch, so one loan's payments keep their order). A batch takes
 * the journey locks, then the loan locks, in id order: the single path takes one client's journey lock then its
 * loan's, so neither several processes nor the two paths can deadlock. The payment insert is unique on
 * (provider, providerPaymentId) as before: a payment another process recorded meanwhile aborts the batch, whose
 * events then all take the single path (which answers `duplicate` where due).
 */
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm'
import type { GatewayEvent } from '../../../domain/contract/payments'
import {
  allocate,
  allocationLines,
  type Balances,
  balancesOf,
  type LedgerLine,
  type LedgerPart,
  outstandingOf,
  residueWaiver,
  zeroBalances,
} from '../../../domain/loan/ledger'
import {
  advanceLoan,
  isDefaultedLoanState,
  isOpenLoanState,
  LOAN_MODEL_VERSION,
  type LoanLeaf,
  loanLifecycleMachine,
  loanStatusOf,
  planOf,
  topStateOf,
} from '../../../domain/loan/loan-lifecycle.machine'
import { clientIdOfReference, loanNumberOf, normaliseReference } from '../../../domain/payments/reference'
import { manilaDate } from '../../../domain/pricing/manila-date'
import { type BulkColumn, insertSql, recordset } from '../../db/bulk'
import type { Tx } from '../../db/client'
import { errorForLog } from '../../db/errors'
import { loan } from '../../db/schema-lending'
import { servicingJob } from '../../db/schema-payments'
import type { AppDeps } from '../../deps'
import type { OutgoingMessage } from '../../providers/messaging'
import { jobActor } from '../journey/journey'
import { clientScope, INSTANCE_SCOPE, shifted } from './clock'
import { RECEIPT_JOB } from './job-kinds'
import { receiptText, SERVICING_JOB_LEASE_MS } from './jobs'
import { dueAccrual, type LoanRow, leafOfRow, stateOf } from './loans'

/** At most this many events in one transaction: enough to amortise a commit, short enough to keep p99 low. */
export const MAX_BATCH = 32

export type BatchOutcome = 'posted' | 'single'

interface Waiting {
  provider: string
  event: GatewayEvent
  clientId: number
  resolve: (outcome: BatchOutcome) => void
}

/** A posting worked out in TypeScript, to be written with the batch's statements. */
interface Planned {
  item: Waiting
  row: LoanRow
  today: string
  from: LoanLeaf
  to: LoanLeaf
  accrual: { amount: number; next: { accruedDays: number; basis: bigint } } | null
  allocation: LedgerLine[]
  /** The receipt's figures. */
  applied: Record<string, number>
  remaining: number
  phone: string
  email: string
  /** Set once the payment row is written. */
  paymentId?: number
}

type BatchDeps = AppDeps

/** One queue per server (its deps: a test process runs many, each with its own database and clock). */
const posters = new WeakMap<BatchDeps, Poster>()

/**
 * Posts a paid event with the others waiting now; answers `posted`, or `single` when the event is not the
 * common case (or its batch failed) and the caller must post it on the single path.
 */
export function postPaidInBatch(
  deps: BatchDeps,
  provider: string,
  event: GatewayEvent,
): Promise<BatchOutcome> {
  const clientId = clientIdOfReference(normaliseReference(event.data.reference))
  if (clientId === null) return Promise.resolve('single')
  let poster = posters.get(deps)
  if (!poster) {
    poster = new Poster(deps)
    posters.set(deps, poster)
  }
  return poster.add(provider, event, clientId)
}

/**
 * Resolves once the receipts of every payment this process posted in a batch so far were sent (or left to the
 * worker). A batched webhook answers at its commit, before its receipt goes: whoever reads the outbox right
 * after the answer (a test, the benchmark's check) waits for this first.
 */
export function receiptsSent(deps: BatchDeps): Promise<void> {
  return posters.get(deps)?.receiptsSent() ?? Promise.resolve()
}

class Poster {
  private queue: Waiting[] = []
  private inFlight = 0
  /** Clients with an event in a batch being posted: their next event waits for it (one loan's payments in order). */
  private busy = new Set<number>()
  private scheduled = false
  /** The batches under way, until their receipts were sent (their webhooks may have answered already). */
  private running = new Set<Promise<void>>()
  /**
   * Batches in flight at once: PGlite runs one transaction at a time anyway; on PostgreSQL a second batch fills
   * the round trips and the commit of the first (their clients are disjoint, and the row locks order the rest).
   */
  private readonly limit: number

  constructor(private readonly deps: BatchDeps) {
    this.limit = deps.database.kind === 'postgres' ? 2 : 1
  }

  add(provider: string, event: GatewayEvent, clientId: number) {
    return new Promise<BatchOutcome>((resolve) => {
      this.queue.push({ provider, event, clientId, resolve })
      this.schedule()
    })
  }

  /**
   * PGlite answers its queries in microtasks, so a batch never lets the event loop read the requests waiting on
   * their sockets: a batch starts after a turn of the loop, else HTTP webhooks would form batches of one.
   */
  private schedule() {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() =>
      setImmediate(() => {
        this.scheduled = false
        this.pump()
      }),
    )
  }

  /** Starts batches while there is room: whatever arrived during a batch forms the next one (group commit). */
  private pump() {
    while (this.inFlight < this.limit && this.queue.length) {
      const batch: Waiting[] = []
      const rest: Waiting[] = []
      const clients = new Set<number>()
      const charges = new Set<string>()
      for (const item of this.queue) {
        const charge = `${item.provider}\u0000${item.event.data.paymentId}`
        if (
          batch.length < MAX_BATCH &&
          !this.busy.has(item.clientId) &&
          !clients.has(item.clientId) &&
          !charges.has(charge)
        ) {
          batch.push(item)
          clients.add(item.clientId)
          charges.add(charge)
        } else rest.push(item)
      }
      if (!batch.length) return
      this.queue = rest
      this.inFlight++
      for (const id of clients) this.busy.add(id)
      const running: Promise<void> = this.run(batch)
        .catch(() => {
          // A promise already settled ignores this: only an event the batch left unanswered takes the single path.
          for (const item of batch) item.resolve('single')
        })
        .finally(() => {
          this.inFlight--
          this.running.delete(running)
          for (const id of clients) this.busy.delete(id)
          if (this.queue.length) this.schedule()
        })
      this.running.add(running)
    }
  }

  private async run(batch: Waiting[]) {
    const deps = this.deps
    const now = deps.now()
    let planned: Planned[]
    try {
      planned = await deps.database.db.transaction((tx) => postBatch(tx, batch, now))
    } catch (error) {
      // Nothing of the batch was written: every event takes the single path, which reports its own errors.
      deps.logger.warn({ events: batch.length, err: errorForLog(error) }, 'batched posting fell back')
      for (const item of batch) item.resolve('single')
      return
    }
    const posted = new Set(planned.map((p) => p.item))
    for (const item of batch) if (!posted.has(item)) item.resolve('single')
    for (const p of planned)
      deps.logger.info(
        {
          loanId: p.row.id,
          clientId: p.row.clientId,
          event: 'loan.event',
          loanEvent: 'PAYMENT_POSTED',
          by: 'job',
        },
        'loan event',
      )
    // Each webhook answers once its payment is committed: what it reports is durable, and a gateway waits for
    // nothing more. The receipts go out right after, like `afterPosting`: their jobs were committed with the
    // payments, claimed by this process, so a receipt this process fails to send (or dies before sending) is
    // the worker's once the claim lapses. The next batch waits for them, so receipts never pile up behind a
    // stream of payments.
    for (const p of planned) p.item.resolve('posted')
    try {
      await sendReceipts(deps, planned)
    } catch (error) {
      deps.logger.warn({ events: planned.length, err: errorForLog(error) }, 'batched receipts failed')
    }
  }

  /** Waits for the batches under way, their receipts included. */
  async receiptsSent() {
    while (this.running.size) await Promise.all([...this.running])
  }
}

/**
 * The loan a client's payments go to, as `loanForPayments` chooses it: the open one (oldest), else a sold or
 * written-off one (issue 18: forwarded or a recovery, on the single path only), else the newest.
 */
function paymentLoan(rows: LoanRow[]): LoanRow | null {
  const sorted = [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
  return (
    sorted.find((r) => isOpenLoanState(stateOf(r))) ??
    sorted.find((r) => isDefaultedLoanState(stateOf(r))) ??
    sorted.at(-1) ??
    null
  )
}

/**
 * Ids written into the statement as literals (integers only): beside a join on a recordset, whose size the
 * planner cannot see, they let it reach the rows by their index.
 */
const idList = (values: readonly number[]) => sql.raw(values.map((v) => String(Math.trunc(v))).join(','))

/** The batch's locks and reads (`postBatch`), each a JSON array; loans as `to_jsonb` gives their rows. */
interface LockedReads {
  journeys: { client_id: number | string; phone: string; email: string }[]
  loans: Record<string, unknown>[]
  sums: { loan_id: number | string; part: string; amount: string }[]
  invoices: (number | string)[]
  offsets: { scope: string; offset_days: number | string }[]
}

const LOAN_COLUMNS = Object.entries(getTableColumns(loan))

/** A loan row read as JSON, as drizzle's select would give it (its columns' own conversions). */
function loanRowOf(json: Record<string, unknown>): LoanRow {
  const row: Record<string, unknown> = {}
  for (const [key, column] of LOAN_COLUMNS) {
    const value = json[column.name]
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value)
  }
  return row as LoanRow
}

/**
 * The batch's transaction: locks, reads, the money rules per loan, then the writes. Answers the events it
 * posted; the others were not touched.
 */
async function postBatch(tx: Tx, batch: Waiting[], now: Date): Promise<Planned[]> {
  const clientIds = [...new Set(batch.map((i) => i.clientId))].sort((a, b) => a - b)
  const clientList = idList(clientIds)
  const scopes = [INSTANCE_SCOPE, ...clientIds.map((id) => clientScope(id))]
  // Locks and reads in ONE statement (each statement is a round trip, and about 1 ms of PGlite's one thread):
  // - the journey locks first, as every change of a client takes it (loans.ts `loanTransaction`); a client with
  //   no journey row takes the single path, which creates it. The receipt's contacts come with it;
  // - then the loan locks, of the states `loanForPayments` chooses among (a sold or written-off loan then takes
  //   the single path);
  // - the balances and unpaid extension invoices of the active ones (an unpaid invoice may take the payment,
  //   `payExtensionLocked`: the single path decides), and the clock offsets.
  // The select list is evaluated left to right, each CTE once: the journeys are locked before the loans.
  const { rows } = (await tx.execute(sql`
    with journeys as (
      select j.client_id, c.phone, c.email from client_journey j join client c on c.id = j.client_id
      where j.client_id in (${clientList}) order by j.client_id for update of j),
    loans as (
      select * from loan
      where client_id in (${clientList}) and state in ('active', 'on_hold', 'paid', 'sold_debt', 'write_off')
      order by id for update),
    open as (select id from loans where state = 'active')
    select
      (select coalesce(json_agg(journeys), '[]') from journeys) as journeys,
      (select coalesce(json_agg(to_jsonb(loans) || jsonb_build_object('accrual_basis', accrual_basis::text)), '[]')
        from loans) as loans,
      (select coalesce(json_agg(s), '[]') from (
        select loan_id, part, sum(amount)::text as amount from loan_ledger_entry
        where loan_id in (select id from open) group by loan_id, part) s) as sums,
      (select coalesce(json_agg(loan_id), '[]') from loan_extension
        where loan_id in (select id from open) and invoice_status = 'unpaid') as invoices,
      (select coalesce(json_agg(o), '[]') from (
        select scope, offset_days from clock_offset where scope in (${sql.join(
          scopes.map((scope) => sql`${scope}`),
          sql`, `,
        )})) o) as offsets`)) as unknown as { rows: LockedReads[] }
  const read = rows[0]!
  const locked = new Map(read.journeys.map((j) => [Number(j.client_id), j]))
  const byClient = new Map<number, LoanRow[]>()
  for (const json of read.loans) {
    const row = loanRowOf(json)
    byClient.set(row.clientId, [...(byClient.get(row.clientId) ?? []), row])
  }
  const candidates: { item: Waiting; row: LoanRow; contact: { phone: string; email: string } }[] = []
  for (const item of batch) {
    if (!locked.has(item.clientId)) continue
    const row = paymentLoan(byClient.get(item.clientId) ?? [])
    const contact = locked.get(item.clientId)!
    if (row?.state === 'active' && row.plan === 'on_terms' && row.startDate)
      candidates.push({ item, row, contact })
  }
  if (!candidates.length) return []
  const loanIds = candidates.map((c) => c.row.id)
  const ids = idList(loanIds)
  const offsets = new Map(read.offsets.map((o) => [o.scope, Number(o.offset_days)]))
  const extended = new Set(read.invoices.map(Number))
  const balancesBy = new Map<number, Balances>()
  for (const r of read.sums) {
    const loanId = Number(r.loan_id)
    const b = balancesBy.get(loanId) ?? zeroBalances()
    b[r.part as LedgerPart] = Number(r.amount)
    balancesBy.set(loanId, b)
  }
  const offsetOf = (scope: string) => offsets.get(scope) ?? 0

  const planned: Planned[] = []
  for (const { item, row, contact } of candidates) {
    if (extended.has(row.id)) continue
    const today = manilaDate(shifted(now, offsetOf(INSTANCE_SCOPE) + offsetOf(clientScope(row.clientId))))
    let balances = balancesBy.get(row.id) ?? zeroBalances()
    const accrual = dueAccrual(row, balances, today)
    if (accrual) balances = { ...balances, interest: balances.interest + accrual.amount }
    const amount = item.event.data.amount
    const allocation = allocate(balances, amount)
    if (allocation.credit > 0) continue
    const lines = allocationLines(allocation)
    const final = balancesOf([...partsOf(balances), ...lines.map((l) => l.line)])
    // A payment that settles the loan, or leaves a residue to waive, moves more than the loan: single path.
    if (residueWaiver(final).length || outstandingOf(final) === 0) continue
    const from = leafOfRow(row)
    const next = advanceLoan({ version: LOAN_MODEL_VERSION, value: from }, { type: 'PAYMENT_POSTED' })
    if (!next) continue
    const applied: Record<string, number> = {}
    for (const { line } of lines) applied[line.part] = (applied[line.part] ?? 0) - line.amount
    planned.push({
      item,
      row,
      today,
      from,
      to: next.value,
      accrual,
      allocation: lines.map((l) => l.line),
      applied,
      remaining: outstandingOf(final),
      phone: contact.phone,
      email: contact.email,
    })
  }
  if (!planned.length) return []

  // The inbox rows and the payments, in one statement: an event already in the inbox (a concurrent or earlier
  // delivery) gets no payment here and is left to the single path.
  const { rows: written } = (await tx.execute(sql`
    with inbox as (${insertSql(
      'payment_event',
      INBOX_COLUMNS,
      planned.map(({ item }) => ({
        provider: item.provider,
        event_id: item.event.id,
        type: item.event.type,
        provider_payment_id: item.event.data.paymentId,
        outcome: 'receiving',
        received_at: now,
      })),
      sql`on conflict do nothing returning id, provider, event_id`,
    )}),
    payments as (
      insert into payment (${sql.raw(PAYMENT_COLUMNS.map(([name]) => name).join(', '))})
      select ${sql.raw(PAYMENT_COLUMNS.map(([name]) => `r.${name}`).join(', '))}
      from ${recordset(
        [...PAYMENT_COLUMNS, ['event_id', 'text']],
        planned.map(({ item, row, today }) => ({
          provider: item.provider,
          provider_payment_id: item.event.data.paymentId,
          reference: normaliseReference(item.event.data.reference),
          channel: item.event.data.channel,
          amount: item.event.data.amount,
          status: 'posted',
          client_id: row.clientId,
          loan_id: row.id,
          source: 'webhook',
          paid_at: new Date(item.event.data.paidAt ?? item.event.createdAt),
          received_at: now,
          posted_at: now,
          business_date: today,
          event_id: item.event.id,
        })),
      )}
      join inbox on inbox.provider = r.provider and inbox.event_id = r.event_id
      order by r.ord
      on conflict do nothing
      returning id, provider, provider_payment_id)
    select 'inbox' as kind, id::text as id, provider, event_id as key from inbox
    union all
    select 'payment', id::text, provider, provider_payment_id from payments`)) as unknown as {
    rows: { kind: 'inbox' | 'payment'; id: string; provider: string; key: string }[]
  }
  // The new rows' ids by provider and key: the event's id for an inbox row, the gateway's payment id for a payment.
  const idsOf = (kind: 'inbox' | 'payment') =>
    new Map(written.filter((r) => r.kind === kind).map((r) => [`${r.provider}\u0000${r.key}`, Number(r.id)]))
  const inboxOf = idsOf('inbox')
  const posting = planned.filter((p) => inboxOf.has(`${p.item.provider}\u0000${p.item.event.id}`))
  if (!posting.length) return []
  const paymentIdOf = idsOf('payment')
  // A payment recorded meanwhile (reconciliation, another event of it): roll the batch back, post one by one.
  if (paymentIdOf.size !== posting.length) throw new Error('a payment of the batch was already recorded')
  const idOf = (p: Planned) => paymentIdOf.get(`${p.item.provider}\u0000${p.item.event.data.paymentId}`)!

  // The entries in the single path's order: each loan's accrual, then its allocation.
  const entries = posting.flatMap((p) => {
    const base = { loan_id: p.row.id, client_id: p.row.clientId, business_date: p.today, at: now }
    const accrual =
      p.accrual && p.accrual.amount > 0
        ? [
            {
              ...base,
              kind: 'interest_accrual',
              part: 'interest',
              amount: p.accrual.amount,
              payment_id: null,
              memo: `days ${p.row.accruedDays + 1}-${p.accrual.next.accruedDays}`,
            },
          ]
        : []
    const allocation = p.allocation
      .filter((l) => l.amount !== 0)
      .map((l) => ({
        ...base,
        kind: 'allocation',
        part: l.part,
        amount: l.amount,
        payment_id: idOf(p),
        memo: null,
      }))
    return [...accrual, ...allocation]
  })
  // One update of every loan: the accrual's running basis (bumping the version, as `bookAccrual` does) and the
  // statechart's move (bumping it again, as `moveLoan` does).
  const loanChanges = posting.map((p) => ({
    id: p.row.id,
    accrued_days: p.accrual?.next.accruedDays ?? p.row.accruedDays,
    accrual_basis: String(p.accrual?.next.basis ?? p.row.accrualBasis),
    state: topStateOf(p.to),
    plan: planOf(p.to) ?? p.row.plan,
    status: loanStatusOf(p.to),
    version: p.row.version + (p.accrual ? 2 : 1),
  }))
  const transitions = posting.map((p) => {
    const by = jobActor(`webhook:${p.item.provider}`, p.item.event.data.paymentId)
    return {
      machine: loanLifecycleMachine.id,
      subject_id: p.row.id,
      client_id: p.row.clientId,
      model_version: LOAN_MODEL_VERSION,
      from_state: p.from,
      to_state: p.to,
      event: 'PAYMENT_POSTED',
      call: by.call,
      actor_kind: by.kind,
      actor_id: String(by.id),
      at: now,
    }
  })
  // The receipt jobs are written already claimed by this process (a lease, the attempt counted), as
  // `afterPosting` claims them: it sends them right after the commit, and the worker only if it does not.
  const jobs = posting.map((p) => ({
    kind: RECEIPT_JOB,
    subject_id: String(idOf(p)),
    run_at: now,
    created_at: now,
    attempts: 1,
    locked_until: new Date(now.getTime() + SERVICING_JOB_LEASE_MS),
  }))
  const outcomes = posting.map((p) => ({
    id: inboxOf.get(`${p.item.provider}\u0000${p.item.event.id}`),
    payment_id: idOf(p),
  }))
  const charges = posting.map((p) => p.item.event.data.paymentId)
  // The id lists beside the joins let the planner reach the rows by their index instead of scanning the table
  // (it cannot see how few rows a recordset holds).
  const inboxIds = idList(outcomes.map((o) => o.id!))
  // Everything else the payments cause, in one statement (data-modifying CTEs: none reads another's rows).
  await tx.execute(sql`
    with entries as (${insertSql('loan_ledger_entry', LEDGER_COLUMNS, entries)}),
    loans as (
      update loan set accrued_days = r.accrued_days, accrual_basis = r.accrual_basis::bigint, state = r.state,
        plan = r.plan, status = r.status, version = r.version
      from ${recordset(LOAN_CHANGE_COLUMNS, loanChanges)}
      where loan.id = r.id and loan.id in (${ids})),
    transitions as (${insertSql('state_transition', TRANSITION_COLUMNS, transitions)}),
    intentions as (
      update payment_intention set status = 'paid'
      where checkout_id in (${sql.join(
        charges.map((c) => sql`${c}`),
        sql`, `,
      )}) and status = 'open'),
    jobs as (${insertSql('servicing_job', JOB_COLUMNS, jobs, sql`on conflict do nothing`)})
    update payment_event set outcome = 'posted', payment_id = r.payment_id
    from ${recordset(OUTCOME_COLUMNS, outcomes)}
    where payment_event.id = r.id and payment_event.id in (${inboxIds})`)
  for (const p of posting) p.paymentId = idOf(p)
  return posting
}

const INBOX_COLUMNS: BulkColumn[] = [
  ['provider', 'text'],
  ['event_id', 'text'],
  ['type', 'text'],
  ['provider_payment_id', 'text'],
  ['outcome', 'text'],
  ['received_at', 'timestamptz'],
]
const PAYMENT_COLUMNS: BulkColumn[] = [
  ['provider', 'text'],
  ['provider_payment_id', 'text'],
  ['reference', 'text'],
  ['channel', 'text'],
  ['amount', 'bigint'],
  ['status', 'text'],
  ['client_id', 'bigint'],
  ['loan_id', 'bigint'],
  ['source', 'text'],
  ['paid_at', 'timestamptz'],
  ['received_at', 'timestamptz'],
  ['posted_at', 'timestamptz'],
  ['business_date', 'date'],
]
const LEDGER_COLUMNS: BulkColumn[] = [
  ['loan_id', 'bigint'],
  ['client_id', 'bigint'],
  ['kind', 'text'],
  ['part', 'text'],
  ['amount', 'bigint'],
  ['payment_id', 'bigint'],
  ['memo', 'text'],
  ['business_date', 'date'],
  ['at', 'timestamptz'],
]
const LOAN_CHANGE_COLUMNS: BulkColumn[] = [
  ['id', 'bigint'],
  ['accrued_days', 'integer'],
  ['accrual_basis', 'text'],
  ['state', 'text'],
  ['plan', 'text'],
  ['status', 'smallint'],
  ['version', 'integer'],
]
const TRANSITION_COLUMNS: BulkColumn[] = [
  ['machine', 'text'],
  ['subject_id', 'bigint'],
  ['client_id', 'bigint'],
  ['model_version', 'integer'],
  ['from_state', 'text'],
  ['to_state', 'text'],
  ['event', 'text'],
  ['call', 'text'],
  ['actor_kind', 'text'],
  ['actor_id', 'text'],
  ['at', 'timestamptz'],
]
const JOB_COLUMNS: BulkColumn[] = [
  ['kind', 'text'],
  ['subject_id', 'text'],
  ['run_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
  ['attempts', 'integer'],
  ['locked_until', 'timestamptz'],
]
const OUTCOME_COLUMNS: BulkColumn[] = [
  ['id', 'bigint'],
  ['payment_id', 'bigint'],
]

const partsOf = (b: Balances): LedgerLine[] =>
  (Object.keys(b) as LedgerPart[]).map((part) => ({ part, amount: b[part] }))

/**
 * The batch's receipts, as `afterPosting` sends each (jobs.ts `sendReceipt`), with the figures the posting
 * computed: every SMS and e-mail sent, then the jobs finished in one statement. A receipt that could not go is
 * released to the worker, which retries it.
 */
async function sendReceipts(deps: BatchDeps, planned: Planned[]) {
  if (!planned.length) return
  const db = deps.database.db
  const receipts = planned.map((p) => ({
    p,
    subjectId: String(p.paymentId),
    body: receiptText({
      amount: p.item.event.data.amount,
      loanNumber: loanNumberOf(p.row.id),
      allocation: p.applied,
      remaining: p.remaining,
      credit: 0,
    }),
  }))
  const sms = (r: (typeof receipts)[number]): OutgoingMessage => ({
    channel: 'sms',
    recipient: r.p.phone,
    body: r.body,
    purpose: 'payment_receipt',
  })
  const email = (r: (typeof receipts)[number]): OutgoingMessage => ({
    channel: 'email',
    recipient: r.p.email,
    subject: 'Hiram: payment received',
    body: r.body,
    purpose: 'payment_receipt',
  })
  const done: string[] = []
  const failed: string[] = []
  if (deps.messaging.sendMany) {
    // One delivery of every SMS and e-mail (the sandbox: one outbox insert); a failure leaves them all to the
    // worker, as a failed SMS leaves its receipt.
    try {
      await deps.messaging.sendMany(
        db,
        receipts.flatMap((r) => [sms(r), email(r)]),
      )
      done.push(...receipts.map((r) => r.subjectId))
    } catch {
      failed.push(...receipts.map((r) => r.subjectId))
    }
  } else
    for (const r of receipts) {
      try {
        await deps.messaging.send(db, sms(r))
        await deps.messaging
          .send(db, email(r))
          .catch(() => deps.logger.warn({ paymentId: r.p.paymentId }, 'payment receipt e-mail not sent'))
        done.push(r.subjectId)
      } catch {
        failed.push(r.subjectId)
      }
    }
  const now = deps.now()
  const jobsOf = (subjects: string[]) =>
    and(eq(servicingJob.kind, RECEIPT_JOB), inArray(servicingJob.subjectId, subjects))
  if (done.length) await db.update(servicingJob).set({ doneAt: now, lockedUntil: null }).where(jobsOf(done))
  if (failed.length) {
    deps.logger.warn({ paymentIds: failed.map(Number), kind: RECEIPT_JOB }, 'servicing job failed')
    await db
      .update(servicingJob)
      .set({ lockedUntil: null, lastError: 'receipt not sent' })
      .where(jobsOf(failed))
  }
}
