/**
 * The texts of the codes and notices identity sends, and the one way codes leave the server: issue (limits
 * apply), then send through the provider, after the code's transaction has committed.
 */
import type { Db } from '../../db/client'
import type { MessagingProvider, OutgoingMessage } from '../../providers/messaging'
import { CODE_TTL_MINUTES, type CodePurpose, type IssuedCode, issueCode } from './codes'

const labels: Record<CodePurpose, string> = {
  phone_verify: 'verification',
  email_verify: 'e-mail verification',
  change_phone: 'mobile number change',
  change_email: 'e-mail change',
  recover_password: 'password reset',
  login_mfa: 'login',
  agreement: 'agreement',
  single_link: 'my-loan login',
  payout_change: 'payout account change',
  amendment: 'loan amendment',
}

export function codeMessage(
  purpose: CodePurpose,
  channel: 'sms' | 'email',
  recipient: string,
  code: string,
): OutgoingMessage {
  const label = labels[purpose]
  const text =
    `Hiram: ${code} is your ${label} code. It expires in ${CODE_TTL_MINUTES} minutes. ` +
    'Never share it with anyone, Hiram staff included.'
  return channel === 'sms'
    ? { channel, recipient, body: text, purpose, secret: code }
    : { channel, recipient, subject: `Your Hiram ${label} code`, body: text, purpose, secret: code }
}

export interface SendCode {
  purpose: CodePurpose
  channel: 'sms' | 'email'
  target: string
  owner?: string
  /** False when the answer must look the same but nobody should receive anything (unknown account). */
  deliver?: boolean
  /** Asked for from a device the owner trusts: the owner's own per-target budget (codes.ts). */
  requesterKnown?: boolean
}

export interface SentCode {
  nextCodeAt: Date
  expiresAt: Date
}

export async function sendCode(
  db: Db,
  messaging: MessagingProvider,
  key: Uint8Array,
  input: SendCode,
  now: Date,
): Promise<SentCode> {
  const issued: IssuedCode = await issueCode(
    db,
    key,
    input.purpose,
    input.target,
    now,
    input.owner,
    input.requesterKnown,
  )
  if (input.deliver !== false) {
    await messaging.send(db, codeMessage(input.purpose, input.channel, input.target, issued.code))
  }
  return { nextCodeAt: issued.nextCodeAt, expiresAt: issued.expiresAt }
}

export type Notice = 'password_changed' | 'phone_changed' | 'email_changed'

const notices: Record<Notice, string> = {
  password_changed: 'Your Hiram password was changed. If this was not you, call customer care now.',
  phone_changed:
    'The mobile number of your Hiram account was changed. If this was not you, call customer care now.',
  email_changed: 'The e-mail of your Hiram account was changed. If this was not you, call customer care now.',
}

/** A security notice to the old contact, so a takeover does not go unnoticed. */
export async function sendNotice(
  db: Db,
  messaging: MessagingProvider,
  channel: 'sms' | 'email',
  recipient: string,
  notice: Notice,
) {
  await messaging.send(db, {
    channel,
    recipient,
    subject: channel === 'email' ? 'Your Hiram account was changed' : undefined,
    body: notices[notice],
    purpose: notice,
  })
}
