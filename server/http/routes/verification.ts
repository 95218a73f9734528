/**
 * Identity verification (Veriff-style, spec section 7) and bank data (Kontomatik-style). Both talk to a provider
 * (server/providers/), always outside a transaction: the provider is asked first, then the outcome is written as
 * a journey event in one transaction. Bank linking is optional: the client may skip it (docs/decisions/0010).
 */
import { and, count, desc, eq } from 'drizzle-orm'
import * as v from 'valibot'
import { DomainError, invalid, notFound } from '../../../domain/errors'
import type { JourneyEvent } from '../../../domain/journey/client-journey.machine'
import { safeString } from '../../../domain/safe-text'
import { bankDataAttempt, identityDocument, verificationSession } from '../../db/schema-journey'
import { assertJourneyAccepts, JourneyStepMismatch, journeyTransaction } from '../../services/journey/journey'
import { findProfile } from '../../services/journey/registration'
import { ok } from '../envelope'
import { callerOf, clientIdOf, db, deps } from '../request'
import { type AnyRoute, defineRoute } from '../route'

/** Failed bank logins after which linking is refused: the client skips it or uploads a bank statement. */
export const MAX_FAILED_BANK_LOGINS = 5

type SessionRow = typeof verificationSession.$inferSelect
const sessionView = (row: SessionRow) => ({
  id: row.id,
  url: row.url,
  status: row.status,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
  decidedAt: row.decidedAt?.toISOString() ?? null,
})

async function latestSession(clientId: number, dbx: ReturnType<typeof db>) {
  const [row] = await dbx
    .select()
    .from(verificationSession)
    .where(eq(verificationSession.clientId, clientId))
    .orderBy(desc(verificationSession.createdAt))
    .limit(1)
  return row ?? null
}

async function verificationPerson(dbx: ReturnType<typeof db>, clientId: number) {
  const profile = await findProfile(dbx, clientId)
  const [doc] = await dbx.select().from(identityDocument).where(eq(identityDocument.clientId, clientId))
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

async function failedLogins(dbx: Parameters<typeof findProfile>[0], clientId: number) {
  const [row] = await dbx
    .select({ n: count() })
    .from(bankDataAttempt)
    .where(and(eq(bankDataAttempt.clientId, clientId), eq(bankDataAttempt.outcome, 'InvalidCredentials')))
  return row?.n ?? 0
}

const importSchema = v.object({
  bank: v.pipe(
    safeString('error-required'),
    v.nonEmpty('error-required'),
    v.maxLength(64, 'error-wrong-format'),
  ),
  login: v.pipe(
    safeString('error-required'),
    v.nonEmpty('error-required'),
    v.maxLength(128, 'error-wrong-format'),
  ),
  password: v.pipe(
    safeString('error-required'),
    v.nonEmpty('error-required'),
    v.maxLength(128, 'error-wrong-format'),
  ),
})

export const verificationRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/private/client/veriff/session',
    summary: 'During veriff: open an identity-verification session (or answer the open one)',
    tags: ['verification'],
    access: 'client',
    handler: async (c) => {
      const id = clientIdOf(c)
      const { identityVerification, now } = deps(c)
      await assertJourneyAccepts(db(c), id, { type: 'START_VERIFICATION' })
      const open = await latestSession(id, db(c))
      if (open?.status === 'created') return ok(c, sessionView(open))
      const person = await verificationPerson(db(c), id)
      const created = await identityVerification.createSession(person)
      const at = now()
      const change = await journeyTransaction(
        deps(c),
        id,
        { type: 'START_VERIFICATION' },
        callerOf(c),
        at,
        async (tx) => {
          const [row] = await tx
            .insert(verificationSession)
            .values({
              clientId: id,
              provider: identityVerification.name,
              providerRef: created.ref,
              url: created.url,
              status: 'created',
              createdAt: at,
            })
            .returning()
          return row!
        },
      )
      return ok(c, sessionView(change.result), 201)
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/veriff/session',
    summary: "The client's latest identity-verification session",
    tags: ['verification'],
    access: 'client',
    handler: async (c) => {
      const row = await latestSession(clientIdOf(c), db(c))
      if (!row) throw notFound('Verification session')
      return ok(c, sessionView(row))
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/veriff/decision/:id',
    summary:
      'The decision on a session: approved moves to kontomatik, declined to reject_page, resubmission stays',
    tags: ['verification'],
    access: 'client',
    params: v.object({ id: v.pipe(safeString(), v.uuid('Must be a session id.')) }),
    handler: async (c, { params }) => {
      const id = clientIdOf(c)
      const { identityVerification, now } = deps(c)
      const find = async () => {
        const [row] = await db(c)
          .select()
          .from(verificationSession)
          .where(and(eq(verificationSession.id, params.id), eq(verificationSession.clientId, id)))
        return row ?? null
      }
      const session = await find()
      if (!session) throw notFound('Verification session')
      if (session.status !== 'created') return ok(c, sessionView(session))
      const decision = await identityVerification.decision(
        session.providerRef,
        await verificationPerson(db(c), id),
      )
      if (decision.status === 'pending') return ok(c, sessionView(session))
      const at = now()
      try {
        const change = await journeyTransaction(
          deps(c),
          id,
          { type: decisionEvents[decision.status]! },
          callerOf(c),
          at,
          (tx) =>
            tx
              .update(verificationSession)
              .set({ status: decision.status, reason: decision.reason ?? null, decidedAt: at })
              .where(and(eq(verificationSession.id, session.id), eq(verificationSession.status, 'created')))
              .returning()
              .then(([row]) => {
                // Decided by a concurrent call since the read above: roll back, answer what is stored.
                if (!row) throw new JourneyStepMismatch('veriff', 'VERIFICATION_APPROVED')
                return row
              }),
        )
        return ok(c, { ...sessionView(change.result), flow: change.flow })
      } catch (error) {
        if (!(error instanceof JourneyStepMismatch)) throw error
        const stored = await find()
        if (stored && stored.status !== 'created') return ok(c, sessionView(stored))
        throw error
      }
    },
  }),

  defineRoute({
    method: 'get',
    path: '/private/client/kontomatik',
    summary: 'Bank-data state: the banks to link, the linked bank, failed logins',
    tags: ['verification'],
    access: 'client',
    handler: async (c) => {
      const id = clientIdOf(c)
      const [imported] = await db(c)
        .select({ bank: bankDataAttempt.bank })
        .from(bankDataAttempt)
        .where(and(eq(bankDataAttempt.clientId, id), eq(bankDataAttempt.outcome, 'imported')))
        .orderBy(desc(bankDataAttempt.id))
        .limit(1)
      return ok(c, {
        banks: await deps(c).bankData.banks(),
        bank: imported?.bank ?? null,
        failedLogins: await failedLogins(db(c), id),
        maxFailedLogins: MAX_FAILED_BANK_LOGINS,
      })
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/kontomatik/import',
    summary: 'During kontomatik: sign in to a bank through the provider and import the accounts',
    tags: ['verification'],
    access: 'client',
    body: importSchema,
    handler: async (c, { body }) => {
      const id = clientIdOf(c)
      const { bankData, now } = deps(c)
      if (!(await bankData.banks()).some((bank) => bank.code === body.bank))
        throw invalid([{ propertyPath: 'bank', message: 'error-required' }])
      await assertJourneyAccepts(db(c), id, { type: 'BANK_DATA_IMPORTED' })
      if ((await failedLogins(db(c), id)) >= MAX_FAILED_BANK_LOGINS)
        throw new DomainError(
          'rateLimited',
          'tooManyAttempts',
          'Too many failed bank logins: skip this step instead.',
        )
      const result = await bankData.importData(body)
      const at = now()
      const event: JourneyEvent = result.ok ? { type: 'BANK_DATA_IMPORTED' } : { type: 'BANK_LOGIN_FAILED' }
      const change = await journeyTransaction(deps(c), id, event, callerOf(c), at, async (tx) => {
        // Counted again under the journey lock: parallel wrong logins cannot pass the limit together.
        if (!result.ok && (await failedLogins(tx, id)) >= MAX_FAILED_BANK_LOGINS)
          throw new DomainError(
            'rateLimited',
            'tooManyAttempts',
            'Too many failed bank logins: skip this step instead.',
          )
        await tx.insert(bankDataAttempt).values({
          clientId: id,
          bank: body.bank,
          outcome: result.ok ? 'imported' : result.error,
          summary: result.ok ? result.summary : null,
          createdAt: at,
        })
        return failedLogins(tx, id)
      })
      if (result.ok) return ok(c, { bank: body.bank, summary: result.summary, flow: change.flow })
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
    },
  }),

  defineRoute({
    method: 'post',
    path: '/private/client/kontomatik/skip',
    summary: 'During kontomatik: continue without linking a bank (it is optional)',
    tags: ['verification'],
    access: 'client',
    handler: async (c) => {
      const id = clientIdOf(c)
      const at = deps(c).now()
      const change = await journeyTransaction(
        deps(c),
        id,
        { type: 'SKIP_BANK_DATA' },
        callerOf(c),
        at,
        async (tx) => {
          await tx
            .insert(bankDataAttempt)
            .values({ clientId: id, bank: '', outcome: 'skipped', createdAt: at })
        },
      )
      return ok(c, { flow: change.flow })
    },
  }),
]
