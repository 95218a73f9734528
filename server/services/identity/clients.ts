/**
 * Client accounts: sign-up with recorded consents, verification marks, login, credential changes, blocking,
 * and the client view the app reads (spec section 3, Client).
 */

import { createHash } from 'node:crypto'
import { eq, or } from 'drizzle-orm'
import type { ClientView } from '../../../domain/contract/identity-answers'
import { isWrongEmailDomain, WRONG_EMAIL_DOMAIN } from '../../../domain/email-domain'
import { DomainError, invalid } from '../../../domain/errors'
import { consentVersions, messageKeys, type SignUp } from '../../../domain/identity'
import { clientStatus } from '../../../domain/journey/routing'
import { CLIENT_BLOCKED } from '../../auth/authenticate'
import { hashPassword } from '../../auth/passwords'
import type { Db, DbOrTx } from '../../db/client'
import { client, consent } from '../../db/schema-identity'
import { CAPTCHA_SAFE_SCORE } from '../../providers/captcha'
import { takeLead } from '../affiliate/leads'
import { activeApplication, lendingFacts } from '../lending/applications'
import { clientSandboxOn } from '../sandbox/mode'
import { hasSoldDebt } from '../servicing/debt-sale'
import { trustedCount } from './devices'
import { checkPasswordThrottled, type Requester } from './login'
import { limitPerAddress } from './throttle'

export type ClientRow = typeof client.$inferSelect

export const CLIENT_ACTIVE = clientStatus.active
// One definition: the access check and the services must agree on what "blocked" is.
export { CLIENT_BLOCKED } from '../../auth/authenticate'

export const emailTaken = () => invalid([{ propertyPath: 'email', message: messageKeys.emailTaken }])
export const phoneTaken = () =>
  invalid([{ propertyPath: 'mobilePhone.number', message: messageKeys.phoneTaken }])

/** The throttle and code-owner name of a client account. */
export const clientAccount = (id: number) => `client:${id}`

export async function isTaken(db: DbOrTx, key: 'email' | 'phone', value: string) {
  const column = key === 'email' ? client.email : client.phone
  const [row] = await db.select({ id: client.id }).from(client).where(eq(column, value))
  return Boolean(row)
}

/** Availability checks per address in 10 minutes: enough for a form, too few to walk a number range. */
export const CHECKS_PER_ADDRESS = 60

/** Whether an e-mail or a number is still free for sign-up, asked from `address` (under its limit). */
export async function isAvailable(
  db: DbOrTx,
  key: 'email' | 'phone',
  value: string,
  address: string,
  now: Date,
) {
  await limitPerAddress(db, 'check', address, CHECKS_PER_ADDRESS, 10, now)
  return !(await isTaken(db, key, value))
}

/** Postgres unique violation on one of the client's unique indexes, mapped to the spec's field messages. */
function uniqueViolation(error: unknown) {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } }
  const cause = e.cause?.code ? e.cause : e
  if (cause.code !== '23505') return null
  if (cause.constraint === 'client_email_uq') return emailTaken()
  if (cause.constraint === 'client_phone_uq') return phoneTaken()
  return null
}

export interface SignedUpClient extends ClientRow {
  /** Whether the sign-up used the affiliate lead it named (false when none was named or it was no longer open). */
  leadLinked: boolean
}

export async function signUp(db: Db, input: SignUp, now: Date): Promise<SignedUpClient> {
  const violations = []
  if (isWrongEmailDomain(input.email)) violations.push({ propertyPath: 'email', message: WRONG_EMAIL_DOMAIN })
  else if (await isTaken(db, 'email', input.email))
    violations.push({ propertyPath: 'email', message: messageKeys.emailTaken })
  if (await isTaken(db, 'phone', input.mobilePhone.number)) {
    violations.push({ propertyPath: 'mobilePhone.number', message: messageKeys.phoneTaken })
  }
  if (violations.length) throw invalid(violations)
  // Hash before the transaction: never hold PGlite's single connection during slow work.
  const passwordHash = await hashPassword(input.password)
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(client)
        .values({
          phone: input.mobilePhone.number,
          email: input.email,
          passwordHash,
          language: input.language,
          campaign: input.campaign ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning()
      await tx.insert(consent).values(
        (['terms', 'privacy', 'marketing'] as const).map((kind) => ({
          clientId: row!.id,
          kind,
          version: consentVersions[kind],
          granted: input.consents[kind] ?? false,
          at: now,
        })),
      )
      // Same transaction: a lead is linked to the client that exists, and only one sign-up can win it.
      const leadLinked = input.leadId ? await takeLead(tx, input.leadId, row!.id, now) : false
      return { ...row!, leadLinked }
    })
  } catch (error) {
    throw uniqueViolation(error) ?? error
  }
}

export async function findClient(db: DbOrTx, id: number) {
  const [row] = await db.select().from(client).where(eq(client.id, id))
  return row ?? null
}

/** A login is a mobile number or an e-mail; both are stored normalised (digits; lower case). */
export const normalizeLogin = (login: string) => login.trim().toLowerCase()

export async function findClientByLogin(db: DbOrTx, login: string) {
  const normalized = normalizeLogin(login)
  const [row] = await db
    .select()
    .from(client)
    .where(or(eq(client.email, normalized), eq(client.phone, normalized)))
  return row ?? null
}

export interface ClientLogin {
  row: ClientRow
  priorFailures: number
  knownDevice: boolean
}

/**
 * Checks a login under the failed-login limits of its requester (server/services/identity/login.ts). The answer
 * never tells whether the account exists; the timing of a missing account matches a wrong password.
 */
export async function authenticateClient(
  db: Db,
  login: string,
  password: string,
  requester: Requester,
  now: Date,
): Promise<ClientLogin> {
  const row = await findClientByLogin(db, login)
  const check = await checkPasswordThrottled(
    db,
    {
      account: row ? clientAccount(row.id) : `login:${normalizeLogin(login)}`,
      requester,
      passwordHash: row?.passwordHash ?? null,
      password,
    },
    now,
  )
  if (!row || !check.ok) {
    throw new DomainError(
      'unauthenticated',
      'invalidCredentials',
      'The mobile number, e-mail or password is not correct.',
      [{ propertyPath: 'password', message: 'error-invalid-credentials' }],
    )
  }
  if (row.status === CLIENT_BLOCKED)
    throw new DomainError('forbidden', 'accountBlocked', 'The account is blocked.')
  return { row, priorFailures: check.priorFailures, knownDevice: check.knownDevice }
}

/** A login after this many recent failures on the account needs the second factor. */
export const RISKY_AFTER_FAILURES = 2

/**
 * Why a client's login needs the second factor (none: it does not): recent failures from this requester, a
 * captcha score that looks automated, or a device the client has not trusted while it trusts another.
 */
export async function loginRisks(db: DbOrTx, login: ClientLogin, captchaScore: number): Promise<string[]> {
  // A device counts as new only once the client has one it trusts: the first device is trusted on use.
  const newDevice = !login.knownDevice && (await trustedCount(db, 'client', login.row.id)) > 0
  return [
    login.priorFailures >= RISKY_AFTER_FAILURES && 'recent_failures',
    captchaScore < CAPTCHA_SAFE_SCORE && 'low_captcha_score',
    newDevice && 'new_device',
  ].filter((reason): reason is string => Boolean(reason))
}

export async function markPhoneVerified(db: DbOrTx, id: number, now: Date) {
  await db.update(client).set({ phoneVerifiedAt: now, updatedAt: now }).where(eq(client.id, id))
}

export async function markEmailVerified(db: DbOrTx, id: number, now: Date) {
  await db.update(client).set({ emailVerifiedAt: now, updatedAt: now }).where(eq(client.id, id))
}

export async function setPassword(db: DbOrTx, id: number, passwordHash: string, now: Date) {
  await db.update(client).set({ passwordHash, updatedAt: now }).where(eq(client.id, id))
}

/** The new number arrives verified: the change was confirmed by a code sent to it. */
export async function setPhone(db: DbOrTx, id: number, phone: string, now: Date) {
  try {
    await db.update(client).set({ phone, phoneVerifiedAt: now, updatedAt: now }).where(eq(client.id, id))
  } catch (error) {
    throw uniqueViolation(error) ?? error
  }
}

export async function setEmail(db: DbOrTx, id: number, email: string, now: Date) {
  try {
    await db.update(client).set({ email, emailVerifiedAt: now, updatedAt: now }).where(eq(client.id, id))
  } catch (error) {
    throw uniqueViolation(error) ?? error
  }
}

export async function setStatus(db: DbOrTx, id: number, status: number, now: Date) {
  const [row] = await db.update(client).set({ status, updatedAt: now }).where(eq(client.id, id)).returning()
  return row ?? null
}

const hashedId = (id: number) => createHash('sha256').update(`hiram-client-${id}`).digest('hex').slice(0, 16)

/**
 * The Client of spec section 3, as the app reads it (GET /private/client). `sandboxDeployment`
 * (server/services/sandbox/mode.ts): whether this server is a sandbox one, so the client's own sandbox mode counts.
 */
export async function clientView(
  db: DbOrTx,
  row: ClientRow,
  sandboxDeployment: boolean,
  now = new Date(),
): Promise<ClientView> {
  const facts = await lendingFacts(db, row.id, now)
  const application = await activeApplication(db, row.id)
  return {
    id: row.id,
    uuid: row.uuid,
    userID: row.id,
    hashedUserId: hashedId(row.id),
    firstName: row.firstName,
    email: row.email,
    status: row.status,
    phoneVerified: row.phoneVerifiedAt !== null,
    emailVerified: row.emailVerifiedAt !== null,
    // The limit from the repayment history less the principal owed on open loans (ADR 0030).
    availableLoanAmount: { amount: facts.availableAmount },
    closedLoansCount: facts.closedLoans,
    hasActiveLoan: facts.activeLoans > 0,
    hasActualApplication: application !== null,
    // A chosen extension waiting for its fee, or a schedule in force (issue 17).
    hasActiveRefinancing: facts.additional.hasActiveRefinancing,
    soldDebt: await hasSoldDebt(db, row.id),
    sandbox: await clientSandboxOn(db, sandboxDeployment, row.id),
    additionalLoan: facts.additional,
    info: { mobilePhone: { number: row.phone } },
  }
}
