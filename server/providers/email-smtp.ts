/**
 * E-mail over SMTP (nodemailer), to any relay: the provider's (SES, SendGrid, Postmark, Mailgun all speak it) or
 * the company's own. Configured by one URL (`smtps://user:pass@host:465` for TLS from the first byte,
 * `smtp://user:pass@host:587` for STARTTLS) or by host, port, user and password. Plain text, one recipient.
 *
 * STARTTLS is required unless the operator says otherwise (`requireTls: false`, for a relay on the same host):
 * an e-mail with a code must not cross a network in clear. Errors become MessageNotSentError: `timeout`,
 * `unreachable` (connection, DNS, socket) or `refused` (authentication, TLS, a 4xx/5xx reply to the envelope
 * or the message), with the nodemailer code or SMTP reply code as detail, never the server's reply text.
 */
import nodemailer from 'nodemailer'
import { type ChannelSender, MessageNotSentError, type NotSentReason } from './messaging-live'

export interface SmtpOptions {
  /** `smtp://` or `smtps://`, user and password URL-encoded. Takes precedence over host/port/user/pass. */
  url?: string
  host?: string
  port?: number
  user?: string
  pass?: string
  /** The From header, e.g. `Hiram <no-reply@hiram.ph>`. */
  from: string
  /** Refuse to send without TLS (default true). */
  requireTls?: boolean
  timeoutMs?: number
}

interface Endpoint {
  host: string
  port: number
  secure: boolean
  user?: string
  pass?: string
}

export function smtpEndpoint(
  options: Pick<SmtpOptions, 'url' | 'host' | 'port' | 'user' | 'pass'>,
): Endpoint {
  if (options.url) {
    const url = new URL(options.url)
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
      throw new Error('SMTP_URL must start with smtp:// or smtps://')
    const secure = url.protocol === 'smtps:'
    return {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      user: url.username ? decodeURIComponent(url.username) : undefined,
      pass: url.password ? decodeURIComponent(url.password) : undefined,
    }
  }
  if (!options.host) throw new Error('SMTP needs SMTP_URL or SMTP_HOST')
  const port = options.port ?? 587
  return { host: options.host, port, secure: port === 465, user: options.user, pass: options.pass }
}

function reasonOf(error: { code?: string; responseCode?: number }): NotSentReason {
  if (error.code === 'ETIMEDOUT') return 'timeout'
  if (error.responseCode) return 'refused'
  if (error.code === 'ECONNECTION' || error.code === 'ESOCKET' || error.code === 'EDNS') return 'unreachable'
  return 'refused'
}

export function createSmtpEmail(options: SmtpOptions): ChannelSender {
  const endpoint = smtpEndpoint(options)
  const timeout = options.timeoutMs ?? 10_000
  const transport = nodemailer.createTransport({
    host: endpoint.host,
    port: endpoint.port,
    secure: endpoint.secure,
    requireTLS: !endpoint.secure && options.requireTls !== false,
    auth: endpoint.user ? { user: endpoint.user, pass: endpoint.pass ?? '' } : undefined,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    // nodemailer's own logger would print envelopes (addresses): ours logs the outcome only.
    logger: false,
    debug: false,
  })
  return {
    name: 'smtp',
    channel: 'email',
    async deliver(message) {
      try {
        const info = await transport.sendMail({
          from: options.from,
          to: message.recipient,
          subject: message.subject ?? 'Hiram',
          text: message.body,
        })
        if (info.rejected.length > 0) throw new MessageNotSentError('email', 'refused', 'rejected')
      } catch (error) {
        if (error instanceof MessageNotSentError) throw error
        const e = error as { code?: string; responseCode?: number }
        throw new MessageNotSentError('email', reasonOf(e), String(e.responseCode ?? e.code ?? 'error'))
      }
    },
    close() {
      transport.close()
    },
  }
}
