/**
 * Issue 22 item 3 over HTTP: GET /manifest.webmanifest answers the web app manifest as application/manifest+json,
 * with the back office's Android entry as its related Play app, following each change of the entry
 * (PUT /private/back-office/app-link/android: another listing, switched off, a non-Play address), cached briefly
 * and revalidated by ETag, with the site's security headers; with a built app beside it, neither a file nor the
 * SPA's fallback answers in its place. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WebManifest } from '../../server/http/manifest'
import { createTestApp } from '../support/app'
import { call, type TestApp } from './identity-helpers'
import { adminToken } from './journey-helpers'

const SEEDED = 'https://play.google.com/store/apps/details?id=ph.hiram.app'

describe('the web app manifest', () => {
  let t: TestApp
  let admin: string
  const staticDir = mkdtempSync(join(tmpdir(), 'hiram-manifest-'))
  beforeAll(async () => {
    // A built app beside the API: index.html, and a stray manifest file the server's own must win over.
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>')
    writeFileSync(join(staticDir, 'manifest.webmanifest'), '{"name":"a stale file"}')
    t = await createTestApp({}, { staticDir })
    admin = await adminToken(t, 'manifest-admin-device')
  })
  afterAll(async () => {
    await t.close()
    rmSync(staticDir, { recursive: true, force: true })
  })

  const manifest = async (headers: Record<string, string> = {}) => {
    const res = await t.request('/manifest.webmanifest', { headers })
    return { res, body: res.status === 200 ? ((await res.json()) as WebManifest) : undefined }
  }
  const setAndroid = async (url: string, enabled: boolean) => {
    const r = await call(
      t,
      'PUT',
      '/private/back-office/app-link/android',
      { url, enabled },
      { token: admin },
    )
    expect(r.status, JSON.stringify(r.body.response)).toBe(200)
  }

  it('answers the manifest, with the seeded Android app (spec section 9: Android, enabled) as its related app', async () => {
    const { res, body } = await manifest()
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/manifest+json')
    expect(res.headers.get('cache-control')).toBe('public, max-age=300')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(body).toMatchObject({ short_name: 'Hiram', start_url: '/', display: 'standalone' })
    expect(body?.related_applications).toEqual([{ platform: 'play', url: SEEDED, id: 'ph.hiram.app' }])
    expect(body?.prefer_related_applications).toBe(false)
  })

  it('revalidates by ETag: 304 while the entry is unchanged, a new manifest once it changes', async () => {
    const first = await manifest()
    const etag = first.res.headers.get('etag')!
    expect(etag).toMatch(/^".+"$/)
    const again = await manifest({ 'if-none-match': etag })
    expect(again.res.status).toBe(304)
    expect(await again.res.text()).toBe('')

    await setAndroid('https://play.google.com/store/apps/details?id=ph.hiram.lending', true)
    const changed = await manifest({ 'if-none-match': etag })
    expect(changed.res.status).toBe(200)
    expect(changed.res.headers.get('etag')).not.toBe(etag)
    expect(changed.body?.related_applications).toEqual([
      {
        platform: 'play',
        url: 'https://play.google.com/store/apps/details?id=ph.hiram.lending',
        id: 'ph.hiram.lending',
      },
    ])
  })

  it('names no related app once the Android entry is switched off, or when it is not a Play listing', async () => {
    await setAndroid(SEEDED, false)
    expect((await manifest()).body?.related_applications).toEqual([])
    await setAndroid('https://hiram.ph/downloads/hiram.apk', true)
    const { body } = await manifest()
    expect(body?.related_applications).toEqual([])
    // Still a manifest that makes the site installable.
    expect(body?.icons.filter((i) => i.type === 'image/png').map((i) => i.sizes)).toEqual([
      '192x192',
      '512x512',
      '192x192',
      '512x512',
    ])
    await setAndroid(SEEDED, true)
    expect((await manifest()).body?.related_applications).toHaveLength(1)
  })

  it('is not shadowed by a file of the build or the SPA fallback, and a HEAD answers its headers', async () => {
    const { res, body } = await manifest()
    expect(body?.name).not.toBe('a stale file')
    expect(res.headers.get('content-type')).not.toContain('text/html')
    const head = await t.request('/manifest.webmanifest', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('application/manifest+json')
    // The SPA still answers its pages beside it.
    const page = await t.request('/')
    expect(page.headers.get('content-type')).toContain('text/html')
  })
})
