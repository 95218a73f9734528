/**
 * Bounded requests (issue 13, item 2; docs/decisions/0002): body limits per route, answered 413 before the body
 * is read whole, chunked bodies counted and cut off; header size and slow clients limited by the Node server
 * (server/http/node-server.ts). The socket tests run the real server on an ephemeral port.
 */

import type { Server } from 'node:http'
import http from 'node:http'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JSON_BODY_LIMIT } from '../../server/http/body-limit'
import { type HttpLimits, startHttpServer } from '../../server/http/node-server'
import { lightApp } from './light-app'

const json = { 'content-type': 'application/json' }

/** An endless body, 16 KB a pull, that records how much of it was pulled. */
function endlessBody() {
  const chunk = new Uint8Array(16 * 1024).fill(0x20)
  const pulled = { bytes: 0 }
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled.bytes += chunk.byteLength
      controller.enqueue(chunk)
    },
  })
  return { stream, pulled }
}

describe('body limits, in process', () => {
  const app = lightApp()

  it('refuses a declared length over the JSON limit with a 413 envelope, unread', async () => {
    const res = await app.request('/web/public/echo', {
      method: 'POST',
      headers: { ...json, 'content-length': String(JSON_BODY_LIMIT + 1) },
      body: '{}',
    })
    expect(res.status).toBe(413)
    expect((await res.json()).response).toMatchObject({ status: 413, code: 'payloadTooLarge' })
  })

  it('accepts a body up to the limit, and a route may declare more', async () => {
    const text = 'a'.repeat(100 * 1024)
    const body = JSON.stringify({ text })
    const small = await app.request('/web/public/echo', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ text: 'a'.repeat(60 * 1024) }),
    })
    expect(small.status).toBe(200)
    const tooBig = await app.request('/web/public/echo', { method: 'POST', headers: json, body })
    expect(tooBig.status).toBe(413)
    const declared = await app.request('/web/public/big', { method: 'POST', headers: json, body })
    expect(declared.status).toBe(200)
    expect((await declared.json()).data).toEqual({ length: text.length })
  })

  it('cuts a chunked body off as soon as it passes the limit, without reading the rest', async () => {
    const { stream, pulled } = endlessBody()
    const res = await app.request('/web/public/echo', {
      method: 'POST',
      headers: json,
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
    // The limit and the stream's read-ahead, not the endless rest.
    expect(pulled.bytes).toBeLessThan(JSON_BODY_LIMIT + 64 * 1024)
  })

  it('bounds a chunked body sent to a route that takes none', async () => {
    const { stream, pulled } = endlessBody()
    const res = await app.request('/web/public/nobody', {
      method: 'POST',
      headers: { 'transfer-encoding': 'chunked' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
    expect(pulled.bytes).toBeLessThan(JSON_BODY_LIMIT + 64 * 1024)
  })

  it('refuses a large or chunked body on GET and closes the connection', async () => {
    const large = await app.request('/web/public/ping', { headers: { 'content-length': String(10 ** 8) } })
    expect(large.status).toBe(413)
    expect(large.headers.get('connection')).toBe('close')
    const chunked = await app.request('/web/public/ping', { headers: { 'transfer-encoding': 'chunked' } })
    expect(chunked.status).toBe(413)
    // An ordinary GET, and one declaring an empty body, pass.
    expect((await app.request('/web/public/ping', { headers: { 'content-length': '0' } })).status).toBe(200)
    expect((await app.request('/web/public/ping')).status).toBe(200)
  })

  it('a multipart route keeps its own, larger limit', async () => {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(200 * 1024)]), 'scan.pdf')
    const encoded = new Response(form)
    const bytes = await encoded.arrayBuffer()
    const res = await app.request('/web/public/upload', {
      method: 'POST',
      headers: {
        'content-type': encoded.headers.get('content-type')!,
        'content-length': String(bytes.byteLength),
      },
      body: bytes,
    })
    expect(res.status).toBe(200)
    const over = await app.request('/web/public/upload', {
      method: 'POST',
      headers: {
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(2 * 1024 * 1024),
      },
      body: '--x--',
    })
    expect(over.status).toBe(413)
  })
})

/** A started server on an ephemeral port. */
async function listen(limits?: Partial<HttpLimits>) {
  let server: Server | undefined
  const port = await new Promise<number>((resolve) => {
    server = startHttpServer(lightApp(), { port: 0, hostname: '127.0.0.1', limits }, (info) =>
      resolve(info.port),
    )
  })
  return { server: server!, port }
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

/** Raw bytes to the server; resolves with everything it answered once it closes or `wait` ms pass. */
function rawExchange(port: number, write: (socket: net.Socket) => void, wait = 5_000) {
  return new Promise<{ text: string; ms: number; closed: boolean }>((resolve) => {
    const started = performance.now()
    const socket = net.connect(port, '127.0.0.1')
    let text = ''
    const done = (closed: boolean) => {
      clearTimeout(timer)
      socket.destroy()
      resolve({ text, ms: performance.now() - started, closed })
    }
    const timer = setTimeout(() => done(false), wait)
    socket.on('data', (data) => {
      text += data.toString('latin1')
    })
    socket.on('error', () => {})
    socket.on('close', () => done(true))
    socket.on('connect', () => write(socket))
  })
}

/**
 * Sends `total` bytes (declared, or chunked when `declared` is false) as fast as the server takes them, 1 MB
 * buffer reused so the client itself stays small; resolves when the answer arrives, with how much was sent.
 */
function sendLargeBody(port: number, path: string, total: number, declared: boolean) {
  return new Promise<{ status: number; sentWhenAnswered: number; body: string }>((resolve, reject) => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20)
    let sent = 0
    let answered = false
    const req = http.request({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        ...(declared ? { 'content-length': String(total) } : {}),
      },
    })
    req.on('error', (error) => {
      // The server closes the connection after its answer, while this client may still be writing.
      if (!answered) reject(error)
    })
    req.on('response', (res) => {
      answered = true
      const sentWhenAnswered = sent
      let body = ''
      res.on('data', (d) => {
        body += d
      })
      res.on('end', () => resolve({ status: res.statusCode!, sentWhenAnswered, body }))
      res.on('error', () => resolve({ status: res.statusCode!, sentWhenAnswered, body }))
    })
    req.write('{"text":"')
    const pump = () => {
      while (!answered && !req.destroyed && sent < total) {
        sent += chunk.byteLength
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      if (!answered && !req.destroyed) req.end()
    }
    pump()
  })
}

describe('body limits over a real socket', () => {
  let server: Server
  let port: number
  beforeAll(async () => {
    ;({ server, port } = await listen())
  })
  afterAll(() => close(server))

  it('refuses a 100 MB JSON body with 413 while the client is still sending it', async () => {
    const total = 100 * 1024 * 1024
    const answer = await sendLargeBody(port, '/web/public/echo', total, true)
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body).response.code).toBe('payloadTooLarge')
    expect(answer.sentWhenAnswered).toBeLessThan(total)
  })

  it('cuts off a 600 MB chunked body early, without moving memory, while others are served', async () => {
    const total = 600 * 1024 * 1024
    // The client's first fetch sets up its own machinery; the one measured below should only wait for the server.
    await fetch(`http://127.0.0.1:${port}/web/public/ping`)
    global.gc?.()
    const before = process.memoryUsage().rss
    let peak = before
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss)
    }, 20)
    const big = sendLargeBody(port, '/web/public/echo', total, false)
    // Another caller meanwhile: answered at once, not after the big body.
    const started = performance.now()
    const other = await fetch(`http://127.0.0.1:${port}/web/public/ping`)
    const otherMs = performance.now() - started
    const answer = await big
    clearInterval(sampler)
    expect(other.status).toBe(200)
    expect(otherMs).toBeLessThan(2_000)
    expect(answer.status).toBe(413)
    expect(answer.sentWhenAnswered).toBeLessThan(total)
    // Client and server share this process: the bound covers both, and the garbage of the test itself.
    expect(peak - before).toBeLessThan(32 * 1024 * 1024)
  })

  it('keeps serving on other connections after refusing a large body', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/web/public/ping`)
    expect(res.status).toBe(200)
  })
})

describe('header size and slow clients', () => {
  let server: Server
  let port: number
  beforeAll(async () => {
    ;({ server, port } = await listen({
      headersTimeout: 400,
      requestTimeout: 800,
      connectionsCheckingInterval: 50,
    }))
  })
  afterAll(() => close(server))

  it('answers 431 to headers over 16 KB', async () => {
    const answer = await rawExchange(port, (socket) =>
      socket.write(`GET /web/public/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`),
    )
    expect(answer.text).toMatch(/^HTTP\/1\.1 431/)
  })

  it('still answers ordinary headers', async () => {
    const answer = await rawExchange(port, (socket) =>
      socket.write('GET /web/public/ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    )
    expect(answer.text).toMatch(/^HTTP\/1\.1 200/)
  })

  it('drops a client that trickles its headers (slowloris)', async () => {
    let timer: NodeJS.Timeout | undefined
    const answer = await rawExchange(port, (socket) => {
      socket.write('GET /web/public/ping HTTP/1.1\r\nHost: x\r\n')
      timer = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 100)
    })
    clearInterval(timer)
    expect(answer.closed).toBe(true)
    expect(answer.text).toMatch(/^HTTP\/1\.1 408/)
    expect(answer.ms).toBeLessThan(3_000)
  })

  it('drops a client that trickles its body', async () => {
    let timer: NodeJS.Timeout | undefined
    const answer = await rawExchange(port, (socket) => {
      socket.write(
        'POST /web/public/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      )
      timer = setInterval(() => socket.writable && socket.write(' '), 100)
    })
    clearInterval(timer)
    expect(answer.closed).toBe(true)
    expect(answer.text).toMatch(/^HTTP\/1\.1 408/)
    expect(answer.ms).toBeLessThan(3_000)
  })
})
