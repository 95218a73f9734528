/**
 * The client desk's writes (issue 19, item 3; docs/decisions/0034-client-desk.md): blacklisting, finding the code
 * a client is waiting for so support can send it again, and promises to pay. Each write records its change in
 * the audit trail inside its own transaction (server/services/audit/audit.ts `recordChange`).
 */
import { and, desc, eq, inArray } from 'drizzle-orm'
import type { PromiseBody } from '../../../domain/contract/clients'
import { conflict, invalid, notFound } from '../../../domain/errors'
import { clientStatus } from '../../../domain/journey/routing'
import { addDays, daysBetween } from '../../../domain/pricing/manila-date'
import type { Db, DbOrTx } from '../../db/client'
import { promiseToPay } from '../../db/schema-collection'
import { client, verificationCode } from '../../db/schema-identity'
import { loan } from '../../db/schema-lending'
import { recordChange } from '../audit/audit'
import type { CodePurpose } from '../identity/codes'
import { businessToday } from '../payments/clock'
import { promiseView } from './clients'

/**
 * Puts a client on the blacklist (status 3: the decision engine refuses every application) or takes them off it
 * (status 1). Taking off a client who is not blacklisted changes nothing: a blocked client stays blocked.
 */
export async function setBlacklisted(db: Db, clientId: number, blacklisted: boolean, now: Date) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: client.id, status: client.status })
      .from(client)
      .where(eq(client.id, clientId))
      .for('update')
    if (!row) throw notFound('Client')
    const next = blacklisted
      ? clientStatus.blacklisted
      : row.status === clientStatus.blacklisted
        ? clientStatus.active
        : row.status
    if (next !== row.status) {
      await tx.update(client).set({ status: next, updatedAt: now }).where(eq(client.id, clientId))
      await recordChange(tx, {
        entity: 'client',
        entityId: clientId,
        clientId,
        before: { status: row.status },
        after: { status: next },
      })
    }
    return { id: clientId, status: next, blacklisted: next === clientStatus.blacklisted }
  })
}

/** A code older than this is no longer waited for: the client has moved on or will ask again. */
export const PENDING_CODE_HOURS = 24

export interface PendingCode {
  purpose: CodePurpose
  channel: 'sms' | 'email'
  target: string
  owner: string | undefined
}

/**
 * The code the client is waiting for: the newest code sent to their mobile number or e-mail in the last day,
 * neither used nor replaced. A conflict when there is none (nothing to send again).
 */
export async function pendingCode(
  db: DbOrTx,
  row: { phone: string; email: string },
  now: Date,
): Promise<PendingCode> {
  const [latest] = await db
    .select()
    .from(verificationCode)
    .where(inArray(verificationCode.target, [row.phone, row.email]))
    .orderBy(desc(verificationCode.createdAt), desc(verificationCode.id))
    .limit(1)
  const fresh = latest && now.getTime() - latest.createdAt.getTime() < PENDING_CODE_HOURS * 3_600_000
  if (!latest || !fresh || latest.consumedAt || latest.invalidatedAt)
    throw conflict('noPendingCode', 'The client is not waiting for a code.')
  return {
    purpose: latest.purpose as CodePurpose,
    channel: latest.target.includes('@') ? 'email' : 'sms',
    target: latest.target,
    owner: latest.owner ?? undefined,
  }
}

/** The trail's entry for a code sent again (never the code itself). */
export const recordCodeResent = (db: Db, clientId: number, sent: { purpose: string; channel: string }) =>
  db.transaction((tx) =>
    recordChange(tx, {
      entity: 'verification_code',
      entityId: clientId,
      clientId,
      before: null,
      after: sent,
    }),
  )

/** How far ahead a promise may be dated. */
export const PROMISE_MAX_DAYS = 90

const OPEN_STATES = ['active', 'on_hold']

export async function recordPromise(db: Db, clientId: number, body: PromiseBody, userId: number, now: Date) {
  const today = await businessToday(db, clientId, now)
  let ahead: number
  try {
    ahead = daysBetween(today, body.promisedOn)
  } catch {
    throw invalid([{ propertyPath: 'promisedOn', message: 'No such date.' }])
  }
  if (ahead < 0) throw invalid([{ propertyPath: 'promisedOn', message: 'The date is in the past.' }])
  if (ahead > PROMISE_MAX_DAYS)
    throw invalid([
      {
        propertyPath: 'promisedOn',
        message: `At most ${PROMISE_MAX_DAYS} days ahead (${addDays(today, PROMISE_MAX_DAYS)}).`,
      },
    ])
  return db.transaction(async (tx) => {
    const [owner] = await tx.select({ id: client.id }).from(client).where(eq(client.id, clientId))
    if (!owner) throw notFound('Client')
    const [target] = await tx
      .select({ id: loan.id })
      .from(loan)
      .where(
        and(
          eq(loan.clientId, clientId),
          inArray(loan.state, OPEN_STATES),
          body.loanId === undefined ? undefined : eq(loan.id, body.loanId),
        ),
      )
      .orderBy(desc(loan.id))
      .limit(1)
    if (!target)
      throw body.loanId === undefined
        ? conflict('noOpenLoan', 'The client has no open loan to promise a payment for.')
        : invalid([{ propertyPath: 'loanId', message: 'Not an open loan of this client.' }])
    const [row] = await tx
      .insert(promiseToPay)
      .values({
        clientId,
        loanId: target.id,
        amount: body.amount,
        promisedOn: body.promisedOn,
        note: body.note || null,
        recordedBy: userId,
        createdAt: now,
      })
      .returning()
    const view = promiseView(row!)
    await recordChange(tx, {
      entity: 'promise_to_pay',
      entityId: view.id,
      clientId,
      before: null,
      after: view,
    })
    return view
  })
}
