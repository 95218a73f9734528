/**
 * Issue 19 item 7 over the API: banners, promo menu items and the installable-app entry, managed in the back
 * office (content.read to read, content.manage to write, every write in the audit trail) and shown by the public
 * calls exactly inside their Manila date windows, checked by moving the clock: the test app's own clock for the
 * spec's section-9 dates, the sandbox business clock (POST /private/back-office/sandbox/clock) for a banner
 * dated from tomorrow. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Banner, PromoItem, PublicBanner, SiteContent } from '../../domain/contract/content'
import { addDays, manilaDate } from '../../domain/pricing/manila-date'
import { auditEntry } from '../../server/db/schema-audit'
import { createTestApp } from '../support/app'
import { staffMember } from '../support/staff'
import { call, type TestApp } from './identity-helpers'
import { adminToken } from './journey-helpers'

const at = (day: string) => new Date(`${day}T12:00:00+08:00`)
const image = (name: string) => `/banners/${name}.svg`

describe('banners, promo menu items and the app link', () => {
  let t: TestApp
  let admin: string
  let support: string
  let underwriter: string
  beforeAll(async () => {
    t = await createTestApp()
    admin = await adminToken(t, 'content-admin-device')
    support = (await staffMember(t, 'support')).token
    underwriter = (await staffMember(t, 'underwriter')).token
  })
  afterAll(() => t.close())

  const publicBanners = async () => {
    const r = await call<PublicBanner[]>(t, 'GET', '/public/banners')
    expect(r.status).toBe(200)
    return r.body.data.map((b) => b.alt)
  }
  const site = async () => {
    const r = await call<SiteContent>(t, 'GET', '/public/site-content')
    expect(r.status).toBe(200)
    return r.body.data
  }
  /** The public answer on a given Manila day, by the app's own clock (read-only calls only: tokens keep real time). */
  const onDay = async <T>(day: string, read: () => Promise<T>) => {
    t.setClock(() => at(day))
    try {
      return await read()
    } finally {
      t.setClock(() => new Date())
    }
  }
  const moveInstanceClock = async (days: number) => {
    const r = await call<{ instanceToday?: string }>(
      t,
      'POST',
      '/private/back-office/sandbox/clock',
      { days },
      { token: admin },
    )
    expect(r.status, JSON.stringify(r.body.response)).toBe(200)
  }
  const businessToday = async () => (await site()).today

  it("seeds spec section 9's banners and shows each only inside its window", async () => {
    const alts = await onDay('2025-07-10', publicBanners)
    expect(alts).toHaveLength(2)
    expect(alts.some((a) => a.startsWith('Hiram: a loan'))).toBe(true)
    expect(alts.some((a) => a.startsWith('New to Hiram'))).toBe(true)
    // July 2025: the default banner steps aside for July's, both ends of the hide window included.
    for (const day of ['2025-07-11', '2025-07-31']) {
      const july = await onDay(day, publicBanners)
      expect(july.some((a) => a.startsWith('July 2025'))).toBe(true)
      expect(july.some((a) => a.startsWith('Hiram: a loan'))).toBe(false)
    }
    expect((await onDay('2025-08-01', publicBanners)).some((a) => a.startsWith('July 2025'))).toBe(false)
    // The new-client banner's gap between its two periods, and the default banner not yet started.
    expect(await onDay('2023-01-20', publicBanners)).toEqual([])
    expect(await onDay('2023-01-08', publicBanners)).toEqual([
      'New to Hiram? Your first loan, straight to your account or e-wallet',
    ])
  })

  it('seeds the raffle promo item (2023-11-15..2023-12-31) and the Android app, enabled', async () => {
    expect((await onDay('2023-11-14', site)).promoItems).toEqual([])
    expect((await onDay('2023-11-15', site)).promoItems.map((p) => [p.title, p.link])).toEqual([
      ['Holiday raffle', '/promo'],
    ])
    expect((await onDay('2023-12-31', site)).promoItems).toHaveLength(1)
    expect((await onDay('2024-01-01', site)).promoItems).toEqual([])
    expect((await site()).apps).toEqual([
      { platform: 'android', url: 'https://play.google.com/store/apps/details?id=ph.hiram.app' },
    ])
  })

  it('a banner dated from tomorrow appears when the business clock reaches it, and goes when its end is moved back', async () => {
    const today = await businessToday()
    expect(today).toBe(manilaDate(new Date()))
    const tomorrow = addDays(today, 1)
    const created = await call<Banner>(
      t,
      'POST',
      '/private/back-office/banners',
      {
        alt: 'Tomorrow only',
        desktop: image('default-desktop'),
        mobile: image('default-mobile'),
        startDate: tomorrow,
        endDate: tomorrow,
      },
      { token: admin },
    )
    expect(created.status, JSON.stringify(created.body.response)).toBe(201)
    expect(created.body.data).toMatchObject({
      startDate: tomorrow,
      endDate: tomorrow,
      hideStartDate: null,
      shownToday: false,
    })
    expect(await publicBanners()).not.toContain('Tomorrow only')

    await moveInstanceClock(1)
    expect(await businessToday()).toBe(tomorrow)
    expect(await publicBanners()).toContain('Tomorrow only')
    const listed = await call<Banner[]>(t, 'GET', '/private/back-office/banners', undefined, {
      token: support,
    })
    expect(listed.status).toBe(200)
    expect(listed.res.headers.get('x-total-count')).toBe('4')
    expect(listed.body.data.find((b) => b.id === created.body.data.id)?.shownToday).toBe(true)

    // Ended yesterday: gone on the next request (the public answer kept in memory was dropped by the write).
    const ended = await call<Banner>(
      t,
      'PUT',
      `/private/back-office/banners/${created.body.data.id}`,
      { ...created.body.data, startDate: today, endDate: today },
      { token: admin },
    )
    expect(ended.status, JSON.stringify(ended.body.response)).toBe(200)
    expect(ended.body.data.shownToday).toBe(false)
    expect(await publicBanners()).not.toContain('Tomorrow only')

    // And a hide window covering today hides it too.
    const hidden = await call<Banner>(
      t,
      'PUT',
      `/private/back-office/banners/${created.body.data.id}`,
      { ...created.body.data, endDate: null, hideStartDate: tomorrow, hideEndDate: addDays(tomorrow, 2) },
      { token: admin },
    )
    expect(hidden.status).toBe(200)
    expect(await publicBanners()).not.toContain('Tomorrow only')
    // The app's own clock moves the business day too (the sandbox offset, one day, comes on top of it): the
    // business day after tomorrow is still hidden, the third day after it shown again.
    expect(await onDay(addDays(today, 1), publicBanners)).not.toContain('Tomorrow only')
    expect(await onDay(addDays(today, 3), publicBanners)).toContain('Tomorrow only')

    const removed = await call(
      t,
      'DELETE',
      `/private/back-office/banners/${created.body.data.id}`,
      undefined,
      { token: admin },
    )
    expect(removed.status).toBe(200)
    expect(await publicBanners()).not.toContain('Tomorrow only')
    const again = await call(t, 'DELETE', `/private/back-office/banners/${created.body.data.id}`, undefined, {
      token: admin,
    })
    expect(again.status).toBe(404)

    // Every write left its entry in the audit trail, with the values before and after.
    const entries = await t.database.db
      .select()
      .from(auditEntry)
      .where(and(eq(auditEntry.entity, 'banner'), eq(auditEntry.entityId, String(created.body.data.id))))
    expect(entries.map((e) => [e.call.split(' ')[0], e.before === null, e.after === null])).toEqual([
      ['POST', true, false],
      ['PUT', false, false],
      ['PUT', false, false],
      ['DELETE', false, true],
    ])
  })

  it('promo menu items: added, listed, changed and removed, shown by their window', async () => {
    const today = await businessToday()
    const created = await call<PromoItem>(
      t,
      'POST',
      '/private/back-office/promo-items',
      { title: 'Summer promo', link: '/promo', startDate: today, endDate: addDays(today, 10) },
      { token: admin },
    )
    expect(created.status, JSON.stringify(created.body.response)).toBe(201)
    expect(created.body.data.shownToday).toBe(true)
    expect((await site()).promoItems.map((p) => p.title)).toEqual(['Summer promo'])
    const listed = await call<PromoItem[]>(t, 'GET', '/private/back-office/promo-items', undefined, {
      token: underwriter,
    })
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((p) => p.title)).toEqual(['Summer promo', 'Holiday raffle'])
    const later = await call<PromoItem>(
      t,
      'PUT',
      `/private/back-office/promo-items/${created.body.data.id}`,
      { title: 'Summer promo', link: 'https://hiram.ph/promo', startDate: addDays(today, 1), endDate: null },
      { token: admin },
    )
    expect(later.status).toBe(200)
    expect((await site()).promoItems).toEqual([])
    const removed = await call(
      t,
      'DELETE',
      `/private/back-office/promo-items/${created.body.data.id}`,
      undefined,
      {
        token: admin,
      },
    )
    expect(removed.status).toBe(200)
    const entries = await t.database.db.select().from(auditEntry).where(eq(auditEntry.entity, 'promo_item'))
    expect(entries).toHaveLength(3)
  })

  it('the app link: a platform added, another switched off', async () => {
    const ios = await call(
      t,
      'PUT',
      '/private/back-office/app-link/ios',
      { url: 'https://apps.apple.com/ph/app/hiram/id1', enabled: true },
      { token: admin },
    )
    expect(ios.status, JSON.stringify(ios.body.response)).toBe(200)
    const off = await call(
      t,
      'PUT',
      '/private/back-office/app-link/android',
      { url: 'https://play.google.com/store/apps/details?id=ph.hiram.app', enabled: false },
      { token: admin },
    )
    expect(off.status).toBe(200)
    expect((await site()).apps.map((a) => a.platform)).toEqual(['ios'])
    const listed = await call<{ platform: string; enabled: boolean }[]>(
      t,
      'GET',
      '/private/back-office/app-link',
      undefined,
      {
        token: support,
      },
    )
    expect(listed.body.data.map((a) => [a.platform, a.enabled])).toEqual([
      ['android', false],
      ['ios', true],
    ])
    const entries = await t.database.db.select().from(auditEntry).where(eq(auditEntry.entity, 'app_link'))
    expect(entries.map((e) => [e.entityId, e.before === null])).toEqual([
      ['ios', true],
      ['android', false],
    ])
    // Back as the spec has it.
    await call(
      t,
      'PUT',
      '/private/back-office/app-link/android',
      { url: 'https://play.google.com/store/apps/details?id=ph.hiram.app', enabled: true },
      { token: admin },
    )
    await call(
      t,
      'PUT',
      '/private/back-office/app-link/ios',
      { url: 'https://apps.apple.com/ph/app/hiram/id1', enabled: false },
      { token: admin },
    )
  })

  it('refuses unsound windows, unsafe links and unknown platforms, never with a 5xx', async () => {
    const base = { alt: 'A banner', desktop: image('a'), mobile: image('b'), startDate: '2025-01-02' }
    const cases: [unknown, string][] = [
      [{ ...base, endDate: '2025-01-01' }, 'endDate'],
      [{ ...base, hideStartDate: '2025-02-01' }, 'hideEndDate'],
      [{ ...base, startDate: '2025-02-30' }, 'startDate'],
      [{ ...base, desktop: 'javascript:alert(1)' }, 'desktop'],
      [{ ...base, mobile: '//evil.example/x.svg' }, 'mobile'],
      [{ ...base, alt: '' }, 'alt'],
    ]
    for (const [body, path] of cases) {
      const r = await call(t, 'POST', '/private/back-office/banners', body, { token: admin })
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.response.violations?.map((v) => v.propertyPath)).toContain(path)
    }
    const noSuch = await call(
      t,
      'PUT',
      '/private/back-office/banners/99999999',
      { ...base, endDate: null },
      { token: admin },
    )
    expect(noSuch.status).toBe(404)
    const platform = await call(
      t,
      'PUT',
      '/private/back-office/app-link/windows',
      { url: 'https://x.example', enabled: true },
      { token: admin },
    )
    expect(platform.status).toBe(400)
    const http = await call(
      t,
      'PUT',
      '/private/back-office/app-link/ios',
      { url: 'http://x.example', enabled: true },
      { token: admin },
    )
    expect(http.status).toBe(400)
  })

  it('support and underwriters may read and not write (403); nobody unauthenticated may do either', async () => {
    const body = { alt: 'Not theirs', desktop: image('a'), mobile: image('b'), startDate: '2025-01-01' }
    for (const token of [support, underwriter]) {
      expect((await call(t, 'GET', '/private/back-office/banners', undefined, { token })).status).toBe(200)
      expect((await call(t, 'GET', '/private/back-office/app-link', undefined, { token })).status).toBe(200)
      expect((await call(t, 'POST', '/private/back-office/banners', body, { token })).status).toBe(403)
      expect((await call(t, 'PUT', '/private/back-office/banners/1', body, { token })).status).toBe(403)
      expect((await call(t, 'DELETE', '/private/back-office/banners/1', undefined, { token })).status).toBe(
        403,
      )
      expect(
        (
          await call(
            t,
            'POST',
            '/private/back-office/promo-items',
            { title: 'No', link: '/promo', startDate: '2025-01-01' },
            { token },
          )
        ).status,
      ).toBe(403)
      expect(
        (
          await call(
            t,
            'PUT',
            '/private/back-office/app-link/android',
            { url: 'https://x.example', enabled: false },
            { token },
          )
        ).status,
      ).toBe(403)
    }
    expect((await call(t, 'GET', '/private/back-office/banners')).status).toBe(401)
    expect((await site()).apps.map((a) => a.platform)).toEqual(['android'])
  })
})
