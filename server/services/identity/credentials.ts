/**
 * What a client proves with a code or a password: verifying the number and the e-mail, resetting a forgotten
 * password, and changing the password, the number or the e-mail. A change ends the client's other sessions and
 * tells the old number or e-mail, so a stolen session cannot quietly take the account over.
 */
import { isWrongEmailDomain, WRONG_EMAIL_DOMAIN } from '../../../domain/email-domain'
import { invalid } from '../../../domain/errors'
import { messageKeys } from '../../../domain/identity'
import { hashPassword } from '../../auth/passwords'
import type { Db } from '../../db/client'
import type { MessagingProvider } from '../../providers/messaging'
import {
  type ClientRow,
  clientAccount,
  emailTaken,
  findClient,
  findClientByLogin,
  isTaken,
  markEmailVerified,
  markPhoneVerified,
  phoneTaken,
  setEmail,
  setPassword,
  setPhone,
} from './clients'
import { assertCode, type CodePurpose, checkCode } from './codes'
import { isKnownTo } from './devices'
import { checkPasswordThrottled, clearAccountFailures } from './login'
import { sendNotice } from './messages'
import { revokeAllSessions, sessionDevice } from './sessions'

/** Refuses (codeNotSent, codeIncorrect) a code the client was not sent for `target` and `purpose`. */
export async function checkClientCode(
  db: Db,
  codeKey: Uint8Array,
  client: ClientRow,
  purpose: CodePurpose,
  target: string,
  code: string,
  now: Date,
) {
  assertCode(await checkCode(db, codeKey, purpose, target, code, now, clientAccount(client.id)))
}

/** The client's row after a change made through it. */
const reread = async (db: Db, id: number) => (await findClient(db, id))!

/** Marks the number verified with the code sent to it (a verified number is left as it is); the fresh row. */
export async function verifyPhone(db: Db, codeKey: Uint8Array, client: ClientRow, code: string, now: Date) {
  if (!client.phoneVerifiedAt) {
    await checkClientCode(db, codeKey, client, 'phone_verify', client.phone, code, now)
    await markPhoneVerified(db, client.id, now)
  }
  return reread(db, client.id)
}

/** Marks the e-mail verified with the code sent to it (a verified e-mail is left as it is); the fresh row. */
export async function verifyEmail(db: Db, codeKey: Uint8Array, client: ClientRow, code: string, now: Date) {
  if (!client.emailVerifiedAt) {
    await checkClientCode(db, codeKey, client, 'email_verify', client.email, code, now)
    await markEmailVerified(db, client.id, now)
  }
  return reread(db, client.id)
}

export interface PasswordReset {
  login: string
  code: string
  password: string
}

/**
 * Sets a new password with the code recovery sent by SMS; answers the client. An unknown login was sent no
 * code, and is refused as such. `requesterDevice` is the caller's device: a stranger's wrong codes count apart
 * from the owner's, so they cannot kill the code the owner was sent. The code reached the phone, which proves
 * the number too; every session ends and the account's failed logins are forgotten.
 */
export async function resetPassword(
  db: Db,
  codeKey: Uint8Array,
  input: PasswordReset,
  requesterDevice: string | null,
  now: Date,
): Promise<ClientRow> {
  const row = await findClientByLogin(db, input.login)
  if (!row) {
    assertCode('not_sent')
    throw new Error('assertCode refuses a code never sent')
  }
  const account = clientAccount(row.id)
  const requesterKnown = await isKnownTo(db, account, requesterDevice)
  assertCode(
    await checkCode(db, codeKey, 'recover_password', row.phone, input.code, now, account, requesterKnown),
  )
  await setPassword(db, row.id, await hashPassword(input.password), now)
  if (!row.phoneVerifiedAt) await markPhoneVerified(db, row.id, now)
  await revokeAllSessions(db, 'client', row.id, 'password_reset')
  await clearAccountFailures(db, account)
  return row
}

/** The session a change is made from: it stays open, the client's others end. */
export interface ChangeSession {
  sessionId: string
  /** The caller's address, for the old-password check's limits. */
  address: string
}

/**
 * Changes the password of a logged-in client: the old one must match and the new one differ. The old-password
 * check is throttled like a login from an unknown device, keyed by this session's device (or the session
 * itself): a stolen session must not become a password oracle, nor use the owner's budget, nor lock the owner
 * out. Ends the other sessions and tells the client's number.
 */
export async function changePassword(
  db: Db,
  messaging: MessagingProvider,
  client: ClientRow,
  input: { oldPassword: string; password: string },
  from: ChangeSession,
  now: Date,
) {
  const check = await checkPasswordThrottled(
    db,
    {
      account: clientAccount(client.id),
      requester: {
        address: from.address,
        deviceHash: (await sessionDevice(db, from.sessionId)) ?? `session:${from.sessionId}`,
      },
      passwordHash: client.passwordHash,
      password: input.oldPassword,
      trustDevices: false,
    },
    now,
  )
  if (!check.ok) throw invalid([{ propertyPath: 'oldPassword', message: messageKeys.oldPassword }])
  if (input.password === input.oldPassword)
    throw invalid([{ propertyPath: 'password', message: messageKeys.uniqueNewPassword }])
  await setPassword(db, client.id, await hashPassword(input.password), now)
  await revokeAllSessions(db, 'client', client.id, 'password_changed', from.sessionId)
  await sendNotice(db, messaging, 'sms', client.phone, 'password_changed')
}

/** Refuses (phone taken) a new number that is the client's own or anyone else's. */
export async function assertNewPhone(db: Db, client: ClientRow, number: string) {
  if (number === client.phone || (await isTaken(db, 'phone', number))) throw phoneTaken()
}

/** Refuses (e-mail taken) a new e-mail that is the client's own or anyone else's. */
export async function assertNewEmail(db: Db, client: ClientRow, email: string) {
  if (isWrongEmailDomain(email)) throw invalid([{ propertyPath: 'email', message: WRONG_EMAIL_DOMAIN }])
  if (email === client.email || (await isTaken(db, 'email', email))) throw emailTaken()
}

/**
 * Changes the number with the code sent to the new one (which arrives verified); ends the other sessions and
 * tells the old number. The fresh row.
 */
export async function changePhone(
  db: Db,
  codeKey: Uint8Array,
  messaging: MessagingProvider,
  client: ClientRow,
  input: { number: string; code: string },
  from: ChangeSession,
  now: Date,
) {
  await assertNewPhone(db, client, input.number)
  await checkClientCode(db, codeKey, client, 'change_phone', input.number, input.code, now)
  await setPhone(db, client.id, input.number, now)
  await revokeAllSessions(db, 'client', client.id, 'phone_changed', from.sessionId)
  await sendNotice(db, messaging, 'sms', client.phone, 'phone_changed')
  return reread(db, client.id)
}

/**
 * Changes the e-mail with the code sent to the new one (which arrives verified); ends the other sessions and
 * tells the old e-mail. The fresh row.
 */
export async function changeEmail(
  db: Db,
  codeKey: Uint8Array,
  messaging: MessagingProvider,
  client: ClientRow,
  input: { email: string; code: string },
  from: ChangeSession,
  now: Date,
) {
  await assertNewEmail(db, client, input.email)
  await checkClientCode(db, codeKey, client, 'change_email', input.email, input.code, now)
  await setEmail(db, client.id, input.email, now)
  await revokeAllSessions(db, 'client', client.id, 'email_changed', from.sessionId)
  await sendNotice(db, messaging, 'email', client.email, 'email_changed')
  return reread(db, client.id)
}
