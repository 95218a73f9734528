/**
 * Content codings (issue 21, item 1; docs/decisions/0043): which one a request accepts, and the API's JSON
 * compressed in place. The web app's files are compressed at build time (scripts/vite-precompress.ts); the API's
 * answers are compressed here, synchronously, once they are large enough to gain from it.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

export type Coding = 'br' | 'gzip' | 'identity'

/** The codings we send, best first when the client likes them equally. */
const PREFERENCE: Coding[] = ['br', 'gzip', 'identity']

/**
 * The coding to send for an `Accept-Encoding` header (RFC 9110, 12.5.3), among those `available`: the one with
 * the highest q, ties broken by br > gzip > identity. A coding given `q=0` is refused, `*` stands for any coding
 * not named, and identity is acceptable unless refused by name or by `*;q=0`. No header: identity.
 */
export function negotiateCoding(
  header: string | null | undefined,
  available: readonly Coding[] = PREFERENCE,
): Coding {
  if (!header) return 'identity'
  const q = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    let weight = 1
    for (const param of params) {
      const [key, value] = param.trim().split('=')
      if (key === 'q') {
        const parsed = Number(value)
        weight = Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 0
      }
    }
    // `x-gzip` is gzip (RFC 9110, 8.4.1.3).
    q.set(name === 'x-gzip' ? 'gzip' : name, weight)
  }
  const star = q.get('*')
  // Identity not named is acceptable but last: `br;q=0.5` still means br rather than nothing.
  const weightOf = (coding: Coding) => q.get(coding) ?? star ?? (coding === 'identity' ? 0.001 : 0)
  let best: Coding = 'identity'
  let bestWeight = -1
  for (const coding of PREFERENCE) {
    if (!available.includes(coding)) continue
    const weight = weightOf(coding)
    if (weight > 0 && weight > bestWeight) {
      best = coding
      bestWeight = weight
    }
  }
  // Nothing acceptable (identity refused too): identity anyway, which RFC 9110 allows rather than a 406.
  return best
}

/** API answers smaller than this are sent as they are: the headers would eat most of the gain. */
export const API_COMPRESSION_THRESHOLD = 1024

/**
 * Per-request compression levels: Brotli quality 4 and gzip level 6 compress a few kilobytes of JSON in about half
 * a millisecond; the highest levels gain a few percent for many times the CPU (Brotli 11: 100 times). Brotli's
 * window is 256 KB rather than its 4 MB default: answers are rarely larger, back-references further away gain
 * little, and a smaller window is less memory to set up per call.
 */
const BROTLI_OPTIONS = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 4,
    [constants.BROTLI_PARAM_LGWIN]: 18,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
}

export function compressBytes(body: string | Uint8Array, coding: 'br' | 'gzip'): Uint8Array<ArrayBuffer> {
  const compressed = coding === 'br' ? brotliCompressSync(body, BROTLI_OPTIONS) : gzipSync(body, { level: 6 })
  // A Buffer from zlib owns a plain ArrayBuffer.
  return compressed as Uint8Array as Uint8Array<ArrayBuffer>
}

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i

/** Whether an API answer of this type is worth compressing: JSON and text, never files (PDFs, photos). */
export function isCompressibleType(contentType: string): boolean {
  return contentType.startsWith('application/json') || contentType.startsWith('text/')
}

/**
 * The body and headers of an API answer, compressed when the client accepts it and the body is at least the
 * threshold; headers already carrying a coding or `no-transform` are left alone. `Vary: Accept-Encoding` goes
 * with every answer whose coding depended on the request. Returns undefined when nothing changes.
 */
export function compressAnswer<Body extends string | Uint8Array<ArrayBuffer>>(
  body: Body,
  contentType: string,
  headers: Record<string, string>,
  acceptEncoding: () => string | null | undefined,
): { body: Body | Uint8Array<ArrayBuffer>; headers: Record<string, string> } | undefined {
  // Most answers are short: the cheapest test first (a string's UTF-8 length is at most 3 bytes a character).
  if (
    typeof body === 'string'
      ? body.length * 3 < API_COMPRESSION_THRESHOLD
      : body.byteLength < API_COMPRESSION_THRESHOLD
  )
    return undefined
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
  if (size < API_COMPRESSION_THRESHOLD || !isCompressibleType(contentType)) return undefined
  if (headers['content-encoding'] || NO_TRANSFORM.test(headers['cache-control'] ?? '')) return undefined
  const vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding'
  // Read only now: most answers never look at the request's headers again.
  const coding = negotiateCoding(acceptEncoding())
  if (coding === 'identity') return { body, headers: { ...headers, vary } }
  const compressed = compressBytes(body, coding)
  if (compressed.byteLength >= size) return { body, headers: { ...headers, vary } }
  return {
    body: compressed,
    headers: {
      ...headers,
      vary,
      'content-encoding': coding,
      'content-length': String(compressed.byteLength),
    },
  }
}
