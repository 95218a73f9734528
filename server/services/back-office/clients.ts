/**
 * The client desk's reads (issue 19, item 3; docs/decisions/0034-client-desk.md): the search and one client's
 * file. Every list is bounded (a newest N or a page), so a client with years of history still answers quickly.
 *
 * The search reads one term and tries it as every key it could be, at once: a mobile number in any of the forms
 * people type it (0917…, +63917…, 63917…, 917…), an e-mail, a payment reference (computed from the client id, so
 * it is decoded, not looked up), a loan number (L00000012) or an application or loan id (digits), and a name
 * (each word a prefix of the first or last name, any case). Each of those is an indexed read: the
 * phone and e-mail unique indexes, the primary keys, and lower(name) text_pattern_ops indexes (migration 0018).
 */
import { and, asc, count, desc, eq, getTableColumns, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { maskIdNumber } from '../../../domain/back-office/masking'
import {
  clientIdOfReference,
  loanIdOfNumber,
  loanNumberOf,
  paymentReferenceOf,
} from '../../../domain/payments/reference'
import type { DbOrTx } from '../../db/client'
import { collectionContact, promiseToPay } from '../../db/schema-collection'
import { client, outboxMessage, singleLinkToken } from '../../db/schema-identity'
import {
  clientJourney,
  clientProfile,
  identityDocument,
  stateTransition,
  uploadedFile,
  verificationSession,
} from '../../db/schema-journey'
import { application, applicationDecision, loan, loanDocument } from '../../db/schema-lending'
import { loanLedgerEntry, payment } from '../../db/schema-payments'
import {
  amendmentDocument,
  loanExtension,
  paymentSchedule,
  scheduleInstalment,
} from '../../db/schema-servicing'
import { readStored } from '../journey/uploads'

export interface PageQuery {
  page: number
  perPage: number
}

const offsetOf = (q: PageQuery) => (q.page - 1) * q.perPage
const iso = (at: Date | null) => (at ? at.toISOString() : null)

/** A mobile number as stored (09XXXXXXXXX), from 0917 123 4567, +63 917-123-4567, 639171234567 or 9171234567. */
export function phoneOf(term: string): string | null {
  const digits = term.replace(/[\s\-().]/g, '')
  const match = /^(?:\+?63|0)?(9\d{9})$/.exec(digits)
  return match ? `0${match[1]}` : null
}

/** LIKE's own characters taken literally. */
const literal = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`)

/** The keys a search term could be, each tried (an empty list: the term can match nobody). */
export interface SearchKeys {
  phone: string | null
  email: string | null
  clientId: number | null
  loanId: number | null
  applicationId: number | null
  /** Lower-cased words, each a name prefix. */
  words: string[]
}

export function keysOf(term: string): SearchKeys {
  const trimmed = term.trim()
  const email = trimmed.includes('@') ? trimmed.toLowerCase() : null
  const digits = /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : null
  const words = email
    ? []
    : trimmed
        .toLowerCase()
        .split(/\s+/)
        .filter((word) => /\p{L}/u.test(word))
        .slice(0, 4)
  return {
    phone: phoneOf(trimmed),
    email,
    clientId: clientIdOfReference(trimmed),
    loanId: loanIdOfNumber(trimmed) ?? (digits && digits > 0 ? digits : null),
    applicationId: /^A\d{1,15}$/i.test(trimmed) ? Number(trimmed.slice(1)) || null : digits || null,
    words,
  }
}

/** A word as a prefix of the first or last name: each side an index read (migration 0018). */
const nameWord = (word: string) => {
  const prefix = `${literal(word)}%`
  return sql`(lower(${clientProfile.firstName}) like ${prefix} or lower(${clientProfile.lastName}) like ${prefix})`
}

/**
 * The ids of the clients a term can mean, as one UNION of indexed reads (a unique index, a primary key, a name
 * prefix index each), which the search then joins by primary key: an OR over the joined tables would make
 * PostgreSQL scan every client. Null when the term can match nobody.
 */
function matchingIds(term: string): SQL | null {
  const keys = keysOf(term)
  const parts: SQL[] = []
  if (keys.phone) parts.push(sql`select ${client.id} from ${client} where ${client.phone} = ${keys.phone}`)
  if (keys.email) parts.push(sql`select ${client.id} from ${client} where ${client.email} = ${keys.email}`)
  if (keys.clientId) parts.push(sql`select ${keys.clientId}::bigint`)
  if (keys.loanId && Number.isSafeInteger(keys.loanId))
    parts.push(sql`select ${loan.clientId} from ${loan} where ${loan.id} = ${keys.loanId}`)
  if (keys.applicationId && Number.isSafeInteger(keys.applicationId))
    parts.push(
      sql`select ${application.clientId} from ${application} where ${application.id} = ${keys.applicationId}`,
    )
  if (keys.words.length) {
    parts.push(
      sql`select ${clientProfile.clientId} from ${clientProfile} where ${sql.join(keys.words.map(nameWord), sql` and `)}`,
    )
    // "dela cruz": a last name of several words, as a whole.
    if (keys.words.length > 1)
      parts.push(
        sql`select ${clientProfile.clientId} from ${clientProfile} where lower(${clientProfile.lastName}) like ${`${literal(keys.words.join(' '))}%`}`,
      )
  }
  return parts.length ? sql.join(parts, sql` union `) : null
}

const nameOf = (first: string | null, last: string | null, signUpFirst: string | null) =>
  [first ?? signUpFirst, last].filter(Boolean).join(' ') || null

export async function searchClients(db: DbOrTx, term: string, q: PageQuery) {
  const ids = term ? matchingIds(term) : undefined
  if (ids === null) return { items: [], total: 0 }
  const where = ids ? inArray(client.id, sql`(${ids})`) : undefined
  const [total] = await db
    .select({ n: count() })
    .from(client)
    .leftJoin(clientProfile, eq(clientProfile.clientId, client.id))
    .where(where)
  const rows = await db
    .select({
      id: client.id,
      phone: client.phone,
      email: client.email,
      status: client.status,
      signUpFirst: client.firstName,
      firstName: clientProfile.firstName,
      lastName: clientProfile.lastName,
      step: clientJourney.step,
      createdAt: client.createdAt,
    })
    .from(client)
    .leftJoin(clientProfile, eq(clientProfile.clientId, client.id))
    .leftJoin(clientJourney, eq(clientJourney.clientId, client.id))
    .where(where)
    .orderBy(desc(client.id))
    .limit(q.perPage)
    .offset(offsetOf(q))
  return {
    total: total?.n ?? 0,
    items: rows.map((r) => ({
      id: r.id,
      name: nameOf(r.firstName, r.lastName, r.signUpFirst),
      phone: r.phone,
      email: r.email,
      status: r.status,
      paymentReference: paymentReferenceOf(r.id),
      step: r.step,
      createdAt: r.createdAt.toISOString(),
    })),
  }
}

export type ClientRow = typeof client.$inferSelect

export async function clientRow(db: DbOrTx, id: number): Promise<ClientRow | null> {
  const [row] = await db.select().from(client).where(eq(client.id, id))
  return row ?? null
}

export const DESK_APPLICATIONS = 20
export const DESK_DOCUMENTS = 20
export const DESK_LINKS = 10
export const DESK_PROMISES = 20
export const DESK_CHECKS = 5
export const DESK_UPLOADS = 40

export async function clientDesk(db: DbOrTx, row: ClientRow) {
  const [profile] = await db.select().from(clientProfile).where(eq(clientProfile.clientId, row.id))
  const [journey] = await db
    .select({ step: clientJourney.step })
    .from(clientJourney)
    .where(eq(clientJourney.clientId, row.id))
  const apps = await db
    .select()
    .from(application)
    .where(eq(application.clientId, row.id))
    .orderBy(desc(application.id))
    .limit(DESK_APPLICATIONS)
  const decisions = apps.length
    ? await db
        .select()
        .from(applicationDecision)
        .where(
          inArray(
            applicationDecision.applicationId,
            apps.map((a) => a.id),
          ),
        )
        .orderBy(desc(applicationDecision.id))
    : []
  const loanDocs = await db
    .select({
      id: loanDocument.id,
      type: loanDocument.type,
      ownerId: loanDocument.applicationId,
      size: loanDocument.size,
      renderedAt: loanDocument.renderedAt,
      signedAt: loanDocument.signedAt,
    })
    .from(loanDocument)
    .where(eq(loanDocument.clientId, row.id))
    .orderBy(desc(loanDocument.renderedAt))
    .limit(DESK_DOCUMENTS)
  const amendmentDocs = await db
    .select({
      id: amendmentDocument.id,
      type: amendmentDocument.type,
      ownerId: amendmentDocument.loanId,
      size: amendmentDocument.size,
      renderedAt: amendmentDocument.renderedAt,
      signedAt: amendmentDocument.signedAt,
    })
    .from(amendmentDocument)
    .where(eq(amendmentDocument.clientId, row.id))
    .orderBy(desc(amendmentDocument.id))
    .limit(DESK_DOCUMENTS)
  const links = await db
    .select()
    .from(singleLinkToken)
    .where(eq(singleLinkToken.clientId, row.id))
    .orderBy(desc(singleLinkToken.id))
    .limit(DESK_LINKS)
  const promises = await db
    .select()
    .from(promiseToPay)
    .where(eq(promiseToPay.clientId, row.id))
    .orderBy(desc(promiseToPay.id))
    .limit(DESK_PROMISES)
  const identity = await clientIdentity(db, row.id)
  const documentView =
    (kind: 'loan' | 'amendment') => (d: (typeof loanDocs)[number] | (typeof amendmentDocs)[number]) => ({
      kind,
      id: String(d.id),
      type: d.type,
      ownerId: d.ownerId,
      size: d.size,
      renderedAt: d.renderedAt.toISOString(),
      signedAt: iso(d.signedAt),
    })
  return {
    profile: {
      id: row.id,
      phone: row.phone,
      email: row.email,
      status: row.status,
      blocked: row.status === 2,
      blacklisted: row.status === 3,
      language: row.language,
      firstName: profile?.firstName ?? row.firstName,
      middleName: profile?.middleName ?? null,
      lastName: profile?.lastName ?? null,
      birthDate: profile?.birthDate ?? null,
      phoneVerifiedAt: iso(row.phoneVerifiedAt),
      emailVerifiedAt: iso(row.emailVerifiedAt),
      createdAt: row.createdAt.toISOString(),
      paymentReference: paymentReferenceOf(row.id),
      step: journey?.step ?? null,
    },
    applications: apps.map((a) => ({
      id: a.id,
      status: a.status,
      desiredAmount: a.desiredAmount,
      desiredTerm: a.desiredTerm,
      principalAmount: a.principalAmount,
      term: a.term,
      clientKind: a.clientKind,
      createdAt: a.createdAt.toISOString(),
      signedAt: iso(a.signedAt),
      decisions: decisions
        .filter((d) => d.applicationId === a.id)
        .map((d) => ({
          id: d.id,
          source: d.source,
          outcome: d.outcome,
          applicationVersion: d.applicationVersion,
          reasons: d.reasons,
          offeredAmount: d.offeredAmount,
          decidedBy: d.decidedBy,
          createdAt: d.createdAt.toISOString(),
        })),
    })),
    documents: [...loanDocs.map(documentView('loan')), ...amendmentDocs.map(documentView('amendment'))],
    identity,
    singleLinks: links.map((l) => ({
      id: l.id,
      issuedBy: l.issuedBy,
      createdAt: l.createdAt.toISOString(),
      expiresAt: l.expiresAt.toISOString(),
      consumedAt: iso(l.consumedAt),
    })),
    promises: promises.map(promiseView),
  }
}

/**
 * What the client gave at registration: the ID entered (its number masked), the identity checks and the files
 * uploaded that still have their bytes (a replaced or deleted ID photo keeps only its row).
 */
async function clientIdentity(db: DbOrTx, clientId: number) {
  const [document] = await db.select().from(identityDocument).where(eq(identityDocument.clientId, clientId))
  const checks = await db
    .select()
    .from(verificationSession)
    .where(eq(verificationSession.clientId, clientId))
    .orderBy(desc(verificationSession.createdAt), desc(verificationSession.id))
    .limit(DESK_CHECKS)
  const uploads = await db
    .select({
      id: uploadedFile.id,
      category: uploadedFile.category,
      kind: uploadedFile.kind,
      mime: uploadedFile.mime,
      size: uploadedFile.size,
      capturedAt: uploadedFile.capturedAt,
      createdAt: uploadedFile.createdAt,
    })
    .from(uploadedFile)
    .where(and(eq(uploadedFile.clientId, clientId), isNull(uploadedFile.deletedAt)))
    .orderBy(desc(uploadedFile.createdAt), asc(uploadedFile.id))
    .limit(DESK_UPLOADS)
  return {
    document: document
      ? {
          documentType: document.documentType,
          documentNumber: maskIdNumber(document.documentNumber),
          expiryDate: document.expiryDate,
          finishedAt: document.finishedAt.toISOString(),
        }
      : null,
    checks: checks.map((x) => ({
      id: x.id,
      provider: x.provider,
      status: x.status,
      reason: x.reason,
      createdAt: x.createdAt.toISOString(),
      decidedAt: iso(x.decidedAt),
    })),
    uploads: uploads.map((u) => ({
      ...u,
      capturedAt: iso(u.capturedAt),
      createdAt: u.createdAt.toISOString(),
    })),
  }
}

export const promiseView = (p: typeof promiseToPay.$inferSelect) => ({
  id: p.id,
  loanId: p.loanId,
  amount: p.amount,
  promisedOn: p.promisedOn,
  note: p.note,
  recordedBy: p.recordedBy,
  createdAt: p.createdAt.toISOString(),
})

/** Every step of the client's journey and loans, oldest first (the state_transition_client_idx index). */
export async function clientTimeline(db: DbOrTx, clientId: number, q: PageQuery) {
  const [total] = await db
    .select({ n: count() })
    .from(stateTransition)
    .where(eq(stateTransition.clientId, clientId))
  const rows = await db
    .select()
    .from(stateTransition)
    .where(eq(stateTransition.clientId, clientId))
    .orderBy(asc(stateTransition.id))
    .limit(q.perPage)
    .offset(offsetOf(q))
  return {
    total: total?.n ?? 0,
    items: rows.map((r) => ({
      id: r.id,
      machine: r.machine,
      subjectId: r.subjectId,
      fromState: r.fromState,
      toState: r.toState,
      event: r.event,
      call: r.call,
      actorKind: r.actorKind,
      actorId: r.actorId,
      at: r.at.toISOString(),
    })),
  }
}

export const DESK_LOANS = 10
export const DESK_LEDGER = 300
export const DESK_PAYMENTS = 50
export const DESK_EXTENSIONS = 20
export const DESK_SCHEDULES = 10

/** A row's rank among its loan's rows, newest (highest id) first: the newest N per loan in one read. */
const newestFirst = (loanId: AnyPgColumn, id: AnyPgColumn) =>
  sql<number>`row_number() over (partition by ${loanId} order by ${id} desc)`.as('rank')

/** Rows grouped by their loan, in the order read. */
function byLoan<T extends { loanId: number }>(rows: readonly T[]) {
  const groups = new Map<number, T[]>()
  for (const row of rows) {
    const group = groups.get(row.loanId)
    if (group) group.push(row)
    else groups.set(row.loanId, [row])
  }
  return (loanId: number) => groups.get(loanId) ?? []
}

/**
 * The newest loans with their ledgers, extensions and schedules: one read per kind of row for all the loans
 * together (each bounded per loan by a window rank), not one per loan.
 */
export async function clientLoans(db: DbOrTx, clientId: number) {
  const loans = await db
    .select()
    .from(loan)
    .where(eq(loan.clientId, clientId))
    .orderBy(desc(loan.id))
    .limit(DESK_LOANS)
  const loanIds = loans.map((l) => l.id)
  const ledgerRanked = db
    .select({
      ...getTableColumns(loanLedgerEntry),
      rank: newestFirst(loanLedgerEntry.loanId, loanLedgerEntry.id),
    })
    .from(loanLedgerEntry)
    .where(inArray(loanLedgerEntry.loanId, loanIds))
    .as('ledger_ranked')
  const extensionsRanked = db
    .select({ ...getTableColumns(loanExtension), rank: newestFirst(loanExtension.loanId, loanExtension.id) })
    .from(loanExtension)
    .where(inArray(loanExtension.loanId, loanIds))
    .as('extension_ranked')
  const schedulesRanked = db
    .select({
      ...getTableColumns(paymentSchedule),
      rank: newestFirst(paymentSchedule.loanId, paymentSchedule.id),
    })
    .from(paymentSchedule)
    .where(inArray(paymentSchedule.loanId, loanIds))
    .as('schedule_ranked')
  const [ledgerRows, extensionRows, scheduleRows] = loanIds.length
    ? [
        await db
          .select()
          .from(ledgerRanked)
          .where(lte(ledgerRanked.rank, DESK_LEDGER))
          .orderBy(asc(ledgerRanked.id)),
        await db
          .select()
          .from(extensionsRanked)
          .where(lte(extensionsRanked.rank, DESK_EXTENSIONS))
          .orderBy(desc(extensionsRanked.id)),
        await db
          .select()
          .from(schedulesRanked)
          .where(lte(schedulesRanked.rank, DESK_SCHEDULES))
          .orderBy(desc(schedulesRanked.id)),
      ]
    : [[], [], []]
  const instalments = scheduleRows.length
    ? await db
        .select()
        .from(scheduleInstalment)
        .where(
          inArray(
            scheduleInstalment.scheduleId,
            scheduleRows.map((s) => s.id),
          ),
        )
        .orderBy(asc(scheduleInstalment.seq))
    : []
  const ledgerOf = byLoan(ledgerRows)
  const extensionsOf = byLoan(extensionRows)
  const schedulesOf = byLoan(scheduleRows)
  const out = loans.map((l) => ({
    id: l.id,
    loanNumber: loanNumberOf(l.id),
    applicationId: l.applicationId,
    status: l.status,
    state: l.state,
    plan: l.plan,
    standing: l.standing,
    principal: l.principal,
    interest: l.interest,
    fees: l.fees,
    total: l.total,
    term: l.term,
    dueDate: l.dueDate,
    startDate: l.startDate,
    createdAt: l.createdAt.toISOString(),
    closedAt: iso(l.closedAt),
    ledger: ledgerOf(l.id).map((e) => ({
      id: e.id,
      kind: e.kind,
      part: e.part,
      amount: e.amount,
      paymentId: e.paymentId,
      reversesId: e.reversesId,
      businessDate: e.businessDate,
      at: e.at.toISOString(),
      memo: e.memo,
    })),
    extensions: extensionsOf(l.id).map((x) => ({
      id: x.id,
      type: x.type,
      status: x.status,
      invoiceStatus: x.invoiceStatus,
      term: x.term,
      fee: x.fee,
      dueDateBefore: x.dueDateBefore,
      dueDateAfter: x.dueDateAfter,
      createdAt: x.createdAt.toISOString(),
      paidAt: iso(x.paidAt),
    })),
    schedules: schedulesOf(l.id).map((s) => ({
      id: s.id,
      type: s.type,
      status: s.status,
      total: s.total,
      offeredAt: s.offeredAt.toISOString(),
      agreedAt: iso(s.agreedAt),
      instalments: instalments
        .filter((i) => i.scheduleId === s.id)
        .map((i) => ({
          seq: i.seq,
          dueDate: i.dueDate,
          amount: i.amount,
          paidAmount: i.paidAmount,
          paidAt: iso(i.paidAt),
        })),
    })),
  }))
  const payments = await db
    .select()
    .from(payment)
    .where(eq(payment.clientId, clientId))
    .orderBy(desc(payment.id))
    .limit(DESK_PAYMENTS)
  return {
    loans: out,
    payments: payments.map((p) => ({
      id: p.id,
      loanId: p.loanId,
      provider: p.provider,
      channel: p.channel,
      amount: p.amount,
      status: p.status,
      source: p.source,
      paidAt: p.paidAt.toISOString(),
      postedAt: iso(p.postedAt),
      reversedAt: iso(p.reversedAt),
    })),
  }
}

/** Messages to the client's mobile number or e-mail, newest first (the outbox_recipient_idx index). */
export async function clientMessages(db: DbOrTx, row: ClientRow, q: PageQuery) {
  const where = inArray(outboxMessage.recipient, [row.phone, row.email])
  const [total] = await db.select({ n: count() }).from(outboxMessage).where(where)
  const rows = await db
    .select()
    .from(outboxMessage)
    .where(where)
    .orderBy(desc(outboxMessage.createdAt), desc(outboxMessage.id))
    .limit(q.perPage)
    .offset(offsetOf(q))
  return {
    total: total?.n ?? 0,
    items: rows.map((m) => ({
      id: m.id,
      channel: m.channel,
      recipient: m.recipient,
      subject: m.subject,
      body: m.body,
      purpose: m.purpose,
      status: m.status,
      createdAt: m.createdAt.toISOString(),
    })),
  }
}

export async function clientContacts(db: DbOrTx, clientId: number, q: PageQuery) {
  const where = eq(collectionContact.clientId, clientId)
  const [total] = await db.select({ n: count() }).from(collectionContact).where(where)
  const rows = await db
    .select()
    .from(collectionContact)
    .where(where)
    .orderBy(desc(collectionContact.id))
    .limit(q.perPage)
    .offset(offsetOf(q))
  return {
    total: total?.n ?? 0,
    items: rows.map((r) => ({
      id: r.id,
      loanId: r.loanId,
      kind: r.kind,
      channel: r.channel,
      dueDate: r.dueDate,
      scheduledAt: r.scheduledAt.toISOString(),
      status: r.status,
      reason: r.reason,
      sentAt: iso(r.sentAt),
    })),
  }
}

/** One of the client's documents with its bytes, or null (another client's, or none). */
export async function clientDocument(
  db: DbOrTx,
  clientId: number,
  kind: 'loan' | 'amendment',
  documentId: string,
) {
  if (kind === 'loan') {
    if (!/^[0-9a-f-]{36}$/.test(documentId)) return null
    const [doc] = await db
      .select({ content: loanDocument.content, sha256: loanDocument.sha256, type: loanDocument.type })
      .from(loanDocument)
      .where(and(eq(loanDocument.id, documentId), eq(loanDocument.clientId, clientId)))
    return doc ?? null
  }
  if (!/^\d{1,16}$/.test(documentId) || !Number.isSafeInteger(Number(documentId))) return null
  const [doc] = await db
    .select({
      content: amendmentDocument.content,
      sha256: amendmentDocument.sha256,
      type: amendmentDocument.type,
    })
    .from(amendmentDocument)
    .where(and(eq(amendmentDocument.id, Number(documentId)), eq(amendmentDocument.clientId, clientId)))
  return doc ?? null
}

/**
 * One of the client's uploaded files that still has its bytes, with them, or null: another client's, a replaced
 * or deleted photo, or bytes no longer on disk (a 404 either way, never a 500).
 */
export async function clientUpload(db: DbOrTx, uploadsDir: string, clientId: number, fileId: string) {
  const [file] = await db
    .select({
      id: uploadedFile.id,
      category: uploadedFile.category,
      kind: uploadedFile.kind,
      mime: uploadedFile.mime,
      size: uploadedFile.size,
      storageName: uploadedFile.storageName,
    })
    .from(uploadedFile)
    .where(
      and(eq(uploadedFile.id, fileId), eq(uploadedFile.clientId, clientId), isNull(uploadedFile.deletedAt)),
    )
  if (!file) return null
  const bytes = await readStored(uploadsDir, file.storageName).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null
    throw error
  })
  if (!bytes) return null
  const { storageName: _, ...about } = file
  return { ...about, bytes }
}
