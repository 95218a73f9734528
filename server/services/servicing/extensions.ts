/**
 * Extensions (the spec's rollovers; issue 17 item 1): offered as drafts priced live, chosen (the invoice becomes
 * unpaid at a fee fixed that day), applied for, signed with an SMS code, and paid, which moves the due date by
 * the extension's term from the current due date and records EXTENDED in the loan's statechart. Caps and the
 * window are domain/loan/extension.ts's, checked when choosing, signing and again when the fee is paid.
 * docs/decisions/0025-extensions-and-payment-schedules.md.
 */
import { createHash } from 'node:crypto'
import { and, asc, eq, inArray, lt } from 'drizzle-orm'
import { pathOf } from '../../../domain/contract/define'
import { downloadAmendmentDocument } from '../../../domain/contract/servicing'
import type {
  AmendmentDocument,
  Rollover,
  RolloverApplication,
} from '../../../domain/contract/servicing-answers'
import { DomainError, notFound } from '../../../domain/errors'
import {
  type ExtensionType,
  extensionCapBreach,
  extensionQuote,
  invoiceLastDay,
  legalRoom,
} from '../../../domain/loan/extension'
import { outstandingOf } from '../../../domain/loan/ledger'
import { isOnTerms } from '../../../domain/loan/loan-lifecycle.machine'
import { loanNumberOf } from '../../../domain/payments/reference'
import { addDays } from '../../../domain/pricing/manila-date'
import type { DbOrTx, Tx } from '../../db/client'
import { clientProfile } from '../../db/schema-journey'
import { amendmentDocument, extensionApplication, loanExtension } from '../../db/schema-servicing'
import type { AppDeps } from '../../deps'
import type { Actor } from '../journey/journey'
import { businessToday } from '../payments/clock'
import { type LoanRow, loanTransaction, type NewEntry } from '../payments/loans'
import { openLoan } from '../payments/views'
import {
  amendmentDocumentName,
  type ExtensionDocumentInput,
  renderExtensionAgreement,
  renderExtensionDisclosure,
} from './amendment-documents'
import { loanSnapshot, type ServicingTerms, servicingTerms } from './facts'

type ServicingDeps = Pick<AppDeps, 'database' | 'logger' | 'now'>
export type ExtensionRow = typeof loanExtension.$inferSelect
type DocumentRow = typeof amendmentDocument.$inferSelect

const notAvailable = (message: string) => new DomainError('conflict', 'extensionNotAvailable', message)

// ---------------------------------------------------------------------------------------------------------
// Rows

/** The drafts a loan is offered: one per type, written at the payout and after each paid extension. */
export async function offerExtensionDrafts(tx: Tx, row: LoanRow, now: Date) {
  await tx
    .insert(loanExtension)
    .values(
      (['cheap', 'expensive'] as const).map((type) => ({
        loanId: row.id,
        clientId: row.clientId,
        type,
        status: 'inactive',
        invoiceStatus: 'draft',
        createdAt: now,
      })),
    )
    .onConflictDoNothing()
}

/**
 * Chosen invoices not paid by their last day expire, and their type is offered again as a draft. Run inside the
 * loan's transaction by every write that reads them, and by the servicing day.
 */
export async function expireExtensionInvoices(tx: Tx, row: LoanRow, today: string, now: Date) {
  const expired = await tx
    .update(loanExtension)
    .set({ status: 'expired', invoiceStatus: 'expired' })
    .where(
      and(
        eq(loanExtension.loanId, row.id),
        eq(loanExtension.invoiceStatus, 'unpaid'),
        lt(loanExtension.payableUntil, today),
      ),
    )
    .returning({ id: loanExtension.id })
  if (!expired.length) return 0
  await tx
    .update(extensionApplication)
    .set({ status: 'cancelled' })
    .where(
      and(
        inArray(
          extensionApplication.extensionId,
          expired.map((e) => e.id),
        ),
        eq(extensionApplication.status, 'new'),
      ),
    )
  await offerExtensionDrafts(tx, row, now)
  return expired.length
}

async function extensionsOf(db: DbOrTx, loanId: number) {
  return db
    .select()
    .from(loanExtension)
    .where(eq(loanExtension.loanId, loanId))
    .orderBy(asc(loanExtension.id))
}

async function liveApplication(db: DbOrTx, extensionId: number) {
  const [app] = await db
    .select()
    .from(extensionApplication)
    .where(
      and(
        eq(extensionApplication.extensionId, extensionId),
        inArray(extensionApplication.status, ['new', 'signed']),
      ),
    )
  return app ?? null
}

/** The unpaid, signed, not expired invoice of a loan: the one a payment may pay. */
export async function payableExtension(db: DbOrTx, loanId: number, today: string) {
  const rows = await db
    .select()
    .from(loanExtension)
    .where(and(eq(loanExtension.loanId, loanId), eq(loanExtension.invoiceStatus, 'unpaid')))
  return rows.find((r) => r.signedAt && r.payableUntil && r.payableUntil >= today) ?? null
}

/** An unpaid invoice within its days: the client has an active refinancing (spec section 3, Client). */
export async function hasPendingExtension(db: DbOrTx, loanId: number, today: string) {
  const rows = await db
    .select({ payableUntil: loanExtension.payableUntil })
    .from(loanExtension)
    .where(and(eq(loanExtension.loanId, loanId), eq(loanExtension.invoiceStatus, 'unpaid')))
  return rows.some((r) => r.payableUntil !== null && r.payableUntil >= today)
}

// ---------------------------------------------------------------------------------------------------------
// Views

/** The spec's rollovers of a loan today: drafts priced live, the chosen one at its fixed fee, the past ones. */
export async function rolloversOf(
  db: DbOrTx,
  row: LoanRow,
  today: string,
  terms?: ServicingTerms,
): Promise<Rollover[]> {
  const rows = await extensionsOf(db, row.id)
  if (!rows.length) return []
  const { facts } = await loanSnapshot(db, row, today)
  const { extensions, servicing } = terms ?? (await servicingTerms(db))
  const room = legalRoom(facts)
  const apps = await db
    .select()
    .from(extensionApplication)
    .where(
      and(eq(extensionApplication.loanId, row.id), inArray(extensionApplication.status, ['new', 'signed'])),
    )
  return rows.map((r) => {
    const app = apps.find((a) => a.extensionId === r.id) ?? null
    const type = r.type as ExtensionType
    const base = {
      id: r.id,
      loanId: row.id,
      type,
      applicationId: app?.id ?? null,
      signed: r.signedAt !== null,
    }
    if (r.invoiceStatus === 'draft') {
      const quote = extensionQuote(facts, type, extensions, servicing.extensions)
      return {
        ...base,
        status: 'inactive' as const,
        term: quote.term,
        fee: { amount: quote.fee },
        newDueDate: quote.newDueDate,
        legalRoom: { amount: quote.legalRoom },
        legalRoomAfter: { amount: quote.legalRoomAfter },
        available: quote.available,
        refusal: quote.refusal,
        invoices: [
          {
            id: r.id,
            status: 'draft' as const,
            amount: { amount: quote.fee },
            payableUntil: null,
            paidAt: null,
          },
        ],
      }
    }
    const fee = r.fee ?? 0
    const term = r.term ?? extensions[type].term
    const expired = r.invoiceStatus === 'unpaid' && (r.payableUntil ?? '') < today
    const refusal = r.invoiceStatus === 'unpaid' ? unpaidRefusal(facts, r, room, expired) : null
    return {
      ...base,
      status: expired ? ('expired' as const) : (r.status as Rollover['status']),
      term,
      fee: { amount: fee },
      newDueDate: r.dueDateAfter ?? addDays(row.dueDate, term),
      legalRoom: { amount: room },
      legalRoomAfter: { amount: r.invoiceStatus === 'paid' ? room : Math.max(0, room - fee) },
      available: r.invoiceStatus === 'unpaid' && refusal === null,
      refusal,
      invoices: [
        {
          id: r.id,
          status: expired
            ? ('expired' as const)
            : (r.invoiceStatus as Rollover['invoices'][number]['status']),
          amount: { amount: fee },
          payableUntil: r.payableUntil,
          paidAt: r.paidAt?.toISOString() ?? null,
        },
      ],
    }
  })
}

function unpaidRefusal(
  facts: Awaited<ReturnType<typeof loanSnapshot>>['facts'],
  r: ExtensionRow,
  room: number,
  expired: boolean,
): Rollover['refusal'] {
  if (expired)
    return { code: 'expired', message: `The fee was payable until ${r.payableUntil}; choose again.` }
  if (!isOnTerms(facts.leaf)) return { code: 'notOnTerms', message: 'The loan can no longer be extended.' }
  const breach = extensionCapBreach(r.fee ?? 0, facts.principalOutstanding, r.term ?? 0, room)
  return breach
    ? {
        code: breach,
        message: 'What you still owe changed: this fee would now break a legal cap; choose again.',
      }
    : null
}

// ---------------------------------------------------------------------------------------------------------
// Choosing, applying, signing

/** PUT /loan/active/rollover: the chosen type's invoice becomes unpaid at today's fee; the other goes back to draft. */
export async function chooseExtension(deps: ServicingDeps, clientId: number, type: ExtensionType, by: Actor) {
  const db = deps.database.db
  const open = await openLoan(db, clientId)
  if (!open) throw new DomainError('conflict', 'noActiveLoan', 'There is no loan to extend.')
  const terms = await servicingTerms(db)
  const now = deps.now()
  const id = await loanTransaction(deps, open.id, by, now, async (tx, locked, today) => {
    await expireExtensionInvoices(tx, locked, today, now)
    const rows = await extensionsOf(tx, locked.id)
    const chosen = rows.find((r) => r.type === type && r.invoiceStatus === 'unpaid')
    // Asking twice (a double tap, two tabs) answers the same choice.
    if (chosen) return { result: chosen.id, event: null }
    const { facts } = await loanSnapshot(tx, locked, today)
    const quote = extensionQuote(facts, type, terms.extensions, terms.servicing.extensions)
    if (!quote.available) throw notAvailable(quote.refusal!.message)
    const other = rows.filter((r) => r.type !== type && r.invoiceStatus === 'unpaid')
    for (const r of other) {
      // Back to draft: the row is the type's live draft again, priced live; its application is void.
      await tx
        .update(loanExtension)
        .set({
          invoiceStatus: 'draft',
          fee: null,
          principalBasis: null,
          term: null,
          payableUntil: null,
          chosenAt: null,
          signedAt: null,
        })
        .where(eq(loanExtension.id, r.id))
      await tx
        .update(extensionApplication)
        .set({ status: 'cancelled' })
        .where(
          and(
            eq(extensionApplication.extensionId, r.id),
            inArray(extensionApplication.status, ['new', 'signed']),
          ),
        )
    }
    const values = {
      invoiceStatus: 'unpaid',
      fee: quote.fee,
      principalBasis: quote.principalBasis,
      term: quote.term,
      payableUntil: invoiceLastDay(today, locked.dueDate, terms.servicing.extensions),
      chosenAt: now,
    }
    const draft = rows.find((r) => r.type === type && r.invoiceStatus === 'draft')
    if (draft) {
      await tx.update(loanExtension).set(values).where(eq(loanExtension.id, draft.id))
      return { result: draft.id, event: null }
    }
    const [inserted] = await tx
      .insert(loanExtension)
      .values({ ...values, loanId: locked.id, clientId, type, status: 'inactive', createdAt: now })
      .returning({ id: loanExtension.id })
    return { result: inserted!.id, event: null }
  })
  deps.logger.info(
    { loanId: open.id, clientId, extensionId: id, event: 'extension.chosen' },
    'extension chosen',
  )
  return rolloverById(db, open, id, now)
}

async function rolloverById(db: DbOrTx, row: LoanRow, extensionId: number, now: Date): Promise<Rollover> {
  const today = await businessToday(db, row.clientId, now)
  const rollover = (await rolloversOf(db, row, today)).find((r) => r.id === extensionId)
  if (!rollover) throw notFound('Rollover')
  return rollover
}

/** The client's open loan named in a path, or 404. */
async function ownOpenLoan(db: DbOrTx, clientId: number, loanId: number) {
  const open = await openLoan(db, clientId)
  if (!open || open.id !== loanId) throw notFound('Loan')
  return open
}

async function ownExtension(db: DbOrTx, loanId: number, extensionId: number) {
  const [row] = await db
    .select()
    .from(loanExtension)
    .where(and(eq(loanExtension.id, extensionId), eq(loanExtension.loanId, loanId)))
  if (!row) throw notFound('Rollover')
  return row
}

const assertChosen = (row: ExtensionRow, today: string) => {
  if (row.invoiceStatus !== 'unpaid')
    throw new DomainError(
      'conflict',
      'extensionNotChosen',
      row.invoiceStatus === 'paid' ? 'This extension is already in effect.' : 'Choose this extension first.',
    )
  if ((row.payableUntil ?? '') < today)
    throw new DomainError(
      'conflict',
      'extensionExpired',
      `The fee was payable until ${row.payableUntil}; choose again.`,
    )
}

/** POST /loan/{id}/rollover/{rid}/application: the chosen extension's application, once. */
export async function extensionApplicationFor(
  deps: ServicingDeps,
  clientId: number,
  loanId: number,
  extensionId: number,
  by: Actor,
): Promise<RolloverApplication> {
  const db = deps.database.db
  const open = await ownOpenLoan(db, clientId, loanId)
  await ownExtension(db, loanId, extensionId)
  const now = deps.now()
  const appId = await loanTransaction(deps, open.id, by, now, async (tx, locked, today) => {
    await expireExtensionInvoices(tx, locked, today, now)
    const row = await ownExtension(tx, loanId, extensionId)
    assertChosen(row, today)
    const existing = await liveApplication(tx, row.id)
    if (existing) return { result: existing.id, event: null }
    const [inserted] = await tx
      .insert(extensionApplication)
      .values({ extensionId: row.id, loanId, clientId, status: 'new', createdAt: now })
      .returning({ id: extensionApplication.id })
    return { result: inserted!.id, event: null }
  })
  return applicationView(db, open, extensionId, appId, now)
}

async function applicationView(
  db: DbOrTx,
  row: LoanRow,
  extensionId: number,
  appId: number,
  now: Date,
): Promise<RolloverApplication> {
  const [app] = await db.select().from(extensionApplication).where(eq(extensionApplication.id, appId))
  if (!app || app.extensionId !== extensionId || app.loanId !== row.id) throw notFound('Application')
  return {
    id: app.id,
    rolloverId: extensionId,
    loanId: row.id,
    status: app.status as RolloverApplication['status'],
    documents: (await documentsOf(db, 'extension', app.id)).map(documentView),
    rollover: await rolloverById(db, row, extensionId, now),
  }
}

export async function documentsOf(db: DbOrTx, subject: 'extension' | 'schedule', subjectId: number) {
  return db
    .select()
    .from(amendmentDocument)
    .where(and(eq(amendmentDocument.subject, subject), eq(amendmentDocument.subjectId, subjectId)))
    .orderBy(asc(amendmentDocument.id))
}

export function documentView(d: DocumentRow): AmendmentDocument {
  return {
    id: d.id,
    type: d.type as AmendmentDocument['type'],
    name: amendmentDocumentName[d.type as AmendmentDocument['type']] ?? d.type,
    sha256: d.sha256,
    size: d.size,
    renderedAt: d.renderedAt.toISOString(),
    signed: d.signedAt !== null,
    signedAt: d.signedAt?.toISOString() ?? null,
    url: `/web${pathOf(downloadAmendmentDocument, { id: d.loanId, docId: d.id })}`,
  }
}

export async function borrowerName(db: DbOrTx, clientId: number) {
  const [profile] = await db.select().from(clientProfile).where(eq(clientProfile.clientId, clientId))
  return profile
    ? [profile.firstName, profile.middleName, profile.lastName].filter(Boolean).join(' ')
    : `Client ${clientId}`
}

/** Key order does not matter: jsonb stores an object's keys in its own order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    )
  return value
}

/** Whether stored documents show exactly these figures (both documents rendered, none changed since). */
export function documentsShow(docs: readonly { figures: unknown }[], figures: unknown) {
  const expected = JSON.stringify(canonical(figures))
  return docs.length >= 2 && docs.every((d) => JSON.stringify(canonical(d.figures)) === expected)
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * Stores an amendment's rendered documents (unless already signed) in one transaction. The figures are stored
 * with them; signing compares them with the day's, so a client never signs figures that are no longer true.
 */
export async function storeDocuments(
  tx: Tx,
  target: { loanId: number; clientId: number; subject: 'extension' | 'schedule'; subjectId: number },
  files: Record<string, Uint8Array>,
  figures: unknown,
  now: Date,
) {
  for (const [type, content] of Object.entries(files)) {
    const values = {
      ...target,
      type,
      content,
      sha256: sha256(content),
      size: content.byteLength,
      figures,
      renderedAt: now,
      signedAt: null,
    }
    await tx
      .insert(amendmentDocument)
      .values(values)
      .onConflictDoUpdate({
        target: [amendmentDocument.subject, amendmentDocument.subjectId, amendmentDocument.type],
        set: values,
      })
  }
}

/** The figures an extension's documents show, from the chosen row and the loan today. */
async function extensionFigures(
  db: DbOrTx,
  row: LoanRow,
  ext: ExtensionRow,
  today: string,
  terms: ServicingTerms,
): Promise<Omit<ExtensionDocumentInput, 'borrower' | 'renderedAt'>> {
  const { facts, balances } = await loanSnapshot(db, row, today)
  const room = legalRoom(facts)
  const term = ext.term ?? terms.extensions[ext.type as ExtensionType].term
  return {
    loanNumber: loanNumberOf(row.id),
    type: ext.type as ExtensionType,
    term,
    fee: ext.fee ?? 0,
    principalBasis: ext.principalBasis ?? facts.principalOutstanding,
    principal: row.principal,
    dueDateBefore: row.dueDate,
    dueDateAfter: addDays(row.dueDate, term),
    outstanding: outstandingOf(balances),
    extensionNumber: facts.extensionsTaken + 1,
    maxCount: terms.extensions.maxCount,
    legalRoomAfter: Math.max(0, room - (ext.fee ?? 0)),
    payableUntil: ext.payableUntil ?? today,
  }
}

/** Without a code: renders the extension agreement and its disclosure for the application and stores them. */
export async function prepareExtensionSignature(
  deps: ServicingDeps,
  clientId: number,
  loanId: number,
  extensionId: number,
  appId: number,
): Promise<AmendmentDocument[]> {
  const db = deps.database.db
  const now = deps.now()
  const open = await ownOpenLoan(db, clientId, loanId)
  const ext = await ownExtension(db, loanId, extensionId)
  const today = await businessToday(db, clientId, now)
  assertChosen(ext, today)
  const app = await liveApplication(db, ext.id)
  if (!app || app.id !== appId) throw notFound('Application')
  if (app.status === 'signed')
    throw new DomainError('conflict', 'alreadySigned', 'This extension is signed; pay its fee.')
  const terms = await servicingTerms(db)
  const figures = await extensionFigures(db, open, ext, today, terms)
  const input: ExtensionDocumentInput = {
    ...figures,
    borrower: await borrowerName(db, clientId),
    renderedAt: now,
  }
  const files = {
    extension_agreement: await renderExtensionAgreement(input),
    disclosure_statement: await renderExtensionDisclosure(input),
  }
  await db.transaction((tx) =>
    storeDocuments(tx, { loanId, clientId, subject: 'extension', subjectId: appId }, files, figures, now),
  )
  return (await documentsOf(db, 'extension', appId)).map(documentView)
}

/** With the code (checked by the route): signs the documents; the fee is payable from now on. */
export async function signExtension(
  deps: ServicingDeps,
  clientId: number,
  loanId: number,
  extensionId: number,
  appId: number,
  by: Actor,
): Promise<RolloverApplication> {
  const db = deps.database.db
  const now = deps.now()
  const open = await ownOpenLoan(db, clientId, loanId)
  const terms = await servicingTerms(db)
  await loanTransaction(deps, open.id, by, now, async (tx, locked, today) => {
    await expireExtensionInvoices(tx, locked, today, now)
    const ext = await ownExtension(tx, loanId, extensionId)
    assertChosen(ext, today)
    const app = await liveApplication(tx, ext.id)
    if (!app || app.id !== appId) throw notFound('Application')
    if (app.status === 'signed') return { result: null, event: null }
    const docs = await documentsOf(tx, 'extension', appId)
    const figures = await extensionFigures(tx, locked, ext, today, terms)
    if (!documentsShow(docs, figures))
      throw new DomainError(
        'conflict',
        'documentsChanged',
        'The figures changed since the documents were prepared; ask for the code again to see the new ones.',
      )
    const { facts } = await loanSnapshot(tx, locked, today)
    const breach = extensionCapBreach(
      ext.fee ?? 0,
      facts.principalOutstanding,
      ext.term ?? 0,
      legalRoom(facts),
    )
    if (breach || !isOnTerms(facts.leaf))
      throw notAvailable('This extension can no longer be taken; choose again.')
    await tx
      .update(amendmentDocument)
      .set({ signedAt: now })
      .where(and(eq(amendmentDocument.subject, 'extension'), eq(amendmentDocument.subjectId, appId)))
    await tx
      .update(extensionApplication)
      .set({ status: 'signed', signedAt: now })
      .where(eq(extensionApplication.id, appId))
    await tx.update(loanExtension).set({ signedAt: now }).where(eq(loanExtension.id, ext.id))
    return { result: null, event: null }
  })
  deps.logger.info({ loanId, clientId, extensionId, event: 'extension.signed' }, 'extension signed')
  return applicationView(db, open, extensionId, appId, now)
}

// ---------------------------------------------------------------------------------------------------------
// Paying the fee (called by posting, inside the loan's transaction)

/**
 * When a payment pays a signed extension's fee: the fee's entries (charged and paid at once, so the fee is
 * allocated to itself only), the extension in effect, and the loan's new due date. A payment that pays the whole
 * loan, one smaller than the fee, or a fee that would now break a cap (the principal owed fell since it was
 * chosen) is not an extension payment: answers null and the invoice stays (or is cancelled when it broke a cap).
 */
export async function payExtensionLocked(
  tx: Tx,
  locked: LoanRow,
  payment: { id: number; amount: number },
  payoff: number,
  today: string,
  now: Date,
): Promise<{ entries: NewEntry[]; rest: number; dueDate: string; extensionId: number } | null> {
  if (locked.state !== 'active' || locked.plan !== 'on_terms') return null
  const ext = await payableExtension(tx, locked.id, today)
  if (!ext?.fee || !ext.term) return null
  if (payment.amount < ext.fee || payment.amount >= payoff) return null
  const { facts } = await loanSnapshot(tx, locked, today)
  if (extensionCapBreach(ext.fee, facts.principalOutstanding, ext.term, legalRoom(facts))) {
    await tx
      .update(loanExtension)
      .set({ invoiceStatus: 'cancelled', status: 'expired' })
      .where(eq(loanExtension.id, ext.id))
    await offerExtensionDrafts(tx, locked, now)
    return null
  }
  const dueDate = addDays(locked.dueDate, ext.term)
  await tx
    .update(loanExtension)
    .set({
      status: 'active',
      invoiceStatus: 'paid',
      paidAt: now,
      paymentId: payment.id,
      dueDateBefore: locked.dueDate,
      dueDateAfter: dueDate,
    })
    .where(eq(loanExtension.id, ext.id))
  // The next extension's drafts (the paid one's type is offered again; the other type's draft stays).
  await offerExtensionDrafts(tx, locked, now)
  return {
    entries: [
      {
        kind: 'extension_fee',
        part: 'fees',
        amount: ext.fee,
        paymentId: payment.id,
        memo: `${ext.type} extension`,
      },
      { kind: 'allocation', part: 'fees', amount: -ext.fee, paymentId: payment.id, memo: 'extension_fee' },
    ],
    rest: payment.amount - ext.fee,
    dueDate,
    extensionId: ext.id,
  }
}
