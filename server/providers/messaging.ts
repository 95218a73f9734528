/**
 * SMS and e-mail go through a provider. The sandbox provider (the default) delivers to the outbox table only,
 * where QA and back-office users read it (GET /web/private/back-office/outbox), and prints a notice to the
 * developer console. Every provider records what it sent in the outbox, so support sees the same history
 * whichever provider is configured.
 */
import type { Logger } from 'pino'
import { type BulkColumn, insertRows } from '../db/bulk'
import type { DbOrTx } from '../db/client'
import { outboxMessage } from '../db/schema-identity'
import { maskRecipient as maskContact } from '../log/mask'

export interface OutgoingMessage {
  channel: 'sms' | 'email'
  recipient: string
  subject?: string
  body: string
  purpose: string
  /** The code the body carries, if any: a real provider keeps it out of the outbox (messaging-live.ts). */
  secret?: string
}

export interface MessagingProvider {
  readonly name: string
  /** Which provider each channel goes through (`sandbox` or a real one): server/providers/from-env.ts. */
  readonly channels?: Readonly<Record<OutgoingMessage['channel'], string>>
  /** Delivers, or throws (a real provider: MessageNotSentError, a 503 the caller may pass on). */
  send(db: DbOrTx, message: OutgoingMessage): Promise<void>
  /**
   * Delivers several at once, all or none (the sandbox: one outbox insert). Optional: a caller without it sends
   * one by one. The batched payment receipts use it (server/services/payments/batch-posting.ts).
   */
  sendMany?(db: DbOrTx, messages: OutgoingMessage[]): Promise<void>
}

/**
 * Masks all but the last 4 characters of a phone number, or the local part of an e-mail. Part of API answers
 * (where a code was sent); log lines and the console use server/log/mask.ts (`0917•••4567`).
 */
export function maskRecipient(recipient: string): string {
  const at = recipient.indexOf('@')
  if (at > 0) return `${recipient[0]}***${recipient.slice(at)}`
  return `${'*'.repeat(Math.max(0, recipient.length - 4))}${recipient.slice(-4)}`
}

const OUTBOX_COLUMNS: BulkColumn[] = [
  ['channel', 'text'],
  ['recipient', 'text'],
  ['subject', 'text'],
  ['body', 'text'],
  ['purpose', 'text'],
  ['provider', 'text'],
  ['status', 'text'],
]

export function createSandboxMessaging(logger: Logger, printToConsole = true): MessagingProvider {
  const stored = (messages: OutgoingMessage[]) => {
    for (const message of messages) {
      // The structured log never holds the body (it may carry a code); it says where to read it.
      logger.info(
        { channel: message.channel, purpose: message.purpose, to: maskContact(message.recipient) },
        'sandbox message stored in the outbox',
      )
      if (printToConsole) {
        process.stdout.write(
          `\n[sandbox ${message.channel}] to ${maskContact(message.recipient)}: ${message.body}\n\n`,
        )
      }
    }
  }
  const row = ({ secret: _secret, ...message }: OutgoingMessage) => ({
    ...message,
    subject: message.subject ?? null,
    provider: 'sandbox',
    status: 'delivered',
  })
  return {
    name: 'sandbox',
    channels: { sms: 'sandbox', email: 'sandbox' },
    async send(db, message) {
      await db.insert(outboxMessage).values(row(message))
      stored([message])
    },
    async sendMany(db, messages) {
      if (!messages.length) return
      // One parameter for all (server/db/bulk.ts): a receipt batch is dozens of messages.
      await insertRows(db, 'outbox_message', OUTBOX_COLUMNS, messages.map(row))
      stored(messages)
    },
  }
}
