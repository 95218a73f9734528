/**
 * The SMTP e-mail adapter (nodemailer) against a local fake SMTP server (docs/decisions/0018): the message and
 * envelope it sends with authentication from SMTP_URL, TLS required unless switched off, and failures as
 * MessageNotSentError with a reason and a code, never the server's reply text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSmtpEmail, smtpEndpoint } from '../../server/providers/email-smtp'
import type { OutgoingMessage } from '../../server/providers/messaging'
import { MessageNotSentError } from '../../server/providers/messaging-live'
import { startSmtpFake } from './fakes'

const FROM = 'Hiram <no-reply@hiram.ph>'
const mail = (recipient: string): OutgoingMessage => ({
  channel: 'email',
  recipient,
  subject: 'Your Hiram e-mail verification code',
  body: 'Hiram: 731 is your e-mail verification code.\n.\nA line with a lone dot above.',
  purpose: 'email_verify',
  secret: '731',
})

let smtp: Awaited<ReturnType<typeof startSmtpFake>>
beforeAll(async () => {
  smtp = await startSmtpFake({ rejectRecipients: ['nobody@example.ph'] })
})
afterAll(() => smtp?.close())

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(MessageNotSentError)
  expect(error).toMatchObject({ kind: 'unavailable', code: 'messageNotSent', channel: 'email' })
  return error as MessageNotSentError
}

describe('SMTP e-mail', () => {
  it('sends the message with the envelope, From, subject and body, authenticated from SMTP_URL', async () => {
    const sender = createSmtpEmail({ url: smtp.url(), from: FROM, requireTls: false })
    await sender.deliver(mail('juan@example.ph'))
    await sender.close?.()
    const sent = smtp.mails.at(-1)!
    expect(sent.from).toBe('no-reply@hiram.ph')
    expect(sent.to).toEqual(['juan@example.ph'])
    expect(sent.auth).toBe('mailer:s3cret/pass')
    expect(sent.data).toMatch(/^From: Hiram <no-reply@hiram.ph>$/m)
    expect(sent.data).toMatch(/^To: juan@example.ph$/m)
    expect(sent.data).toMatch(/^Subject: Your Hiram e-mail verification code$/m)
    expect(sent.data).toContain(
      'Hiram: 731 is your e-mail verification code.\r\n.\r\nA line with a lone dot above.',
    )
  })

  it('works from SMTP_HOST, SMTP_PORT, SMTP_USER and SMTP_PASS too', async () => {
    const sender = createSmtpEmail({
      host: '127.0.0.1',
      port: smtp.port,
      user: 'mailer',
      pass: 'other',
      from: FROM,
      requireTls: false,
    })
    await sender.deliver(mail('maria@example.ph'))
    expect(smtp.mails.at(-1)).toMatchObject({ to: ['maria@example.ph'], auth: 'mailer:other' })
  })

  it('reads smtps:// as TLS from the first byte, smtp:// as STARTTLS on 587, and refuses other schemes', () => {
    expect(smtpEndpoint({ url: 'smtps://u:p@mail.example.ph' })).toMatchObject({ port: 465, secure: true })
    expect(smtpEndpoint({ url: 'smtp://mail.example.ph' })).toMatchObject({ port: 587, secure: false })
    expect(smtpEndpoint({ host: 'mail.example.ph', port: 465 })).toMatchObject({ secure: true })
    expect(() => smtpEndpoint({ url: 'http://mail.example.ph' })).toThrow(/smtp:\/\/ or smtps:\/\//)
  })

  it('requires TLS by default: a relay that offers none is refused before anything is sent', async () => {
    const before = smtp.mails.length
    const sender = createSmtpEmail({ url: smtp.url(), from: FROM, timeoutMs: 2000 })
    const error = await failure(sender.deliver(mail('juan@example.ph')))
    expect(error.reason).toBe('refused')
    expect(smtp.mails.length).toBe(before)
  })

  it('a recipient the relay refuses is refused, with the SMTP reply code and not its text', async () => {
    const sender = createSmtpEmail({ url: smtp.url(), from: FROM, requireTls: false })
    const error = await failure(sender.deliver(mail('nobody@example.ph')))
    expect(error).toMatchObject({ reason: 'refused', detail: '550' })
    expect(JSON.stringify(error)).not.toContain('nobody@')
  })

  it('a relay that never greets is a timeout; a closed port is unreachable', async () => {
    const silent = await startSmtpFake({ silent: true })
    try {
      const error = await failure(
        createSmtpEmail({ url: silent.url(), from: FROM, requireTls: false, timeoutMs: 200 }).deliver(
          mail('juan@example.ph'),
        ),
      )
      expect(error.reason).toBe('timeout')
    } finally {
      await silent.close()
    }
    const closed = await startSmtpFake()
    await closed.close()
    const error = await failure(
      createSmtpEmail({ url: closed.url(), from: FROM, requireTls: false }).deliver(mail('juan@example.ph')),
    )
    expect(error.reason).toBe('unreachable')
  })
})
