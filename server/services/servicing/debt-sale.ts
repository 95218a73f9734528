/**
 * Selling overdue debt to a collection agency (issue 18, item 3; docs/decisions/0029-debt-sale-and-write-off.md).
 *
 * A sale names an agency and up to 500 loans. Each loan is sold in its own transaction under the client's journey
 * lock and the loan's row lock (`loanTransaction`), all or nothing for that loan: the interest due up to today is
 * booked, every receivable part is brought to 0 by a `debt_sale` entry (the receivable left Hiram's books: it
 * belongs to the agency now, Civil Code Art. 1624-1635), the sale's row keeps what the loan owed part by part, and
 * the statechart moves by DEBT_SOLD (only an overdue active loan accepts it). A loan the statechart refuses (not
 * overdue, already sold, paid...) is reported in the answer and nothing of it changes, so selling a sold loan
 * again is a refusal, never a second sale; two sales of one loan at once take turns on its locks and the second
 * finds it sold. The client is told (SMS and e-mail, to their own phone and address) after the loan's
 * transaction committed, never inside it.
 *
 * A payment that still reaches Hiram after the sale (the debtor who pays the old creditor, Art. 1626) is posted
 * to the loan without touching its parts (Hiram's books hold 0) and recorded as owed to the agency
 * (`debt_forward`, pending until the back office marks it forwarded): server/services/payments/posting.ts.
 */

import { and, asc, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm'
import type { CollectionAgency, DebtForward, DebtSale, SoldDebt } from '../../../domain/contract/debt-answers'
import { conflict, DomainError, notFound } from '../../../domain/errors'
import { formatDate, formatPhone, formatPhpText } from '../../../domain/format'
import { allocationOrder, type Balances } from '../../../domain/loan/ledger'
import { advanceLoan, LOAN_MODEL_VERSION, type LoanEvent } from '../../../domain/loan/loan-lifecycle.machine'
import { insideLawfulWindow, LAWFUL_FROM_HOUR, reminderSendAt } from '../../../domain/loan/reminders'
import { loanNumberOf } from '../../../domain/payments/reference'
import type { DbOrTx, Tx } from '../../db/client'
import { collectionAgency, debtForward, debtSale, debtSaleLoan, loanWriteOff } from '../../db/schema-debt'
import { client } from '../../db/schema-identity'
import { loan } from '../../db/schema-lending'
import { loanLedgerEntry, servicingAction, servicingJob } from '../../db/schema-payments'
import { paymentSchedule } from '../../db/schema-servicing'
import type { AppDeps } from '../../deps'
import type { Actor } from '../journey/journey'
import { DEBT_SALE_NOTICE_JOB } from '../payments/job-kinds'
import {
  accrueLocked,
  bookEntries,
  type LoanRow,
  LoanStateMismatch,
  leafOfRow,
  loanTransaction,
  stateOf,
} from '../payments/loans'

type Deps = Pick<AppDeps, 'database' | 'logger' | 'now'>
type NoticeDeps = Deps & Pick<AppDeps, 'messaging'>
type AgencyRow = typeof collectionAgency.$inferSelect

export const DEBT_SALE_CALL = 'POST /web/private/back-office/debt-sales'

// ---------------------------------------------------------------------------------------------------------
// Agencies

const agencyView = (row: AgencyRow): CollectionAgency => ({
  id: row.id,
  name: row.name,
  phone: row.phone,
  email: row.email,
  paymentInstructions: row.paymentInstructions,
  active: row.active,
})

export async function listAgencies(db: DbOrTx, page: number, perPage: number) {
  const [{ total }] = (await db.select({ total: sql<number>`count(*)::int` }).from(collectionAgency)) as [
    { total: number },
  ]
  const rows = await db
    .select()
    .from(collectionAgency)
    .orderBy(asc(collectionAgency.name), asc(collectionAgency.id))
    .limit(perPage)
    .offset((page - 1) * perPage)
  return { items: rows.map(agencyView), total }
}

export async function createAgency(
  deps: Deps,
  userId: number,
  body: { name: string; phone: string; email: string; paymentInstructions: string },
): Promise<CollectionAgency> {
  const [row] = await deps.database.db
    .insert(collectionAgency)
    .values({ ...body, active: true, createdAt: deps.now(), createdBy: userId })
    .onConflictDoNothing()
    .returning()
  if (!row)
    throw conflict('agencyExists', 'An agency of that name exists already.', [
      { propertyPath: 'name', message: 'An agency of that name exists already.' },
    ])
  return agencyView(row)
}

// ---------------------------------------------------------------------------------------------------------
// Shared with the write-off (write-off.ts)

/** Refuses (409) an event the loan's state does not accept, before anything is written. */
export function assertAccepts(row: LoanRow, event: LoanEvent) {
  const leaf = leafOfRow(row)
  if (!advanceLoan({ version: LOAN_MODEL_VERSION, value: leaf }, event))
    throw new LoanStateMismatch(leaf, event.type)
}

const receivable = (b: Balances) => allocationOrder.filter((part) => b[part] !== 0)

/** The entries that bring every receivable part of a loan to 0 (credit, owed to the client, stays). */
export function zeroingEntries(kind: 'debt_sale' | 'write_off', balances: Balances, memo: string) {
  return receivable(balances).map((part) => ({ kind, part, amount: -balances[part], memo }))
}

/** A schedule in force or offered ends with the loan's sale or write-off: nothing is collected on it any more. */
export async function endSchedules(tx: Tx, loanId: number) {
  await tx
    .update(paymentSchedule)
    .set({ status: 'withdrawn' })
    .where(and(eq(paymentSchedule.loanId, loanId), inArray(paymentSchedule.status, ['offered', 'active'])))
}

// ---------------------------------------------------------------------------------------------------------
// The loans the back office may sell or write off

export async function defaultCandidates(db: DbOrTx, page: number, perPage: number) {
  const where = or(and(eq(loan.state, 'active'), eq(loan.standing, 'overdue')), eq(loan.state, 'on_hold'))
  const [{ total }] = (await db.select({ total: sql<number>`count(*)::int` }).from(loan).where(where)) as [
    { total: number },
  ]
  const outstanding = sql<string>`(select coalesce(sum(${loanLedgerEntry.amount}), 0) from ${loanLedgerEntry}
    where ${loanLedgerEntry.loanId} = ${loan.id} and ${loanLedgerEntry.part} <> 'credit')`
  const rows = await db
    .select({ row: loan, outstanding })
    .from(loan)
    .where(where)
    .orderBy(sql`${loan.overdueSince} asc nulls last`, asc(loan.id))
    .limit(perPage)
    .offset((page - 1) * perPage)
  const items = rows.map(({ row, outstanding }) => {
    const leaf = leafOfRow(row)
    return {
      loanId: row.id,
      loanNumber: loanNumberOf(row.id),
      clientId: row.clientId,
      state: leaf,
      status: row.status,
      dueDate: row.dueDate,
      overdueSince: row.overdueSince,
      outstanding: Number(outstanding),
      sellable: !!advanceLoan({ version: LOAN_MODEL_VERSION, value: leaf }, { type: 'DEBT_SOLD' }),
    }
  })
  return { items, total }
}

// ---------------------------------------------------------------------------------------------------------
// The sale

export interface SaleOutcome {
  saleId: number | null
  agencyId: number
  sold: { loanId: number; loanNumber: string; clientId: number; amount: number }[]
  refused: { loanId: number; code: string; message: string }[]
}

async function sellOne(deps: Deps, saleId: number, agency: AgencyRow, userId: number, loanId: number) {
  const now = deps.now()
  const by: Actor = { kind: 'back-office', id: userId, call: DEBT_SALE_CALL }
  return loanTransaction(deps, loanId, by, now, async (tx, locked, today) => {
    assertAccepts(locked, { type: 'DEBT_SOLD' })
    const { row: accrued, balances } = await accrueLocked(tx, locked, today, now)
    await bookEntries(tx, accrued, zeroingEntries('debt_sale', balances, `sale ${saleId}`), today, now)
    const owed = {
      principal: balances.principal,
      interest: balances.interest,
      fees: balances.fees,
      penalties: balances.penalties,
    }
    const amount = owed.principal + owed.interest + owed.fees + owed.penalties
    await tx.insert(debtSaleLoan).values({
      saleId,
      loanId,
      clientId: accrued.clientId,
      agencyId: agency.id,
      amount,
      ...owed,
      businessDate: today,
      at: now,
    })
    await endSchedules(tx, loanId)
    await tx
      .insert(servicingAction)
      .values({ action: 'debt_sale', userId, at: now, reason: `sale ${saleId}`, loanId })
    return {
      result: { loanId, loanNumber: loanNumberOf(loanId), clientId: accrued.clientId, amount },
      event: { type: 'DEBT_SOLD' as const },
    }
  })
}

/**
 * Sells each loan on its own (see the file comment) and answers what was sold and what was refused; the clients
 * of the sold loans are notified once every loan's transaction has committed.
 */
export async function sellDebt(
  deps: NoticeDeps,
  userId: number,
  body: { agencyId: number; loanIds: number[]; reason?: string },
): Promise<SaleOutcome> {
  const db = deps.database.db
  const [agency] = await db.select().from(collectionAgency).where(eq(collectionAgency.id, body.agencyId))
  if (!agency) throw notFound('Collection agency')
  if (!agency.active) throw conflict('agencyInactive', 'This agency no longer takes debt.')
  const loanIds = [...new Set(body.loanIds)]
  const [sale] = await db
    .insert(debtSale)
    .values({ agencyId: agency.id, userId, reason: body.reason ?? null, at: deps.now() })
    .returning({ id: debtSale.id })
  const outcome: SaleOutcome = { saleId: sale!.id, agencyId: agency.id, sold: [], refused: [] }
  for (const loanId of loanIds) {
    try {
      outcome.sold.push(await sellOne(deps, sale!.id, agency, userId, loanId))
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      outcome.refused.push({ loanId, code: error.code, message: error.message })
    }
  }
  if (!outcome.sold.length) {
    // Nothing was sold: no sale to record (nothing refers to it yet).
    await db.delete(debtSale).where(eq(debtSale.id, sale!.id))
    outcome.saleId = null
  }
  deps.logger.info(
    {
      event: 'debt.sale',
      saleId: outcome.saleId,
      sold: outcome.sold.length,
      refused: outcome.refused.length,
    },
    'debt sale',
  )
  // Inside the lawful hours the notices go at once; outside them (SEC MC 18 s.2019: no collection contact
  // before 6 AM or after 10 PM Manila) a job sends them when the window opens.
  const now = deps.now()
  if (insideLawfulWindow(now)) for (const sold of outcome.sold) await notifySale(deps, sold.loanId, agency)
  else {
    const at = reminderSendAt(now, LAWFUL_FROM_HOUR)
    for (const sold of outcome.sold)
      await db
        .insert(servicingJob)
        .values({ kind: DEBT_SALE_NOTICE_JOB, subjectId: String(sold.loanId), runAt: at, createdAt: now })
        .onConflictDoNothing()
  }
  return outcome
}

export function saleNoticeText(f: { loanNumber: string; amount: number; soldOn: string; agency: AgencyRow }) {
  return (
    `Hiram: your loan ${f.loanNumber} (${formatPhpText(f.amount)} owed) was assigned to ${f.agency.name} on ` +
    `${formatDate(f.soldOn)}. Please pay them from now on: ${formatPhone(f.agency.phone)}, ${f.agency.email}. ` +
    'How to pay them: hiram.ph/profile/debt-sold. A payment that reaches Hiram by mistake is passed on to them.'
  )
}

/** The sale notice of a loan, deferred to the lawful hours (the servicing job DEBT_SALE_NOTICE_JOB). */
export async function sendDeferredSaleNotice(deps: NoticeDeps, loanId: number) {
  const [found] = await deps.database.db
    .select({ agency: collectionAgency })
    .from(debtSaleLoan)
    .innerJoin(collectionAgency, eq(collectionAgency.id, debtSaleLoan.agencyId))
    .where(eq(debtSaleLoan.loanId, loanId))
  if (found) await notifySale(deps, loanId, found.agency)
}

/** The client's notice of a sale: SMS, then an e-mail copy; after the commit, at most once per loan. */
async function notifySale(deps: NoticeDeps, loanId: number, agency: AgencyRow) {
  const db = deps.database.db
  const [f] = await db
    .select({ sale: debtSaleLoan, phone: client.phone, email: client.email })
    .from(debtSaleLoan)
    .innerJoin(client, eq(client.id, debtSaleLoan.clientId))
    .where(eq(debtSaleLoan.loanId, loanId))
  if (!f) return
  // Claimed before sending, like the payout notice: a crash between the two loses one notice, never sends two.
  const claimed = await db
    .update(debtSaleLoan)
    .set({ notifiedAt: deps.now() })
    .where(and(eq(debtSaleLoan.id, f.sale.id), isNull(debtSaleLoan.notifiedAt)))
    .returning({ id: debtSaleLoan.id })
  if (!claimed.length) return
  const body = saleNoticeText({
    loanNumber: loanNumberOf(loanId),
    amount: f.sale.amount,
    soldOn: f.sale.businessDate,
    agency,
  })
  try {
    await deps.messaging.send(db, { channel: 'sms', recipient: f.phone, body, purpose: 'debt_sold' })
  } catch {
    deps.logger.warn({ loanId, event: 'debt.sale.notice' }, 'debt sale SMS not sent')
  }
  await deps.messaging
    .send(db, {
      channel: 'email',
      recipient: f.email,
      subject: 'Your Hiram loan was assigned to a collection agency',
      body,
      purpose: 'debt_sold',
    })
    .catch(() => deps.logger.warn({ loanId, event: 'debt.sale.notice' }, 'debt sale e-mail not sent'))
}

export async function salesPage(db: DbOrTx, page: number, perPage: number) {
  const [{ total }] = (await db.select({ total: sql<number>`count(*)::int` }).from(debtSale)) as [
    { total: number },
  ]
  const sales = await db
    .select({ sale: debtSale, agencyName: collectionAgency.name })
    .from(debtSale)
    .innerJoin(collectionAgency, eq(collectionAgency.id, debtSale.agencyId))
    .orderBy(desc(debtSale.id))
    .limit(perPage)
    .offset((page - 1) * perPage)
  const ids = sales.map((s) => s.sale.id)
  const loans = ids.length
    ? await db
        .select()
        .from(debtSaleLoan)
        .where(inArray(debtSaleLoan.saleId, ids))
        .orderBy(asc(debtSaleLoan.id))
    : []
  const items: DebtSale[] = sales.map(({ sale, agencyName }) => {
    const own = loans.filter((l) => l.saleId === sale.id)
    return {
      id: sale.id,
      agency: { id: sale.agencyId, name: agencyName },
      userId: sale.userId,
      reason: sale.reason,
      at: sale.at.toISOString(),
      loans: own.map((l) => ({
        loanId: l.loanId,
        loanNumber: loanNumberOf(l.loanId),
        clientId: l.clientId,
        amount: l.amount,
      })),
      total: own.reduce((a, l) => a + l.amount, 0),
    }
  })
  return { items, total }
}

// ---------------------------------------------------------------------------------------------------------
// The client

/** Whether the client has a loan whose debt was sold (the flow guard sends them to /profile/debt-sold). */
export async function hasSoldDebt(db: DbOrTx, clientId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: loan.id })
    .from(loan)
    .where(and(eq(loan.clientId, clientId), eq(loan.state, 'sold_debt')))
    .limit(1)
  return !!row
}

/** The debt-sold page: each sold loan of the client, whom it is owed to now and how to pay them. */
export async function soldDebtOf(db: DbOrTx, clientId: number, page = 1, perPage = 50) {
  const where = and(eq(debtSaleLoan.clientId, clientId), eq(loan.state, 'sold_debt'))
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(debtSaleLoan)
    .innerJoin(loan, eq(loan.id, debtSaleLoan.loanId))
    .where(where)) as [{ total: number }]
  const rows = await db
    .select({ sale: debtSaleLoan, agency: collectionAgency })
    .from(debtSaleLoan)
    .innerJoin(collectionAgency, eq(collectionAgency.id, debtSaleLoan.agencyId))
    .innerJoin(loan, eq(loan.id, debtSaleLoan.loanId))
    .where(where)
    .orderBy(asc(debtSaleLoan.id))
    .limit(perPage)
    .offset((page - 1) * perPage)
  const forwarded = rows.length
    ? await db
        .select({ loanId: debtForward.loanId, total: sql<string>`coalesce(sum(${debtForward.amount}), 0)` })
        .from(debtForward)
        .where(
          and(
            inArray(
              debtForward.loanId,
              rows.map((r) => r.sale.loanId),
            ),
            inArray(debtForward.status, ['pending', 'forwarded']),
          ),
        )
        .groupBy(debtForward.loanId)
    : []
  const items: SoldDebt[] = rows.map(({ sale, agency }) => ({
    loanId: sale.loanId,
    loanNumber: loanNumberOf(sale.loanId),
    soldOn: sale.businessDate,
    amountAtSale: { amount: sale.amount },
    agency: {
      name: agency.name,
      phone: agency.phone,
      email: agency.email,
      paymentInstructions: agency.paymentInstructions,
    },
    paidToHiramAfterSale: {
      amount: Number(forwarded.find((f) => f.loanId === sale.loanId)?.total ?? 0),
    },
  }))
  return { items, total }
}

// ---------------------------------------------------------------------------------------------------------
// Payments after the sale (Civil Code Art. 1626)

/**
 * Inside the posting's transaction (the loan locked): the payment is owed to the agency that bought the loan.
 * Unique per payment, so a posting retried inside its transaction records it once.
 */
export async function recordForward(tx: Tx, row: LoanRow, p: { id: number; amount: number }, now: Date) {
  const [sale] = await tx
    .select({ agencyId: debtSaleLoan.agencyId })
    .from(debtSaleLoan)
    .where(eq(debtSaleLoan.loanId, row.id))
  if (!sale) throw new Error(`sold loan ${row.id} has no sale row`)
  await tx
    .insert(debtForward)
    .values({
      paymentId: p.id,
      loanId: row.id,
      clientId: row.clientId,
      agencyId: sale.agencyId,
      amount: p.amount,
      status: 'pending',
      createdAt: now,
    })
    .onConflictDoNothing()
}

const postedBeforeDefault = () =>
  conflict(
    'paymentBeforeDefault',
    'This payment was posted before the loan was sold or written off; what it paid left the books with the loan. Correct it with accounting instead of a reversal.',
  )

/**
 * Inside a reversal's transaction, for a payment on a sold or written-off loan. A payment posted before the sale
 * or the write-off is refused (409): reversing it would make a loan whose receivable left the books owe again.
 * On a sold loan, a payment not forwarded yet is simply no longer owed to the agency; one already paid over is
 * refused (409: get it back from the agency first). A recovery on a written-off loan reverses like any payment.
 */
export async function assertReversibleAfterDefault(
  tx: Tx,
  row: LoanRow,
  p: { id: number; postedAt: Date | null },
) {
  if (stateOf(row) === 'write_off') {
    const [off] = await tx
      .select({ at: loanWriteOff.at })
      .from(loanWriteOff)
      .where(eq(loanWriteOff.loanId, row.id))
    if (!off || !p.postedAt || p.postedAt < off.at) throw postedBeforeDefault()
    return
  }
  const [forward] = await tx.select().from(debtForward).where(eq(debtForward.paymentId, p.id)).for('update')
  // Every payment posted after the sale has its forward row: one without was posted before.
  if (!forward) throw postedBeforeDefault()
  if (forward.status === 'forwarded')
    throw conflict(
      'paymentForwarded',
      'This payment was already forwarded to the collection agency; recover it from the agency before reversing it.',
    )
  await tx.update(debtForward).set({ status: 'cancelled' }).where(eq(debtForward.id, forward.id))
}

export async function forwardsPage(
  db: DbOrTx,
  f: { page: number; perPage: number; status?: 'pending' | 'forwarded' | 'cancelled' },
) {
  const where: SQL | undefined = f.status ? eq(debtForward.status, f.status) : undefined
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(debtForward)
    .where(where)) as [{ total: number }]
  const rows = await db
    .select({ f: debtForward, agencyName: collectionAgency.name })
    .from(debtForward)
    .innerJoin(collectionAgency, eq(collectionAgency.id, debtForward.agencyId))
    .where(where)
    .orderBy(desc(debtForward.id))
    .limit(f.perPage)
    .offset((f.page - 1) * f.perPage)
  return { items: rows.map(({ f, agencyName }) => forwardView(f, agencyName)), total }
}

function forwardView(f: typeof debtForward.$inferSelect, agencyName: string): DebtForward {
  return {
    id: f.id,
    paymentId: f.paymentId,
    loanId: f.loanId,
    loanNumber: loanNumberOf(f.loanId),
    agency: { id: f.agencyId, name: agencyName },
    amount: f.amount,
    status: f.status as DebtForward['status'],
    createdAt: f.createdAt.toISOString(),
    forwardedAt: f.forwardedAt?.toISOString() ?? null,
  }
}

/** The back office paid a pending forward over to the agency. */
export async function markForwarded(deps: Deps, userId: number, id: number): Promise<DebtForward> {
  const now = deps.now()
  return deps.database.db.transaction(async (tx) => {
    const [row] = await tx.select().from(debtForward).where(eq(debtForward.id, id)).for('update')
    if (!row) throw notFound('Forward')
    if (row.status !== 'pending')
      throw conflict('forwardNotPending', 'Only a pending payment can be marked forwarded.')
    const [updated] = await tx
      .update(debtForward)
      .set({ status: 'forwarded', forwardedAt: now, forwardedBy: userId })
      .where(eq(debtForward.id, id))
      .returning()
    await tx.insert(servicingAction).values({
      action: 'forward',
      userId,
      at: now,
      reason: null,
      paymentId: row.paymentId,
      loanId: row.loanId,
    })
    const [agency] = await tx
      .select({ name: collectionAgency.name })
      .from(collectionAgency)
      .where(eq(collectionAgency.id, row.agencyId))
    return forwardView(updated!, agency!.name)
  })
}
