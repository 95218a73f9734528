/**
 * Identity verification (Veriff-style) and bank data (Kontomatik-style). Both talk to a provider
 * (server/providers/), always outside a transaction: the provider is asked first, then the outcome is written as
 * a journey event in one transaction. Bank linking is optional: the client may skip it (docs/decisions/0010).
 */
import { and, count, desc, eq } from 'drizzle-orm'
import type { BankDataState, VerificationSession } from '../../../domain/contract/verification'
import { DomainError, invalid, notFound } from '../../../domain/errors'
import type { BankDataImport } from '../../../domain/journey/bank-data'
import type { JourneyEvent } from '../../../domain/journey/client-journey.machine'
import type { DbOrTx } from '../../db/client'
import { bankDataAttempt, identityDocument, verificationSession } from '../../db/schema-journey'
import type { AppDeps } from '../../deps'
import { enterVerification, leaveVerification } from '../identity/client-status'
import {
  type Actor,
  assertJourneyAccepts,
  type JourneyChange,
  JourneyStepMismatch,
  journeyTransaction,
} from './journey'
import { findProfile } from './registration'

/** Failed bank logins after which linking is refused: the client skips it or uploads a bank statement. */
export const MAX_FAILED_BANK_LOGINS = 5

type Deps = Pick<AppDeps, 'database' | 'logger' | 'now' | 'identityVerification' | 'bankData'>
type Flow = JourneyChange<unknown>['flow']

type SessionRow = typeof verificationSession.$inferSelect
const sessionView = (row: SessionRow): VerificationSession => ({
  id: row.id,
  url: row.url,
  status: row.status as VerificationSession['status'],
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
  decidedAt: row.decidedAt?.toISOString() ?? null,
})

async function latestSession(db: DbOrTx, clientId: number) {
  const [row] = await db
    .select()
    .from(verificationSession)
    .where(eq(verificationSession.clientId, clientId))
    .orderBy(desc(verificationSession.createdAt))
    .limit(1)
  return row ?? null
}

async function ownSession(db: DbOrTx, clientId: number, id: string) {
  const [row] = await db
    .select()
    .from(verificationSession)
    .where(and(eq(verificationSession.id, id), eq(verificationSession.clientId, clientId)))
  return row ?? null
}

async function verificationPerson(db: DbOrTx, clientId: number) {
  const profile = await findProfile(db, clientId)
  const [doc] = await db.select().from(identityDocument).where(eq(identityDocument.clientId, clientId))
  // The machine reaches veriff only through details and the document: a missing row is a broken invariant.
  if (!profile || !doc) throw new Error(`client ${clientId} reached veriff without details or a document`)
  return {
    clientId,
    firstName: profile.firstName,
    lastName: profile.lastName,
    documentType: doc.documentType,
    documentNumber: doc.documentNumber,
  }
}

const decisionEvents: Record<
  string,
  'VERIFICATION_APPROVED' | 'VERIFICATION_DECLINED' | 'VERIFICATION_RESUBMISSION'
> = {
  approved: 'VERIFICATION_APPROVED',
  declined: 'VERIFICATION_DECLINED',
  resubmission_requested: 'VERIFICATION_RESUBMISSION',
}

/** The client's latest session; 404 when there is none yet. */
export async function readLatestSession(db: DbOrTx, clientId: number): Promise<VerificationSession> {
  const row = await latestSession(db, clientId)
  if (!row) throw notFound('Verification session')
  return sessionView(row)
}

/**
 * Opens a session at the provider and records it (START_VERIFICATION), or answers the one still open.
 * `created` is false when the open one is answered.
 */
export async function openSession(deps: Deps, clientId: number, by: Actor) {
  const db = deps.database.db
  await assertJourneyAccepts(db, clientId, { type: 'START_VERIFICATION' })
  const open = await latestSession(db, clientId)
  if (open?.status === 'created') return { session: sessionView(open), created: false }
  const person = await verificationPerson(db, clientId)
  const created = await deps.identityVerification.createSession(person)
  const at = deps.now()
  const change = await journeyTransaction(
    deps,
    clientId,
    { type: 'START_VERIFICATION' },
    by,
    at,
    async (tx) => {
      // The client is in verification (status 4) while the provider has the open session.
      await enterVerification(tx, clientId, at)
      const [row] = await tx
        .insert(verificationSession)
        .values({
          clientId,
          provider: deps.identityVerification.name,
          providerRef: created.ref,
          url: created.url,
          status: 'created',
          createdAt: at,
        })
        .returning()
      return row!
    },
  )
  return { session: sessionView(change.result), created: true }
}

/**
 * The decision on one of the client's sessions: a session decided before is answered as stored; an open one
 * asks the provider, and a decision moves the journey (approved, declined, resubmission) with the flow answered.
 */
export async function decideSession(
  deps: Deps,
  clientId: number,
  sessionId: string,
  by: Actor,
): Promise<VerificationSession & { flow?: Flow }> {
  const db = deps.database.db
  const session = await ownSession(db, clientId, sessionId)
  if (!session) throw notFound('Verification session')
  if (session.status !== 'created') return sessionView(session)
  const decision = await deps.identityVerification.decision(
    session.providerRef,
    await verificationPerson(db, clientId),
  )
  if (decision.status === 'pending') return sessionView(session)
  const at = deps.now()
  try {
    const change = await journeyTransaction(
      deps,
      clientId,
      { type: decisionEvents[decision.status]! },
      by,
      at,
      async (tx) => {
        const [row] = await tx
          .update(verificationSession)
          .set({ status: decision.status, reason: decision.reason ?? null, decidedAt: at })
          .where(and(eq(verificationSession.id, session.id), eq(verificationSession.status, 'created')))
          .returning()
        // Decided by a concurrent call since the read above: roll back, answer what is stored.
        if (!row) throw new JourneyStepMismatch('veriff', 'VERIFICATION_APPROVED')
        // Approved or declined ends the verification; a resubmission keeps the client in it (status 4).
        if (decision.status !== 'resubmission_requested') await leaveVerification(tx, clientId, at)
        return row
      },
    )
    return { ...sessionView(change.result), flow: change.flow }
  } catch (error) {
    if (!(error instanceof JourneyStepMismatch)) throw error
    const stored = await ownSession(db, clientId, session.id)
    if (stored && stored.status !== 'created') return sessionView(stored)
    throw error
  }
}

async function failedLogins(db: DbOrTx, clientId: number) {
  const [row] = await db
    .select({ n: count() })
    .from(bankDataAttempt)
    .where(and(eq(bankDataAttempt.clientId, clientId), eq(bankDataAttempt.outcome, 'InvalidCredentials')))
  return row?.n ?? 0
}

const tooManyLogins = () =>
  new DomainError('rateLimited', 'tooManyAttempts', 'Too many failed bank logins: skip this step instead.')

/** The banks to link, the bank linked last (or null) and the failed logins against their limit. */
export async function bankDataState(deps: Deps, clientId: number): Promise<BankDataState> {
  const db = deps.database.db
  const [imported] = await db
    .select({ bank: bankDataAttempt.bank })
    .from(bankDataAttempt)
    .where(and(eq(bankDataAttempt.clientId, clientId), eq(bankDataAttempt.outcome, 'imported')))
    .orderBy(desc(bankDataAttempt.id))
    .limit(1)
  return {
    banks: await deps.bankData.banks(),
    bank: imported?.bank ?? null,
    failedLogins: await failedLogins(db, clientId),
    maxFailedLogins: MAX_FAILED_BANK_LOGINS,
  }
}

/**
 * Signs in to the bank through the provider and records the attempt: an import moves the journey on, a refused
 * login is counted (and refused past the limit), a bank that cannot be reached is a 503 the client may retry.
 */
export async function importBankData(deps: Deps, clientId: number, login: BankDataImport, by: Actor) {
  const db = deps.database.db
  if (!(await deps.bankData.banks()).some((bank) => bank.code === login.bank))
    throw invalid([{ propertyPath: 'bank', message: 'error-required' }])
  await assertJourneyAccepts(db, clientId, { type: 'BANK_DATA_IMPORTED' })
  if ((await failedLogins(db, clientId)) >= MAX_FAILED_BANK_LOGINS) throw tooManyLogins()
  const result = await deps.bankData.importData(login)
  const at = deps.now()
  const event: JourneyEvent = result.ok ? { type: 'BANK_DATA_IMPORTED' } : { type: 'BANK_LOGIN_FAILED' }
  const change = await journeyTransaction(deps, clientId, event, by, at, async (tx) => {
    // Counted again under the journey lock: parallel wrong logins cannot pass the limit together.
    if (!result.ok && (await failedLogins(tx, clientId)) >= MAX_FAILED_BANK_LOGINS) throw tooManyLogins()
    await tx.insert(bankDataAttempt).values({
      clientId,
      bank: login.bank,
      outcome: result.ok ? 'imported' : result.error,
      summary: result.ok ? result.summary : null,
      createdAt: at,
    })
    return failedLogins(tx, clientId)
  })
  if (result.ok) return { bank: login.bank, summary: result.summary, flow: change.flow }
  if (result.error === 'ServiceTemporarilyUnavailable')
    throw new DomainError(
      'unavailable',
      'ServiceTemporarilyUnavailable',
      'The bank cannot be reached now. Try later or skip.',
    )
  throw new DomainError(
    'refused',
    'InvalidCredentials',
    `The bank refused the login (${change.result} of ${MAX_FAILED_BANK_LOGINS} failed logins).`,
    [{ propertyPath: 'password', message: 'error-invalid-credentials' }],
  )
}

/** Goes on without a linked bank (SKIP_BANK_DATA); the skip is recorded with the attempts. */
export async function skipBankData(deps: Deps, clientId: number, by: Actor) {
  const at = deps.now()
  const change = await journeyTransaction(deps, clientId, { type: 'SKIP_BANK_DATA' }, by, at, async (tx) => {
    await tx.insert(bankDataAttempt).values({ clientId, bank: '', outcome: 'skipped', createdAt: at })
  })
  return { flow: change.flow }
}
