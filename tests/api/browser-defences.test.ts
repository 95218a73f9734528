/**
 * Browser-side defences of the API (issue 13, item 6; docs/decisions/0002): security headers on every answer,
 * cross-site mutating requests refused, JSON routes taking only JSON.
 */
import { describe, expect, it } from 'vitest'
import { API_CSP, HSTS, PERMISSIONS_POLICY, REFERRER_POLICY } from '../../server/http/security-headers'
import { lightApp } from './light-app'

const json = { 'content-type': 'application/json' }
const post = (headers: Record<string, string>, body = '{"text":"a"}') =>
  ({ method: 'POST', headers: { ...json, ...headers }, body }) as const

describe('security headers on API answers', () => {
  const app = lightApp()

  it('every answer carries them: success, refusal, unknown path, validation error', async () => {
    const answers = [
      await app.request('/web/public/ping'),
      await app.request('/web/public/echo', post({}, '{"text":1}')),
      await app.request('/web/nowhere'),
      await app.request('/web/public/echo', post({ 'sec-fetch-site': 'cross-site' })),
    ]
    expect(answers.map((a) => a.status)).toEqual([200, 400, 404, 403])
    for (const answer of answers) {
      expect(answer.headers.get('content-security-policy')).toBe(API_CSP)
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
      expect(answer.headers.get('referrer-policy')).toBe(REFERRER_POLICY)
      expect(answer.headers.get('permissions-policy')).toBe(PERMISSIONS_POLICY)
    }
    expect(API_CSP).toContain("frame-ancestors 'none'")
    expect(PERMISSIONS_POLICY).toContain('camera=(self)')
    expect(PERMISSIONS_POLICY).toContain('geolocation=(self)')
    expect(PERMISSIONS_POLICY).toContain('microphone=()')
  })

  it('HSTS only when the request came over TLS', async () => {
    expect((await app.request('/web/public/ping')).headers.get('strict-transport-security')).toBeNull()
    // Without a trusted proxy, a forwarded scheme is anyone's claim.
    const claimed = await app.request('/web/public/ping', { headers: { 'x-forwarded-proto': 'https' } })
    expect(claimed.headers.get('strict-transport-security')).toBeNull()
    const proxied = lightApp({ trustProxy: true })
    const tls = await proxied.request('/web/public/ping', { headers: { 'x-forwarded-proto': 'https' } })
    expect(tls.headers.get('strict-transport-security')).toBe(HSTS)
    const plain = await proxied.request('/web/public/ping', { headers: { 'x-forwarded-proto': 'http' } })
    expect(plain.headers.get('strict-transport-security')).toBeNull()
  })
})

describe('cross-site mutating requests', () => {
  const app = lightApp()

  it('refuses Sec-Fetch-Site cross-site with a 403 envelope', async () => {
    const res = await app.request('/web/public/echo', post({ 'sec-fetch-site': 'cross-site' }))
    expect(res.status).toBe(403)
    expect((await res.json()).response).toMatchObject({ status: 403, code: 'crossSiteRequest' })
  })

  it('refuses an Origin naming another origin, or none (`null`)', async () => {
    for (const origin of [
      'https://evil.example',
      'http://localhost.evil.example',
      'null',
      'http://localhost:81',
    ]) {
      const res = await app.request('/web/public/echo', post({ origin }))
      expect(res.status, origin).toBe(403)
    }
  })

  it('refuses every mutating method and even unknown paths, but not reads', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await app.request('/web/public/echo', {
        method,
        headers: { origin: 'https://evil.example' },
      })
      expect(res.status, method).toBe(403)
    }
    const unknown = await app.request('/web/nowhere', post({ origin: 'https://evil.example' }))
    expect(unknown.status).toBe(403)
    const read = await app.request('/web/public/ping', {
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    })
    expect(read.status).toBe(200)
  })

  it('lets through its own origin, same-site fetches, and callers that send neither header', async () => {
    // app.request addresses http://localhost.
    expect((await app.request('/web/public/echo', post({ origin: 'http://localhost' }))).status).toBe(200)
    expect((await app.request('/web/public/echo', post({ origin: 'http://LOCALHOST' }))).status).toBe(200)
    const browser = post({ origin: 'http://localhost', 'sec-fetch-site': 'same-origin' })
    expect((await app.request('/web/public/echo', browser)).status).toBe(200)
    expect((await app.request('/web/public/echo', post({}))).status).toBe(200)
  })

  it('behind a trusted proxy, compares with the forwarded host and scheme', async () => {
    const proxied = lightApp({ trustProxy: true })
    const forwarded = { 'x-forwarded-host': 'hiram.ph', 'x-forwarded-proto': 'https' }
    const ours = await proxied.request('/web/public/echo', post({ ...forwarded, origin: 'https://hiram.ph' }))
    expect(ours.status).toBe(200)
    const downgraded = await proxied.request(
      '/web/public/echo',
      post({ ...forwarded, origin: 'http://hiram.ph' }),
    )
    expect(downgraded.status).toBe(403)
    const other = await proxied.request(
      '/web/public/echo',
      post({ ...forwarded, origin: 'https://evil.example' }),
    )
    expect(other.status).toBe(403)
  })
})

describe('content types', () => {
  const app = lightApp()

  it('a JSON route refuses a body of another type with 415, before reading it', async () => {
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await app.request('/web/public/echo', post({ 'content-type': type }))
      expect(res.status, type).toBe(415)
      expect((await res.json()).response.code).toBe('unsupportedMediaType')
    }
  })

  it('a non-empty body without any type is refused too', async () => {
    const res = await app.request('/web/public/echo', {
      method: 'POST',
      body: new Blob(['{"text":"a"}']),
    })
    expect(res.status).toBe(415)
  })

  it('accepts application/json with parameters, and an empty body with no type', async () => {
    const charset = await app.request(
      '/web/public/echo',
      post({ 'content-type': 'Application/JSON; charset=utf-8' }),
    )
    expect(charset.status).toBe(200)
    expect((await app.request('/web/public/nobody', { method: 'POST' })).status).toBe(200)
    expect((await app.request('/web/public/echo', { method: 'POST' })).status).toBe(200)
    const declaredEmpty = await app.request('/web/public/nobody', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'content-length': '0' },
    })
    expect(declaredEmpty.status).toBe(200)
  })

  it('a route without a body still refuses a body of the wrong type', async () => {
    const res = await app.request('/web/public/nobody', post({ 'content-type': 'text/plain' }))
    expect(res.status).toBe(415)
  })

  it('a multipart route takes multipart only', async () => {
    const res = await app.request('/web/public/upload', post({}))
    expect(res.status).toBe(415)
    const form = new FormData()
    form.append('type', 'front')
    expect((await app.request('/web/public/upload', { method: 'POST', body: form })).status).toBe(200)
  })
})
