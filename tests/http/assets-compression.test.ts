/**
 * Compressed, cacheable assets (issue 21, item 1; docs/decisions/0043). The build's copies are made by the build's
 * own step (scripts/vite-precompress.ts) on a small fixture of the files a build writes; every text file is then
 * served in the coding the request accepts (br > gzip > identity, q=0 honoured) with the right length and
 * caching, HTML with no-cache, an ETag and 304, and the API's JSON compressed from 1 KB on, files never.
 * HIRAM_BUILD_DIR=<a real build> runs the file checks against that build instead of the fixture.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, relative } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineContract } from '../../domain/contract/define'
import { COMPRESSIBLE_EXTENSIONS, precompressDirectory } from '../../scripts/vite-precompress'
import { type Coding, negotiateCoding } from '../../server/http/compression'
import { binary, ok, setHeader } from '../../server/http/envelope'
import { startHttpServer } from '../../server/http/node-server'
import { type AnyRoute, implement } from '../../server/http/route'
import { lightApp } from '../api/light-app'

const given = process.env.HIRAM_BUILD_DIR
const dist = given ?? mkdtempSync(join(tmpdir(), 'hiram-assets-'))

// What a build writes: hashed assets under assets/, files copied from public/, the pages' list, the page.
function writeFixture() {
  mkdirSync(join(dist, 'assets'))
  mkdirSync(join(dist, 'banners'))
  const script = `export const answer = () => ${JSON.stringify(Array.from({ length: 300 }, (_, i) => `line ${i}`))}\n`
  writeFileSync(join(dist, 'assets/index-B4x9Qk2L.js'), script)
  writeFileSync(join(dist, 'assets/index-B4x9Qk2L.js.map'), JSON.stringify({ version: 3, sources: [script] }))
  writeFileSync(join(dist, 'assets/index-Cq1_x-9z.css'), 'body { margin: 0; padding: 0; } '.repeat(80))
  writeFileSync(
    join(dist, 'assets/logo-D5e6f7g8.svg'),
    `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(200)}</svg>`,
  )
  writeFileSync(
    join(dist, 'banners/default-mobile.svg'),
    `<svg xmlns="http://www.w3.org/2000/svg">${'<a/>'.repeat(300)}</svg>`,
  )
  // Too small to gain: the build keeps no copy and the server sends the file itself.
  writeFileSync(join(dist, 'favicon.svg'), '<svg/>')
  writeFileSync(
    // Not manifest.webmanifest: that path is the server's own, built per request (server/http/manifest.ts).
    join(dist, 'app.webmanifest'),
    JSON.stringify({ name: 'Hiram', icons: [], description: 'x'.repeat(600) }),
  )
  writeFileSync(join(dist, 'robots.txt'), 'User-agent: *\nAllow: /\n'.repeat(40))
  writeFileSync(
    join(dist, 'assets/photo-E1f2g3h4.png'),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, ...Array(2000).fill(7)]),
  )
  writeFileSync(join(dist, 'routes.json'), JSON.stringify(['/', '/about']))
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hiram</title><script>window.x=1</script><script type="module" src="/assets/index-B4x9Qk2L.js"></script><link rel="stylesheet" href="/assets/index-Cq1_x-9z.css"></head><body><div id="root"></div>${'<p>Fast loans.</p>'.repeat(60)}</body></html>`,
  )
}

const app = () => lightApp({ staticDir: dist, routes: apiRoutes })

/** Every file of the build the server sends as it is, by URL path (index.html is the page, checked apart). */
function builtFiles(): string[] {
  return readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter(
      (file) => statSync(join(dist, file)).isFile() && !/\.(br|gz)$/.test(file) && file !== 'index.html',
    )
    .map((file) => `/${relative(dist, join(dist, file)).split('\\').join('/')}`)
}

const decode = (bytes: Buffer, coding: string | null) =>
  coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes

beforeAll(async () => {
  if (given) return
  writeFixture()
  await precompressDirectory(dist)
})
afterAll(() => {
  if (!given) rmSync(dist, { recursive: true, force: true })
})

describe('the build', () => {
  it('writes a Brotli and a gzip copy of every text file, only where it is smaller', () => {
    for (const path of builtFiles().concat('/index.html')) {
      const file = join(dist, path)
      const text = COMPRESSIBLE_EXTENSIONS.includes(extname(file))
      const size = statSync(file).size
      for (const suffix of ['.br', '.gz']) {
        const copy = `${file}${suffix}`
        if (!text) expect(existsSync(copy), copy).toBe(false)
        else if (existsSync(copy)) {
          expect(statSync(copy).size, copy).toBeLessThan(size)
          const decoded =
            suffix === '.br' ? brotliDecompressSync(readFileSync(copy)) : gunzipSync(readFileSync(copy))
          expect(decoded.equals(readFileSync(file)), copy).toBe(true)
        }
      }
    }
    if (!given) {
      expect(existsSync(join(dist, 'assets/index-B4x9Qk2L.js.br'))).toBe(true)
      expect(existsSync(join(dist, 'favicon.svg.br'))).toBe(false)
    }
  })
})

describe('files of the build', () => {
  it('are sent in the best coding the request accepts, with their length, type and Vary', async () => {
    const server = app()
    const cases: [string | undefined, string][] = [
      ['br, gzip, deflate', 'br'],
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['*', 'br'],
      ['br;q=0, gzip;q=0', 'identity'],
      ['identity', 'identity'],
      [undefined, 'identity'],
    ]
    let compressed = 0
    for (const path of builtFiles()) {
      const original = readFileSync(join(dist, path))
      const text = COMPRESSIBLE_EXTENSIONS.includes(extname(path))
      for (const [accept, wanted] of cases) {
        const res = await server.request(path, { headers: accept ? { 'accept-encoding': accept } : {} })
        const what = `${path} with ${accept ?? 'no Accept-Encoding'}`
        expect(res.status, what).toBe(200)
        const bytes = Buffer.from(await res.arrayBuffer())
        const coding = res.headers.get('content-encoding')
        expect(res.headers.get('content-length'), what).toBe(String(bytes.length))
        expect(decode(bytes, coding).equals(original), what).toBe(true)
        if (!text) {
          expect(coding, what).toBeNull()
          continue
        }
        expect(res.headers.get('vary'), what).toBe('Accept-Encoding')
        // The wanted coding when the build kept that copy; else the next the request accepts among those it kept.
        const kept: Coding[] = ['identity']
        if (existsSync(join(dist, `${path}.br`))) kept.push('br')
        if (existsSync(join(dist, `${path}.gz`))) kept.push('gzip')
        const expected = kept.includes(wanted as Coding) ? wanted : negotiateCoding(accept, kept)
        expect(coding ?? 'identity', what).toBe(expected)
        if (coding) compressed++
      }
    }
    expect(compressed).toBeGreaterThan(0)
  })

  it('are cached for a year when named by their content, else for 5 minutes and revalidated by ETag', async () => {
    const server = app()
    for (const path of builtFiles()) {
      const res = await server.request(path, { headers: { 'accept-encoding': 'br' } })
      const hashed = /^\/assets\/.+-[A-Za-z0-9_-]{8,}\.\w+$/.test(path)
      if (hashed) {
        expect(res.headers.get('cache-control'), path).toBe('public, max-age=31536000, immutable')
        continue
      }
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=300')
      const etag = res.headers.get('etag')!
      expect(etag, path).toMatch(/^W\/".+"$/)
      const again = await server.request(path, {
        headers: { 'accept-encoding': 'br', 'if-none-match': etag },
      })
      expect(again.status, path).toBe(304)
      expect(await again.text()).toBe('')
    }
    if (!given) {
      expect(builtFiles()).toContain('/assets/index-B4x9Qk2L.js')
      expect(builtFiles()).toContain('/favicon.svg')
    }
  })

  it('falls back to the file itself when a rebuild removed the copy it had found', async () => {
    if (given) return
    const server = app()
    const path = '/banners/default-mobile.svg'
    const copy = join(dist, `${path}.br`)
    const first = await server.request(path, { headers: { 'accept-encoding': 'br' } })
    expect(first.headers.get('content-encoding')).toBe('br')
    const saved = readFileSync(copy)
    rmSync(copy)
    try {
      const again = await server.request(path, { headers: { 'accept-encoding': 'br' } })
      expect(again.status).toBe(200)
      expect(again.headers.get('content-encoding')).toBeNull()
      expect(Buffer.from(await again.arrayBuffer()).equals(readFileSync(join(dist, path)))).toBe(true)
    } finally {
      writeFileSync(copy, saved)
    }
  })

  it('keeps the security headers, and a missing file is still a short 404', async () => {
    const server = app()
    const js = await server.request(builtFiles().find((p) => p.endsWith('.js'))!, {
      headers: { 'accept-encoding': 'br' },
    })
    expect(js.headers.get('x-content-type-options')).toBe('nosniff')
    expect(js.headers.get('content-security-policy')).toContain("default-src 'none'")
    const missing = await server.request('/assets/gone-AAAAAAAA.js', { headers: { 'accept-encoding': 'br' } })
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-encoding')).toBeNull()
  })
})

describe('the HTML', () => {
  const html = () => readFileSync(join(dist, 'index.html'))

  it('is sent compressed with no-cache, an ETag and Vary on every page and the 404 page', async () => {
    const server = app()
    for (const [path, status] of [
      ['/', 200],
      ['/about', 200],
      ['/index.html', 200],
      ['/nope', 404],
    ] as const) {
      for (const [accept, coding] of [
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        ['', null],
      ] as const) {
        const res = await server.request(path, { headers: { 'accept-encoding': accept } })
        const what = `${path} with ${accept}`
        expect(res.status, what).toBe(status)
        expect(res.headers.get('content-type'), what).toBe('text/html; charset=utf-8')
        expect(res.headers.get('cache-control'), what).toBe('no-cache')
        expect(res.headers.get('vary'), what).toBe('Accept-Encoding')
        expect(res.headers.get('etag'), what).toMatch(/^W\/".+"$/)
        expect(res.headers.get('content-encoding'), what).toBe(coding)
        expect(res.headers.get('content-security-policy'), what).toContain("script-src 'self'")
        const bytes = Buffer.from(await res.arrayBuffer())
        expect(res.headers.get('content-length'), what).toBe(String(bytes.length))
        expect(decode(bytes, coding).equals(html()), what).toBe(true)
      }
    }
  })

  it('answers 304 while the ETag matches, in any coding, and the page again once it changed', async () => {
    const server = app()
    const first = await server.request('/about', { headers: { 'accept-encoding': 'br' } })
    const etag = first.headers.get('etag')!
    for (const ifNoneMatch of [etag, `"other", ${etag}`, etag.replace(/^W\//, ''), '*']) {
      const res = await server.request('/about', {
        headers: { 'accept-encoding': 'gzip', 'if-none-match': ifNoneMatch },
      })
      expect(res.status, ifNoneMatch).toBe(304)
      expect(await res.text()).toBe('')
      expect(res.headers.get('etag')).toBe(etag)
      expect(res.headers.get('cache-control')).toBe('no-cache')
    }
    const stale = await server.request('/about', { headers: { 'if-none-match': 'W/"old"' } })
    expect(stale.status).toBe(200)
    // The 404 page is never a 304: its status is the answer.
    const missing = await server.request('/nope', { headers: { 'if-none-match': etag } })
    expect(missing.status).toBe(404)
  })
})

// API routes of the probe app: JSON below and above the threshold, a file, an answer that must not be transformed.
const big = Array.from({ length: 100 }, (_, i) => ({ id: i, name: `item ${i}` }))
const pdf = new Uint8Array(
  Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4000, 0x20), Buffer.from('%%EOF\n')]),
)
const probe = (path: string, handler: Parameters<typeof implement>[1]) =>
  implement(
    defineContract({ method: 'get', path, summary: path, tags: ['probe'], access: 'public' }),
    handler,
  )
const apiRoutes: AnyRoute[] = [
  probe('/public/small', (c) => ok(c, { pong: true })),
  probe('/public/large', (c) => ok(c, big)),
  probe('/public/file.pdf', (c) =>
    binary(c, pdf as Uint8Array<ArrayBuffer>, {
      'content-type': 'application/pdf',
      'content-disposition': 'inline; filename="file.pdf"',
    }),
  ),
  probe('/public/raw', (c) => {
    setHeader(c, 'cache-control', 'no-store, no-transform')
    return ok(c, big)
  }),
]

describe('API answers', () => {
  it('compress JSON of 1 KB and more in the coding the client accepts, with Vary and the length', async () => {
    const server = app()
    const text = JSON.stringify({ success: true, data: big, response: { status: 200 } })
    expect(text.length).toBeGreaterThan(1024)
    for (const [accept, coding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0', null],
      ['', null],
    ] as const) {
      const res = await server.request('/web/public/large', { headers: { 'accept-encoding': accept } })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-encoding'), accept).toBe(coding)
      expect(res.headers.get('vary'), accept).toBe('Accept-Encoding')
      expect(res.headers.get('content-type')).toBe('application/json')
      expect(res.headers.get('cache-control')).toBe('no-store')
      const bytes = Buffer.from(await res.arrayBuffer())
      if (coding) {
        expect(res.headers.get('content-length')).toBe(String(bytes.length))
        expect(bytes.length).toBeLessThan(text.length / 3)
      }
      expect(decode(bytes, coding).toString()).toBe(text)
    }
  })

  it('send small JSON, files and no-transform answers as they are', async () => {
    const server = app()
    const small = await server.request('/web/public/small', { headers: { 'accept-encoding': 'br, gzip' } })
    expect(small.headers.get('content-encoding')).toBeNull()
    expect(small.headers.get('vary')).toBeNull()
    expect(await small.json()).toEqual({ success: true, data: { pong: true }, response: { status: 200 } })
    const file = await server.request('/web/public/file.pdf', { headers: { 'accept-encoding': 'br, gzip' } })
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/pdf')
    expect(file.headers.get('content-encoding')).toBeNull()
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true)
    const raw = await server.request('/web/public/raw', { headers: { 'accept-encoding': 'br, gzip' } })
    expect(raw.headers.get('content-encoding')).toBeNull()
    expect((await raw.json()).data).toHaveLength(100)
  })
})

describe('over the production HTTP server', () => {
  /** A raw request: no client that decodes for us, so the bytes and headers are what went on the wire. */
  function get(port: number, path: string, headers: Record<string, string>) {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          )
        })
        req.on('error', reject)
        req.end()
      },
    )
  }

  it('sends the compressed bytes with their own length, not chunked', async () => {
    const server = startHttpServer(app(), { port: 0, hostname: '127.0.0.1' })
    await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as AddressInfo
    try {
      for (const path of ['/', builtFiles().find((p) => p.endsWith('.js'))!, '/web/public/large']) {
        const res = await get(port, path, { 'accept-encoding': 'gzip, deflate, br' })
        expect(res.status, path).toBe(200)
        expect(res.headers['content-encoding'], path).toBe('br')
        expect(res.headers['content-length'], path).toBe(String(res.body.length))
        expect(res.headers['transfer-encoding'], path).toBeUndefined()
        expect(brotliDecompressSync(res.body).length, path).toBeGreaterThan(res.body.length)
      }
      const pdfAnswer = await get(port, '/web/public/file.pdf', { 'accept-encoding': 'gzip, br' })
      expect(pdfAnswer.headers['content-encoding']).toBeUndefined()
      expect(pdfAnswer.body.equals(Buffer.from(pdf))).toBe(true)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('Accept-Encoding', () => {
  it('is read as RFC 9110 says', () => {
    expect(negotiateCoding('br;q=0.8')).toBe('br')
    expect(negotiateCoding('identity;q=1, br;q=0.5')).toBe('identity')
    expect(negotiateCoding('*;q=0')).toBe('identity')
    expect(negotiateCoding('x-gzip')).toBe('gzip')
    expect(negotiateCoding('BR;Q=0.5, GZIP;Q=0.6')).toBe('gzip')
    expect(negotiateCoding('br;q=bogus, gzip')).toBe('gzip')
    expect(negotiateCoding('deflate, zstd')).toBe('identity')
    expect(negotiateCoding('br, gzip', ['identity', 'gzip'])).toBe('gzip')
  })
})
