/**
 * The web app's fallback (issue 13, items 3, 6 and 11): pages the client router knows answer 200, other paths
 * the 404 page with HTTP 404, undecodable paths 400, never 500; every answer carries the security headers, and
 * the page's CSP allows its inline scripts by hash only. The route list is the one the build writes
 * (scripts/vite-client-routes.ts) from the router's generated tree, checked here against src/routes itself.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { clientRoutePaths } from '../../scripts/vite-client-routes'
import { clientRouteMatcher } from '../../server/http/spa'
import { lightApp } from './light-app'

const root = join(import.meta.dirname, '../..')
const routePaths = clientRoutePaths(readFileSync(join(root, 'src/route-tree.gen.ts'), 'utf8'))

/** The full path TanStack Router gives a file under src/routes (flat and directory routes, no layouts). */
function fullPathOf(file: string): string | undefined {
  const parts = file.replace(/\.tsx?$/, '').split(sep)
  const name = parts.pop()!
  if (name === '__root' || name.startsWith('-')) return undefined
  const dir = parts.length ? `/${parts.join('/')}` : ''
  if (name === 'route') return dir || '/'
  if (name === 'index') return `${dir}/`
  // A flat file name: `clients_.$id` is /clients/$id, not nested in the clients page (a trailing _ un-nests).
  return `${dir}/${name
    .split('.')
    .map((segment) => segment.replace(/_$/, ''))
    .join('/')}`
}

describe('the client route list', () => {
  it('holds every page file under src/routes, and nothing else', () => {
    const dir = join(root, 'src/routes')
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f))
    const fromFiles = files.map((file) => fullPathOf(relative(dir, join(dir, file)))).filter(Boolean)
    expect(new Set(routePaths)).toEqual(new Set(fromFiles))
  })

  it('matches static, dynamic and optional segments, and nothing the router does not know', () => {
    const isPage = clientRouteMatcher(routePaths)
    for (const path of [
      '/',
      '/about',
      '/about/',
      '/ABOUT',
      '/admin/',
      '/application/apply',
      '/repay/ewallets/gcash',
      '/repay/ewallets/',
      '/repay/payment-centers/7-eleven',
      '/profile/rollover',
      '/profile/rollover/42',
    ])
      expect(isPage(path), path).toBe(true)
    for (const path of [
      '/nope',
      '/about/more',
      '/repay/ewallets/gcash/extra',
      '/profile/rollover/42/43',
      '/application/apply.js',
      '//about',
      '/web',
    ])
      expect(isPage(path), path).toBe(false)
  })
})

describe('serving the built app', () => {
  const inline = "window.__hiram = 'inline';"
  const dist = mkdtempSync(join(tmpdir(), 'hiram-spa-'))
  mkdirSync(join(dist, 'assets'))
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><html><head><script>${inline}</script><script type="module" src="/assets/app-B4x9Qk2L.js"></script></head><body><div id="root"></div></body></html>`,
  )
  writeFileSync(join(dist, 'assets/app-B4x9Qk2L.js'), 'console.log(1)')
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  writeFileSync(join(dist, 'routes.json'), JSON.stringify(routePaths))
  const app = lightApp({ staticDir: dist })
  afterAll(() => rmSync(dist, { recursive: true, force: true }))

  it('answers a known page with the app and 200', async () => {
    for (const path of ['/', '/about', '/repay/ewallets/gcash', '/profile/rollover', '/index.html']) {
      const res = await app.request(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type')).toContain('text/html')
      expect(await res.text()).toContain('<div id="root">')
    }
  })

  it('answers an unknown page with the app (its 404 page) and HTTP 404', async () => {
    for (const path of ['/nope', '/about/more', '/repay/ewallets/gcash/extra']) {
      const res = await app.request(path)
      expect(res.status, path).toBe(404)
      expect(await res.text()).toContain('<div id="root">')
    }
  })

  it('answers a missing file with a short 404, not the app', async () => {
    const res = await app.request('/assets/app-0.js')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('text/plain')
  })

  it('answers undecodable paths with 400, never 500', async () => {
    for (const path of ['/%', '/%E0%A4%A', '/repay/ewallets/%zz', '/a%00b']) {
      const res = await app.request(path)
      expect(res.status, path).toBe(400)
    }
  })

  it('serves files, and never outside the build', async () => {
    const js = await app.request('/assets/app-B4x9Qk2L.js')
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toContain('text/javascript')
    expect(js.headers.get('cache-control')).toContain('immutable')
    const outside = await app.request('/..%2f..%2fetc%2fpasswd')
    expect(outside.status).toBe(404)
  })

  it('sends the page a CSP allowing its inline scripts by hash only, and the other security headers', async () => {
    const res = await app.request('/about')
    const csp = res.headers.get('content-security-policy')!
    const hash = createHash('sha256').update(inline).digest('base64')
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`)
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain('img-src')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(res.headers.get('permissions-policy')).toContain('camera=(self)')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('strict-transport-security')).toBeNull()
    for (const path of ['/favicon.svg', '/nope', '/%', '/assets/none.js']) {
      const other = await app.request(path)
      expect(other.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(other.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'")
    }
  })

  it('sends HSTS behind a trusted TLS proxy', async () => {
    const proxied = lightApp({ staticDir: dist, trustProxy: true })
    const res = await proxied.request('/about', { headers: { 'x-forwarded-proto': 'https' } })
    expect(res.headers.get('strict-transport-security')).toContain('max-age=')
  })

  it('paths outside /web that no GET serves still get the headers', async () => {
    const res = await app.request('/about', { method: 'POST' })
    expect(res.status).toBe(404)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })
})
