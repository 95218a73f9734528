/**
 * Issue 19 item 7, "Done when": a banner appears and disappears with its dates, in a real browser. An administrator
 * adds a banner on /admin/content whose window starts today (the server's Manila business day, read from the
 * public call): the home page shows it; a banner dated from tomorrow is not shown; the administrator then moves
 * the first banner's end date to yesterday and the home page no longer shows it. Moving the instance's business
 * clock would disturb the specs running beside this one (they move only their own clients' clocks), so the clock
 * move is covered by tests/api/content.test.ts; here the dates move instead. At 360 px, checked with axe.
 */
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Browser, Page } from '@playwright/test'
import { formatDate } from '../domain/format'
import { addDays } from '../domain/pricing/manila-date'
import { adminToken, presentDevice, submitBackOfficeLogin } from './clients'
import { expect, test } from './fixtures'
import { E2E_ADMIN_DEVICE_ID } from './sandbox'

test.use({ viewport: { width: 360, height: 740 } })

let admin: string

test.beforeAll(async ({ request }) => {
  admin = await adminToken(request)
})

async function expectAccessible(page: Page, what: string) {
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze()
  const findings = results.violations
    .filter((v) => v.impact !== 'minor')
    .flatMap((v) => v.nodes.map((n) => `${what}: ${v.id} (${v.impact}): ${n.target.join(' ')}`))
  expect(findings).toEqual([])
  // Nothing wider than the screen (the tables scroll inside their own labelled regions).
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > 361 && !el.parentElement?.closest('.table-scroll'))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
      .slice(0, 5),
  )
  expect(wide, what).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth), what).toBeLessThanOrEqual(360)
}

async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } })
  const desk = await context.newPage()
  await presentDevice(desk, E2E_ADMIN_DEVICE_ID)
  await submitBackOfficeLogin(desk)
  await expect(desk).toHaveURL(/\/admin$/)
  return desk
}

/** The server's business day, as the public call applies the windows. */
async function serverToday(request: APIRequestContext): Promise<string> {
  const answer = await request.get('/web/public/site-content')
  expect(answer.status()).toBe(200)
  return (await answer.json()).data.today as string
}

async function deleteBannersNamed(request: APIRequestContext, alts: string[]) {
  const list = await request.get('/web/private/back-office/banners?perPage=200', {
    headers: { authorization: `Bearer ${admin}` },
  })
  for (const banner of (await list.json()).data as { id: number; alt: string }[]) {
    if (!alts.includes(banner.alt)) continue
    await request.delete(`/web/private/back-office/banners/${banner.id}`, {
      headers: { authorization: `Bearer ${admin}` },
    })
  }
}

test('a banner appears on the home page inside its dates and disappears when its end date passes', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000)
  const tag = `${Date.now().toString(36)}-${test.info().workerIndex}`
  const shown = `E2E banner from today ${tag}`
  const later = `E2E banner from tomorrow ${tag}`
  const today = await serverToday(request)

  try {
    // A banner dated from tomorrow, over the API: not on the home page today.
    const created = await request.post('/web/private/back-office/banners', {
      headers: { authorization: `Bearer ${admin}` },
      data: {
        alt: later,
        desktop: '/banners/new-client-desktop.svg',
        mobile: '/banners/new-client-mobile.svg',
        startDate: addDays(today, 1),
      },
    })
    expect(created.status()).toBe(201)

    // The administrator adds one from today on /admin/content.
    const desk = await adminPage(browser)
    await desk.getByRole('link', { name: 'Banners, promo menu and app' }).click()
    await expect(desk).toHaveURL(/\/admin\/content$/)
    await expect(desk.getByRole('heading', { level: 1, name: 'Banners, promo menu and app' })).toBeVisible()
    const form = desk.locator('form[aria-labelledby="content-banner-form-title"]')
    await form.getByLabel('Text of the image').fill(shown)
    await form.getByLabel('Desktop image').fill('/banners/default-desktop.svg')
    await form.getByLabel('Mobile image').fill('/banners/default-mobile.svg')
    await form.getByLabel('Start date').fill(today)
    await form.getByRole('button', { name: 'Add banner' }).click()
    await expect(form.getByRole('status')).toHaveText('Saved.')
    const table = desk.getByRole('region', { name: 'Banner list' })
    const row = table.getByRole('row').filter({ hasText: shown })
    // Dates in the back office read 'MMM DD, YYYY' (ADR 0046).
    await expect(row).toContainText(formatDate(today))
    await expect(row.getByRole('cell', { name: 'Yes', exact: true })).toBeVisible()
    await expect(
      table.getByRole('row').filter({ hasText: later }).getByRole('cell', { name: 'No', exact: true }),
    ).toBeVisible()
    await expectAccessible(desk, '/admin/content')

    // A visitor's home page: today's banner, not tomorrow's.
    await page.goto('/')
    const offers = page.getByRole('region', { name: 'Offers' })
    await expect(offers.getByRole('img', { name: shown })).toBeVisible()
    await expect(offers.getByRole('img', { name: later })).toHaveCount(0)
    await expectAccessible(page, '/')

    // The administrator ends the banner yesterday: the visitor's next visit no longer shows it.
    await row.getByRole('button', { name: /^Edit banner \d+$/ }).click()
    await expect(form.getByLabel('Text of the image')).toHaveValue(shown)
    await form.getByLabel('Start date').fill(addDays(today, -2))
    await form.getByLabel('End date').fill(addDays(today, -1))
    await form.getByRole('button', { name: 'Save banner' }).click()
    await expect(form.getByRole('status')).toHaveText('Saved.')
    await expect(row.getByRole('cell', { name: 'No', exact: true })).toBeVisible()

    await page.reload()
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.getByRole('img', { name: shown })).toHaveCount(0)
    await expect(page.getByRole('img', { name: later })).toHaveCount(0)
  } finally {
    await deleteBannersNamed(request, [shown, later])
  }
})
