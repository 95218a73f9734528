/**
 * Request bodies are bounded before they are read (issue 13, item 2; docs/decisions/0002). A declared
 * Content-Length over the route's limit is refused at once: Node frames the body by that length, so a body can
 * never be longer than it says. A chunked body (no length) is read through a counter and cancelled as soon as
 * the count passes the limit, so neither memory nor time grows with what a caller chooses to send.
 */
import type { Context } from 'hono'
import type { AppEnv } from './context'
import { HttpError } from './errors'

/** A JSON body: the largest form the API takes is a few kilobytes. */
export const JSON_BODY_LIMIT = 64 * 1024

/**
 * A 413 for a request whose body may still be arriving. The connection is not closed at once: a socket closed
 * with unread data sends a reset, which can reach the client before it has read the 413 (it then sees only a
 * broken pipe). @hono/node-server instead drains the rest for at most 0.5 s or 64 MB, discarding it, and then
 * closes: a lingering close, bounded in time and memory.
 */
export const payloadTooLarge = (limit: number) =>
  new HttpError(413, 'payloadTooLarge', `The request body is larger than ${limit} bytes.`)

/**
 * The declared Content-Length: a number, or undefined when the request declares none (chunked or no body).
 * Node refuses a malformed length itself; an in-process request's odd header is treated as none.
 */
export function declaredLength(c: Context<AppEnv>): number | undefined {
  const header = c.req.raw.headers.get('content-length')
  if (header === null || !/^\d+$/.test(header)) return undefined
  return Number(header)
}

/** Refuses a declared length over the limit before anything is read. */
export function assertDeclaredLength(c: Context<AppEnv>, limit: number) {
  const length = declaredLength(c)
  if (length !== undefined && length > limit) throw payloadTooLarge(limit)
}

const decoder = new TextDecoder()

/**
 * The body as text, at most `limit` bytes. With a declared length within the limit the runtime's own reader
 * is used (@hono/node-server reads such a body straight from the socket); without one the stream is counted
 * chunk by chunk and cancelled past the limit, leaving the rest unread for the server to discard.
 */
export async function readLimitedText(c: Context<AppEnv>, limit: number): Promise<string> {
  const length = declaredLength(c)
  if (length !== undefined) {
    if (length > limit) throw payloadTooLarge(limit)
    return length === 0 ? '' : c.req.text()
  }
  const stream = c.req.raw.body
  if (!stream) return ''
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      reader.cancel().catch(() => {})
      throw payloadTooLarge(limit)
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return decoder.decode(chunks[0])
  return decoder.decode(Buffer.concat(chunks))
}
