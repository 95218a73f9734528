/**
 * Messaging with real channels: each channel (SMS, e-mail) goes to its sender (sms-semaphore.ts, email-smtp.ts)
 * or, when none is configured, to the sandbox provider (messaging.ts), which keeps its outbox and console notice.
 *
 * A real send is recorded in the outbox too (status `sent` or `failed`, the provider's name), so support sees the
 * same history whichever provider is configured, but with the code the message carries replaced by `•••`:
 * back-office staff must not be able to read a borrower's live codes. A failed send throws MessageNotSentError,
 * a 503 `messageNotSent` the route answers as it is ("try again in a minute"); no retry here, since a timeout may
 * still have delivered and a second SMS with the same code helps nobody.
 */
import type { Logger } from 'pino'
import { DomainError } from '../../domain/errors'
import type { DbOrTx } from '../db/client'
import { outboxMessage } from '../db/schema-identity'
import { type MessagingProvider, maskRecipient, type OutgoingMessage } from './messaging'

export type Channel = OutgoingMessage['channel']
export type NotSentReason = 'timeout' | 'unreachable' | 'refused'

/** The message did not leave: the provider was slow, unreachable or said no. Never holds the message itself. */
export class MessageNotSentError extends DomainError {
  constructor(
    readonly channel: Channel,
    readonly reason: NotSentReason,
    /** The provider's status or error code, for the log. */
    readonly detail?: string,
  ) {
    super(
      'unavailable',
      'messageNotSent',
      'We could not send the message just now. Please try again in a minute.',
    )
    this.name = 'MessageNotSentError'
  }
}

/** One real channel. `deliver` resolves once the provider accepted the message, or throws MessageNotSentError. */
export interface ChannelSender {
  readonly name: string
  readonly channel: Channel
  deliver(message: OutgoingMessage): Promise<void>
  close?(): Promise<void> | void
}

export function redactSecret(message: OutgoingMessage): { body: string; subject: string | null } {
  const hide = (text: string) => (message.secret ? text.replaceAll(message.secret, '•••') : text)
  return { body: hide(message.body), subject: message.subject ? hide(message.subject) : null }
}

export interface LiveMessagingOptions {
  logger: Logger
  /** Where channels without a sender go. */
  sandbox: MessagingProvider
  sms?: ChannelSender
  email?: ChannelSender
}

export function createLiveMessaging(
  options: LiveMessagingOptions,
): MessagingProvider & { close(): Promise<void> } {
  const { logger, sandbox } = options
  const senders: Partial<Record<Channel, ChannelSender>> = { sms: options.sms, email: options.email }
  const channels = {
    sms: options.sms?.name ?? 'sandbox',
    email: options.email?.name ?? 'sandbox',
  }

  async function record(db: DbOrTx, message: OutgoingMessage, provider: string, status: 'sent' | 'failed') {
    const { secret: _secret, ...rest } = message
    try {
      await db.insert(outboxMessage).values({ ...rest, ...redactSecret(message), provider, status })
    } catch (error) {
      // The message went (or did not) whatever the history says: the caller's answer must follow the provider.
      logger.warn(
        { channel: message.channel, purpose: message.purpose, err: { type: (error as Error)?.name } },
        'outbox record failed',
      )
    }
  }

  return {
    name: channels.sms === channels.email ? channels.sms : `sms:${channels.sms},email:${channels.email}`,
    channels,
    async send(db, message) {
      const sender = senders[message.channel]
      if (!sender) return sandbox.send(db, message)
      const to = maskRecipient(message.recipient)
      try {
        await sender.deliver(message)
      } catch (error) {
        const failure =
          error instanceof MessageNotSentError
            ? error
            : new MessageNotSentError(message.channel, 'unreachable')
        await record(db, message, sender.name, 'failed')
        logger.warn(
          {
            channel: message.channel,
            purpose: message.purpose,
            to,
            provider: sender.name,
            reason: failure.reason,
            detail: failure.detail,
          },
          'message not sent',
        )
        throw failure
      }
      await record(db, message, sender.name, 'sent')
      logger.info(
        { channel: message.channel, purpose: message.purpose, to, provider: sender.name },
        'message sent',
      )
    },
    async close() {
      await Promise.all([options.sms?.close?.(), options.email?.close?.()])
    },
  }
}
