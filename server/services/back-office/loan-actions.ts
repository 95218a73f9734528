/**
 * The back office's actions on one loan (issue 19 item 5; docs/decisions/0037-back-office-loan-actions.md).
 *
 * Extension on the client's behalf: the client's own services (server/services/servicing/extensions.ts) do the
 * choosing, the application, the documents and the signing, so pricing, caps and eligibility are decided in one
 * place. Each write here runs them inside the loan's transaction (`loanTransaction`: the journey and the loan
 * locked, in that order, as every loan write does) together with its audit entry, so the change and the record
 * of who made it commit or roll back together. The services' own transactions become savepoints of it.
 *
 * Refund: queues the existing credit refund (table credit_refund, job REFUND_JOB); the servicing worker reserves
 * the credit, calls the payout provider and books the outcome exactly as for a refund posting queued itself.
 */
import { and, asc, desc, eq, inArray } from 'drizzle-orm'
import type {
  BackOfficeExtensions,
  CreditRefund,
  LoanRefunds,
} from '../../../domain/contract/back-office-loans'
import type { RolloverApplication } from '../../../domain/contract/servicing-answers'
import { conflict, notFound } from '../../../domain/errors'
import type { ExtensionType } from '../../../domain/loan/extension'
import type { Db, DbOrTx, Tx } from '../../db/client'
import { client } from '../../db/schema-identity'
import { disbursementEntry } from '../../db/schema-journey'
import { loan } from '../../db/schema-lending'
import { creditRefund } from '../../db/schema-payments'
import { extensionApplication, loanExtension } from '../../db/schema-servicing'
import type { AppDeps } from '../../deps'
import { recordChange } from '../audit/audit'
import type { Actor } from '../journey/journey'
import { businessToday } from '../payments/clock'
import { REFUND_JOB } from '../payments/job-kinds'
import { balancesOfLoan, type LoanRow, loanTransaction } from '../payments/loans'
import { queueJob } from '../payments/posting'
import { openLoan } from '../payments/views'
import {
  chooseExtension,
  extensionApplicationFor,
  payableExtension,
  rolloversOf,
  signExtension,
} from '../servicing/extensions'

type Deps = Pick<AppDeps, 'database' | 'logger' | 'now'>
type Refusal = { code: string; message: string }

/** The same dependencies with every query on `tx`: a service's own transaction becomes a savepoint of it. */
const within = (deps: Deps, tx: Tx): Deps => ({
  ...deps,
  database: { ...deps.database, db: tx as unknown as Db },
})

async function loanRow(db: DbOrTx, loanId: number): Promise<LoanRow> {
  const [row] = await db.select().from(loan).where(eq(loan.id, loanId))
  if (!row) throw notFound('Loan')
  return row
}

/** The client a loan belongs to and the phone their signing code goes to. */
export async function loanClient(db: DbOrTx, loanId: number) {
  const row = await loanRow(db, loanId)
  const [owner] = await db
    .select({ id: client.id, phone: client.phone })
    .from(client)
    .where(eq(client.id, row.clientId))
  if (!owner) throw notFound('Client')
  return { loanId: row.id, clientId: owner.id, phone: owner.phone }
}

// ---------------------------------------------------------------------------------------------------------
// Extension on the client's behalf

/**
 * Why this loan cannot be extended on the client's behalf now, before pricing (which the client's own service
 * decides): it is not active, it is not the loan the client's own extension screen offers (with an additional
 * loan, the first open one), or an extension is already signed and waiting for its fee.
 */
async function extendRefusal(db: DbOrTx, row: LoanRow, today: string): Promise<Refusal | null> {
  if (row.state !== 'active')
    return {
      code: 'loanNotActive',
      message: `Only an active loan can be extended; this one is ${row.state.replace('_', ' ')}.`,
    }
  const open = await openLoan(db, row.clientId)
  if (open?.id !== row.id)
    return {
      code: 'notTheExtendableLoan',
      message: "Only the client's first open loan is offered extensions.",
    }
  if (await payableExtension(db, row.id, today))
    return {
      code: 'extensionPending',
      message: 'An extension is already signed and waits for its fee: record the fee payment instead.',
    }
  return null
}

const refuse = (refusal: Refusal) => conflict(refusal.code, refusal.message)

/** GET: the client's rollovers of this loan today and whether one may be chosen on the client's behalf. */
export async function extensionOptions(deps: Deps, loanId: number): Promise<BackOfficeExtensions> {
  const db = deps.database.db
  const row = await loanRow(db, loanId)
  const today = await businessToday(db, row.clientId, deps.now())
  const options = await rolloversOf(db, row, today)
  let refusal = await extendRefusal(db, row, today)
  if (!refusal && !options.some((o) => o.available)) {
    const why = options.find((o) => o.refusal)?.refusal
    refusal = {
      code: 'extensionNotAvailable',
      message: why?.message ?? 'No extension is offered for this loan.',
    }
  }
  return {
    loanId: row.id,
    clientId: row.clientId,
    state: row.state,
    dueDate: row.dueDate,
    extendable: refusal === null,
    refusal,
    options,
  }
}

const extensionRows = (db: DbOrTx, loanId: number) =>
  db
    .select({
      id: loanExtension.id,
      type: loanExtension.type,
      status: loanExtension.status,
      invoiceStatus: loanExtension.invoiceStatus,
      fee: loanExtension.fee,
      term: loanExtension.term,
      payableUntil: loanExtension.payableUntil,
      signedAt: loanExtension.signedAt,
    })
    .from(loanExtension)
    .where(eq(loanExtension.loanId, loanId))
    .orderBy(asc(loanExtension.id))

/**
 * Chooses an extension on the client's behalf and opens its application, in the loan's transaction with the
 * audit entry. Choosing the same type again answers the same extension (the route then sends a new code).
 */
export async function chooseOnBehalf(deps: Deps, loanId: number, type: ExtensionType, by: Actor) {
  const now = deps.now()
  const chosen = await loanTransaction(deps, loanId, by, now, async (tx, locked, today) => {
    const refusal = await extendRefusal(tx, locked, today)
    if (refusal) throw refuse(refusal)
    const before = await extensionRows(tx, locked.id)
    const inner = within(deps, tx)
    const rollover = await chooseExtension(inner, locked.clientId, type, by)
    const application = await extensionApplicationFor(inner, locked.clientId, locked.id, rollover.id, by)
    await recordChange(tx, {
      entity: 'loan_extension',
      entityId: rollover.id,
      clientId: locked.clientId,
      before: { loanId: locked.id, extensions: before },
      after: {
        loanId: locked.id,
        extensions: await extensionRows(tx, locked.id),
        chosen: { type, fee: rollover.fee.amount, term: rollover.term, newDueDate: rollover.newDueDate },
        applicationId: application.id,
        onBehalfOf: locked.clientId,
      },
    })
    return {
      result: { clientId: locked.clientId, rollover: application.rollover, applicationId: application.id },
      event: null,
    }
  })
  deps.logger.info(
    {
      loanId,
      clientId: chosen.clientId,
      extensionId: chosen.rollover.id,
      userId: by.id,
      event: 'extension.chosen_on_behalf',
    },
    'extension chosen on the client’s behalf',
  )
  return chosen
}

/** The chosen extension's live application (new or signed), or a refusal naming what to do first. */
async function liveApplicationOf(db: DbOrTx, loanId: number, extensionId: number) {
  const [ext] = await db
    .select({ id: loanExtension.id })
    .from(loanExtension)
    .where(and(eq(loanExtension.id, extensionId), eq(loanExtension.loanId, loanId)))
  if (!ext) throw notFound('Rollover')
  const [app] = await db
    .select({ id: extensionApplication.id })
    .from(extensionApplication)
    .where(
      and(
        eq(extensionApplication.extensionId, extensionId),
        inArray(extensionApplication.status, ['new', 'signed']),
      ),
    )
  if (!app) throw conflict('extensionNotChosen', 'Choose this extension first: no code was sent for it.')
  return app.id
}

/** Before the client's code is checked (and spent): the extension is chosen and waits for its signature. */
export async function assertSignable(db: DbOrTx, loanId: number, extensionId: number) {
  await liveApplicationOf(db, loanId, extensionId)
}

/**
 * Signs the chosen extension once the route has checked the client's code: the client's own signing service,
 * in the loan's transaction with the audit entry. The fee is payable from now on.
 */
export async function signOnBehalf(
  deps: Deps,
  loanId: number,
  extensionId: number,
  by: Actor,
): Promise<RolloverApplication> {
  const now = deps.now()
  const { clientId, application } = await loanTransaction(deps, loanId, by, now, async (tx, locked) => {
    if (locked.state !== 'active') throw conflict('loanNotActive', 'Only an active loan can be extended.')
    const appId = await liveApplicationOf(tx, locked.id, extensionId)
    const before = await extensionRows(tx, locked.id)
    const application = await signExtension(
      within(deps, tx),
      locked.clientId,
      locked.id,
      extensionId,
      appId,
      by,
    )
    await recordChange(tx, {
      entity: 'loan_extension',
      entityId: extensionId,
      clientId: locked.clientId,
      before: { loanId: locked.id, extensions: before },
      after: {
        loanId: locked.id,
        extensions: await extensionRows(tx, locked.id),
        signed: { applicationId: appId, documents: application.documents.map((d) => d.sha256) },
        consent: 'signing code sent to the client’s phone, read out by the client',
        onBehalfOf: locked.clientId,
      },
    })
    return { result: { clientId: locked.clientId, application }, event: null }
  })
  deps.logger.info(
    { loanId, clientId, extensionId, userId: by.id, event: 'extension.signed_on_behalf' },
    'extension signed on the client’s behalf',
  )
  return application
}

// ---------------------------------------------------------------------------------------------------------
// Refunds

type RefundRow = typeof creditRefund.$inferSelect

const refundView = (r: RefundRow): CreditRefund => ({
  id: r.id,
  loanId: r.loanId,
  amount: r.amount,
  status: r.status as CreditRefund['status'],
  failureReason: r.failureReason,
  providerRef: r.providerRef,
  createdAt: r.createdAt.toISOString(),
  completedAt: r.completedAt?.toISOString() ?? null,
})

/**
 * Why the loan's credit cannot be refunded now. The refund job pays back only a paid loan's credit (a loan a
 * reversal reopened keeps its credit against what it owes), to the payout account the client selected.
 */
async function refundRefusal(db: DbOrTx, row: LoanRow, credit: number): Promise<Refusal | null> {
  const [pending] = await db
    .select({ id: creditRefund.id })
    .from(creditRefund)
    .where(and(eq(creditRefund.loanId, row.id), inArray(creditRefund.status, ['queued', 'sending'])))
  if (pending)
    return {
      code: 'refundPending',
      message: `Refund ${pending.id} of this loan is already queued or sending.`,
    }
  if (credit <= 0) return { code: 'noCredit', message: 'This loan has no credit to refund.' }
  if (row.state !== 'paid')
    return {
      code: 'loanNotPaid',
      message: 'Only a paid loan’s credit is refunded; an open loan’s credit counts against what it owes.',
    }
  const [account] = await db
    .select({ id: disbursementEntry.id })
    .from(disbursementEntry)
    .where(and(eq(disbursementEntry.clientId, row.clientId), eq(disbursementEntry.selected, true)))
  if (!account)
    return { code: 'noPayoutAccount', message: 'The client has no payout account selected to refund to.' }
  return null
}

/** GET: the loan's credit now and its refunds, newest first. */
export async function loanRefunds(db: DbOrTx, loanId: number): Promise<LoanRefunds> {
  const row = await loanRow(db, loanId)
  const { credit } = await balancesOfLoan(db, row.id)
  const refusal = await refundRefusal(db, row, credit)
  const refunds = await db
    .select()
    .from(creditRefund)
    .where(eq(creditRefund.loanId, row.id))
    .orderBy(desc(creditRefund.id))
  return {
    loanId: row.id,
    clientId: row.clientId,
    state: row.state,
    credit,
    refundable: refusal === null,
    refusal,
    refunds: refunds.map(refundView),
  }
}

/**
 * Queues a refund of the loan's credit (one queued or sending at a time per loan: the loan's lock serialises two
 * calls, and the partial unique index would refuse a second row anyway). A failed refund gave its credit back,
 * so queueing again retries it.
 */
export async function refundCredit(deps: Deps, loanId: number, by: Actor): Promise<CreditRefund> {
  const now = deps.now()
  const queued = await loanTransaction(deps, loanId, by, now, async (tx, locked) => {
    const { credit } = await balancesOfLoan(tx, locked.id)
    const refusal = await refundRefusal(tx, locked, credit)
    if (refusal) throw refuse(refusal)
    const [row] = await tx
      .insert(creditRefund)
      .values({
        loanId: locked.id,
        clientId: locked.clientId,
        amount: credit,
        status: 'queued',
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning()
    if (!row) throw conflict('refundPending', 'A refund of this loan is already queued or sending.')
    await queueJob(tx, REFUND_JOB, String(row.id), now)
    await recordChange(tx, {
      entity: 'credit_refund',
      entityId: row.id,
      clientId: locked.clientId,
      before: { loanId: locked.id, credit },
      after: refundView(row),
    })
    return { result: row, event: null }
  })
  deps.logger.info(
    {
      loanId,
      clientId: queued.clientId,
      refundId: queued.id,
      userId: by.id,
      event: 'refund.queued_by_staff',
    },
    'credit refund queued by the back office',
  )
  return refundView(queued)
}
