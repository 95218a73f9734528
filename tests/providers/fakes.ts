/**
 * Small local fakes of the providers' servers, each listening on 127.0.0.1 on a free port: an HTTP one (captcha
 * siteverify, Semaphore) that records form posts and answers what the test says, and an SMTP one speaking just
 * enough of RFC 5321 (EHLO, AUTH PLAIN/LOGIN, MAIL, RCPT, DATA, RSET, NOOP, QUIT) for nodemailer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net'

export interface RecordedPost {
  path: string
  contentType: string | undefined
  form: Record<string, string>
}

export type HttpAnswer = { status?: number; json?: unknown; text?: string; delayMs?: number }

export async function startHttpFake(answer: (post: RecordedPost) => HttpAnswer) {
  const posts: RecordedPost[] = []
  const sockets = new Set<Socket>()
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const post: RecordedPost = {
      path: req.url ?? '',
      contentType: req.headers['content-type'],
      form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
    }
    posts.push(post)
    const reply = answer(post)
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs))
    if (res.destroyed) return
    res.statusCode = reply.status ?? 200
    if (reply.json !== undefined) {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(reply.json))
    } else res.end(reply.text ?? '')
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

export interface SmtpMail {
  from: string
  to: string[]
  data: string
  /** `user:pass` from AUTH, if the client authenticated. */
  auth?: string
}

export interface SmtpFakeOptions {
  /** Recipients answered 550 at RCPT TO. */
  rejectRecipients?: string[]
  /** Advertise STARTTLS (the fake cannot actually do TLS: a client that uses it fails). */
  advertiseStartTls?: boolean
  /** Accept the connection and never greet (a hung server). */
  silent?: boolean
}

export async function startSmtpFake(options: SmtpFakeOptions = {}) {
  const mails: SmtpMail[] = []
  const sockets = new Set<Socket>()
  const server = createNetServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    if (options.silent) return
    const say = (line: string) => socket.write(`${line}\r\n`)
    let buffer = ''
    let mode: 'command' | 'data' | 'auth-login-user' | 'auth-login-pass' = 'command'
    let current: SmtpMail = { from: '', to: [], data: '' }
    let auth: string | undefined
    let loginUser = ''
    say('220 fake.smtp.local ESMTP ready')
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8')
      while (true) {
        if (mode === 'data') {
          const end = buffer.indexOf('\r\n.\r\n')
          if (end < 0) return
          // Undo dot-stuffing (RFC 5321 4.5.2).
          current.data = buffer.slice(0, end).replace(/^\.\./gm, '.')
          buffer = buffer.slice(end + 5)
          mails.push({ ...current, auth })
          current = { from: '', to: [], data: '' }
          mode = 'command'
          say('250 2.0.0 queued')
          continue
        }
        const newline = buffer.indexOf('\r\n')
        if (newline < 0) return
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 2)
        if (mode === 'auth-login-user') {
          loginUser = Buffer.from(line, 'base64').toString('utf8')
          mode = 'auth-login-pass'
          say(`334 ${Buffer.from('Password:').toString('base64')}`)
          continue
        }
        if (mode === 'auth-login-pass') {
          auth = `${loginUser}:${Buffer.from(line, 'base64').toString('utf8')}`
          mode = 'command'
          say('235 2.7.0 accepted')
          continue
        }
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'EHLO' || verb === 'HELO') {
          socket.write('250-fake.smtp.local\r\n250-AUTH PLAIN LOGIN\r\n')
          if (options.advertiseStartTls) socket.write('250-STARTTLS\r\n')
          say('250 8BITMIME')
        } else if (verb === 'AUTH') {
          const [, mechanism, initial] = line.split(' ')
          if (mechanism?.toUpperCase() === 'PLAIN' && initial) {
            const [, user, pass] = Buffer.from(initial, 'base64').toString('utf8').split('\0')
            auth = `${user}:${pass}`
            say('235 2.7.0 accepted')
          } else if (mechanism?.toUpperCase() === 'LOGIN') {
            mode = 'auth-login-user'
            say(`334 ${Buffer.from('Username:').toString('base64')}`)
          } else say('504 5.5.4 unrecognised mechanism')
        } else if (verb === 'STAR') {
          // Advertised: says yes, then speaks plain text again, so the client's TLS handshake fails.
          if (options.advertiseStartTls) say('220 2.0.0 go ahead')
          else say('454 4.7.0 TLS not available')
        } else if (verb === 'MAIL') {
          current.from = /<([^>]*)>/.exec(line)?.[1] ?? ''
          say('250 2.1.0 ok')
        } else if (verb === 'RCPT') {
          const to = /<([^>]*)>/.exec(line)?.[1] ?? ''
          if (options.rejectRecipients?.includes(to)) say('550 5.1.1 no such user')
          else {
            current.to.push(to)
            say('250 2.1.5 ok')
          }
        } else if (verb === 'DATA') {
          mode = 'data'
          say('354 end with <CRLF>.<CRLF>')
        } else if (verb === 'RSET') {
          current = { from: '', to: [], data: '' }
          say('250 2.0.0 ok')
        } else if (verb === 'NOOP') say('250 2.0.0 ok')
        else if (verb === 'QUIT') {
          say('221 2.0.0 bye')
          socket.end()
        } else say('502 5.5.2 not implemented')
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    port,
    url: (auth = 'mailer:s3cret%2Fpass') => `smtp://${auth}@127.0.0.1:${port}`,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
