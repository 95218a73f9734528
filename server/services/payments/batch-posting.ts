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
 * Concurrency: one batch runs at a time per database in a process; it holds at most one event per client (a
 * second one for the same client waits for the next batch, so one loan's payments keep their order) and takes
 * the journey locks, then the loan locks, in id order: the single path takes one client's journey lock then its
 * loan's, so neither several processes nor the two paths can deadlock. The payment insert is unique on
 * (provider, providerPaymentId) as before: a payment another process recorded meanwhile aborts the batch, whose
 * events then all take the single path (which answers `duplicate` where due).
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
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
import type { Tx } from '../../db/client'
import { errorForLog } from '../../db/errors'
import { client } from '../../db/schema-identity'
import { clientJourney, stateTransition } from '../../db/schema-journey'
import { loan } from '../../db/schema-lending'
import {
  clockOffset,
  loanLedgerEntry,
  payment,
  paymentEvent,
  paymentIntention,
  servicingJob,
} from '../../db/schema-payments'
import { loanExtension } from '../../db/schema-servicing'
import type { AppDeps } from '../../deps'
import type { OutgoingMessage } from '../../providers/messaging'
import { jobActor } from '../journey/journey'
import { clientScope, INSTANCE_SCOPE, shifted } from './clock'
import { RECEIPT_JOB } from './job-kinds'
import { finishServicingJobs, receiptText, retryServicingJob, SERVICING_JOB_LEASE_MS } from './jobs'
import { dueAccrual, type LoanRow, leafOfRow, stateOf } from './loans'

/** At most this many events in one transaction: enough to amortise a commit, short enough to keep p99 low. */
export const MAX_BATCH = 32

export type BatchOutcome = 'posted' | 'single'

interface Waiting {
  provider: string
  event: GatewayEvent
  clientId: number
  resolve: (outcome: BatchOutcome) => void
  reject: (error: unknown) => void
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

class Poster {
  private queue: Waiting[] = []
  private running = false

  constructor(private readonly deps: BatchDeps) {}

  add(provider: string, event: GatewayEvent, clientId: number) {
    return new Promise<BatchOutcome>((resolve, reject) => {
      this.queue.push({ provider, event, clientId, resolve, reject })
      if (!this.running) void this.drain()
    })
  }

  /** Runs batches while events wait: whatever arrived during a batch forms the next one (group commit). */
  private async drain() {
    this.running = true
    try {
      while (this.queue.length) {
        // PGlite answers its queries in microtasks, so a batch never lets the event loop read the requests
        // waiting on their sockets: without this turn of the loop, HTTP webhooks would form batches of one.
        await turnOfTheLoop()
        const batch: Waiting[] = []
        const rest: Waiting[] = []
        const clients = new Set<number>()
        const charges = new Set<string>()
        for (const item of this.queue) {
          const charge = `${item.provider}\u0000${item.event.data.paymentId}`
          if (batch.length < MAX_BATCH && !clients.has(item.clientId) && !charges.has(charge)) {
            batch.push(item)
            clients.add(item.clientId)
            charges.add(charge)
          } else rest.push(item)
        }
        this.queue = rest
        await this.run(batch)
      }
    } finally {
      this.running = false
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
    // The receipts go out after the commit, like `afterPosting`; a failure leaves the job to the worker.
    try {
      await sendReceipts(deps, planned, now)
    } catch (error) {
      deps.logger.warn({ events: planned.length, err: errorForLog(error) }, 'batched receipts failed')
    }
    for (const p of planned) p.item.resolve('posted')
  }
}

const turnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)))

/** The loan a client's payments go to, as `loanForPayments` chooses it: the open one (oldest), else the newest. */
function paymentLoan(rows: LoanRow[]): LoanRow | null {
  const sorted = [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
  return sorted.find((r) => isOpenLoanState(stateOf(r))) ?? sorted.at(-1) ?? null
}

/**
 * The batch's transaction: locks, reads, the money rules per loan, then the writes. Answers the events it
 * posted; the others were not touched.
 */
async function postBatch(tx: Tx, batch: Waiting[], now: Date): Promise<Planned[]> {
  const clientIds = [...new Set(batch.map((i) => i.clientId))].sort((a, b) => a - b)
  // The journey lock first, as every change of a client takes it (loans.ts `loanTransaction`); a client with
  // no journey row takes the single path, which creates it.
  // The receipt's contacts come with it (read here, sent after the commit).
  const journeys = await tx
    .select({ clientId: clientJourney.clientId, phone: client.phone, email: client.email })
    .from(clientJourney)
    .innerJoin(client, eq(client.id, clientJourney.clientId))
    .where(inArray(clientJourney.clientId, clientIds))
    .orderBy(asc(clientJourney.clientId))
    .for('update', { of: clientJourney })
  const locked = new Map(journeys.map((j) => [j.clientId, j]))
  const loans = await tx
    .select()
    .from(loan)
    .where(and(inArray(loan.clientId, clientIds), inArray(loan.state, ['active', 'on_hold', 'paid'])))
    .orderBy(asc(loan.id))
    .for('update')
  const byClient = new Map<number, LoanRow[]>()
  for (const row of loans) byClient.set(row.clientId, [...(byClient.get(row.clientId) ?? []), row])
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
  const [offsets, sums, unpaidInvoices] = [
    await tx
      .select()
      .from(clockOffset)
      .where(
        inArray(clockOffset.scope, [INSTANCE_SCOPE, ...candidates.map((c) => clientScope(c.row.clientId))]),
      ),
    await tx
      .select({
        loanId: loanLedgerEntry.loanId,
        part: loanLedgerEntry.part,
        total: sql<string>`coalesce(sum(${loanLedgerEntry.amount}), 0)`,
      })
      .from(loanLedgerEntry)
      .where(inArray(loanLedgerEntry.loanId, loanIds))
      .groupBy(loanLedgerEntry.loanId, loanLedgerEntry.part),
    // An unpaid extension invoice may take the payment (`payExtensionLocked`): the single path decides.
    await tx
      .select({ loanId: loanExtension.loanId })
      .from(loanExtension)
      .where(and(inArray(loanExtension.loanId, loanIds), eq(loanExtension.invoiceStatus, 'unpaid'))),
  ]
  const offsetOf = (scope: string) => offsets.find((o) => o.scope === scope)?.offsetDays ?? 0
  const balancesBy = new Map<number, Balances>()
  for (const s of sums) {
    const b = balancesBy.get(s.loanId) ?? zeroBalances()
    b[s.part as LedgerPart] = Number(s.total)
    balancesBy.set(s.loanId, b)
  }
  const extended = new Set(unpaidInvoices.map((e) => e.loanId))

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

  // The inbox rows; an event already there (a concurrent or earlier delivery) is left to the single path.
  const inbox = await tx
    .insert(paymentEvent)
    .values(
      planned.map(({ item }) => ({
        provider: item.provider,
        eventId: item.event.id,
        type: item.event.type,
        providerPaymentId: item.event.data.paymentId,
        outcome: 'receiving',
        receivedAt: now,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: paymentEvent.id, eventId: paymentEvent.eventId, provider: paymentEvent.provider })
  const inboxOf = new Map(inbox.map((r) => [`${r.provider}\u0000${r.eventId}`, r.id]))
  const posting = planned.filter((p) => inboxOf.has(`${p.item.provider}\u0000${p.item.event.id}`))
  if (!posting.length) return []

  const payments = await tx
    .insert(payment)
    .values(
      posting.map(({ item, row, today }) => ({
        provider: item.provider,
        providerPaymentId: item.event.data.paymentId,
        reference: normaliseReference(item.event.data.reference),
        channel: item.event.data.channel,
        amount: item.event.data.amount,
        status: 'posted',
        clientId: row.clientId,
        loanId: row.id,
        source: 'webhook',
        paidAt: new Date(item.event.data.paidAt ?? item.event.createdAt),
        receivedAt: now,
        postedAt: now,
        businessDate: today,
        postedBy: null,
        note: null,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: payment.id, providerPaymentId: payment.providerPaymentId, provider: payment.provider })
  // A payment recorded meanwhile (reconciliation, another event of it): roll the batch back, post one by one.
  if (payments.length !== posting.length) throw new Error('a payment of the batch was already recorded')
  const paymentIdOf = new Map(payments.map((p) => [`${p.provider}\u0000${p.providerPaymentId}`, p.id]))
  const idOf = (p: Planned) => paymentIdOf.get(`${p.item.provider}\u0000${p.item.event.data.paymentId}`)!

  // The entries in the single path's order: each loan's accrual, then its allocation.
  const entries = posting.flatMap((p) => {
    const base = { loanId: p.row.id, clientId: p.row.clientId, businessDate: p.today, at: now }
    const accrual =
      p.accrual && p.accrual.amount > 0
        ? [
            {
              ...base,
              kind: 'interest_accrual',
              part: 'interest',
              amount: p.accrual.amount,
              paymentId: null,
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
        paymentId: idOf(p),
        memo: null,
      }))
    return [...accrual, ...allocation]
  })
  if (entries.length) await tx.insert(loanLedgerEntry).values(entries)

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
  await tx.execute(sql`
    update loan set accrued_days = c.accrued_days, accrual_basis = c.accrual_basis::bigint, state = c.state,
      plan = c.plan, status = c.status, version = c.version
    from jsonb_to_recordset(${JSON.stringify(loanChanges)}::jsonb)
      as c(id bigint, accrued_days integer, accrual_basis text, state text, plan text, status smallint, version integer)
    where loan.id = c.id`)

  await tx.insert(stateTransition).values(
    posting.map((p) => {
      const by = jobActor(`webhook:${p.item.provider}`, p.item.event.data.paymentId)
      return {
        machine: loanLifecycleMachine.id,
        subjectId: p.row.id,
        clientId: p.row.clientId,
        modelVersion: LOAN_MODEL_VERSION,
        fromState: p.from,
        toState: p.to,
        event: 'PAYMENT_POSTED',
        call: by.call,
        actorKind: by.kind,
        actorId: String(by.id),
        at: now,
      }
    }),
  )
  await tx
    .update(paymentIntention)
    .set({ status: 'paid' })
    .where(
      and(
        inArray(
          paymentIntention.checkoutId,
          posting.map((p) => p.item.event.data.paymentId),
        ),
        eq(paymentIntention.status, 'open'),
      ),
    )
  await tx
    .insert(servicingJob)
    .values(
      posting.map((p) => ({ kind: RECEIPT_JOB, subjectId: String(idOf(p)), runAt: now, createdAt: now })),
    )
    .onConflictDoNothing()
  const outcomes = posting.map((p) => ({
    id: inboxOf.get(`${p.item.provider}\u0000${p.item.event.id}`),
    payment_id: idOf(p),
  }))
  await tx.execute(sql`
    update payment_event set outcome = 'posted', payment_id = o.payment_id
    from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as o(id bigint, payment_id bigint)
    where payment_event.id = o.id`)
  for (const p of posting) p.paymentId = idOf(p)
  return posting
}

const partsOf = (b: Balances): LedgerLine[] =>
  (Object.keys(b) as LedgerPart[]).map((part) => ({ part, amount: b[part] }))

/**
 * The batch's receipts, as `afterPosting` sends each (jobs.ts `sendReceipt`): the jobs claimed in one statement,
 * each SMS and e-mail sent, the jobs finished in one statement; a job that failed is retried by the worker.
 */
async function sendReceipts(deps: BatchDeps, planned: Planned[], now: Date) {
  if (!planned.length) return
  const db = deps.database.db
  const ids = planned.map((p) => String(p.paymentId))
  const jobs = await db
    .update(servicingJob)
    .set({
      lockedUntil: new Date(now.getTime() + SERVICING_JOB_LEASE_MS),
      attempts: sql`${servicingJob.attempts} + 1`,
    })
    .where(
      and(
        eq(servicingJob.kind, RECEIPT_JOB),
        inArray(servicingJob.subjectId, ids),
        sql`${servicingJob.doneAt} is null`,
        sql`(${servicingJob.lockedUntil} is null or ${servicingJob.lockedUntil} < ${now})`,
      ),
    )
    .returning()
  if (!jobs.length) return
  const byPayment = new Map(planned.map((p) => [String(p.paymentId), p]))
  const receipts = jobs.map((job) => {
    const p = byPayment.get(job.subjectId)!
    const body = receiptText({
      amount: p.item.event.data.amount,
      loanNumber: loanNumberOf(p.row.id),
      allocation: p.applied,
      remaining: p.remaining,
      credit: 0,
    })
    return { job, p, body }
  })
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
  const done: typeof jobs = []
  if (deps.messaging.sendMany) {
    // One delivery of every SMS and e-mail (the sandbox: one outbox insert); a failure leaves them all to the
    // worker's retry, as a failed SMS leaves its receipt.
    try {
      await deps.messaging.sendMany(
        db,
        receipts.flatMap((r) => [sms(r), email(r)]),
      )
      done.push(...jobs)
    } catch (error) {
      for (const { job } of receipts) await retryServicingJob(db, job, error, deps.now())
    }
  } else
    for (const r of receipts) {
      try {
        await deps.messaging.send(db, sms(r))
        await deps.messaging
          .send(db, email(r))
          .catch(() =>
            deps.logger.warn({ paymentId: Number(r.job.subjectId) }, 'payment receipt e-mail not sent'),
          )
        done.push(r.job)
      } catch (error) {
        deps.logger.warn(
          { jobId: r.job.id, kind: r.job.kind, attempt: r.job.attempts },
          'servicing job failed',
        )
        await retryServicingJob(db, r.job, error, deps.now())
      }
    }
  await finishServicingJobs(db, done, deps.now())
}
