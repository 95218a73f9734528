import { mkdirSync } from 'node:fs'
import { expect, test } from './fixtures'
import { publicRoutes, slugRoutes } from './routes'
import { expectLayout, watchConsole } from './support'

for (const path of [...publicRoutes, ...slugRoutes]) {
  test(`${path} renders inside the layout with no console error`, async ({ page }) => {
    const errors = watchConsole(page)
    // A page the router knows is a 200 from the server too (server/http/spa.ts).
    expect((await page.goto(path))?.status()).toBe(200)
    await expectLayout(page)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.getByText('This page could not be found')).toHaveCount(0)
    await page.waitForLoadState('networkidle')
    expect(errors).toEqual([])
  })
}

test('the home page at 360, 768 and 1280 px (screenshots saved)', async ({ page }) => {
  mkdirSync('test-results/screenshots', { recursive: true })
  for (const width of [360, 768, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/')
    await page.waitForLoadState('networkidle')
    await expectLayout(page)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `horizontal overflow at ${width}px`).toBeLessThanOrEqual(0)
    await page.screenshot({ path: `test-results/screenshots/home-${width}.png`, fullPage: true })
  }
})

test('an unknown route shows the 404 page with its links and the care e-mail', async ({ page }) => {
  // HTTP 404 as well as the page: crawlers and monitors read the status, not the heading.
  expect((await page.goto('/no-such-page'))?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'This page could not be found' })).toBeVisible()
  const main = page.locator('main#main')
  await expect(main.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/')
  await expect(main.getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '/faq')
  await expect(main.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact')
  await expect(main.locator('a[href^="mailto:"]')).toBeVisible()
})

test('an unknown repayment slug shows the 404 page', async ({ page }) => {
  await page.goto('/repay/ewallets/no-such-wallet')
  await expect(page.getByRole('heading', { name: 'This page could not be found' })).toBeVisible()
})

test('an unknown /web path answers a JSON 404', async ({ request }) => {
  const res = await request.get('/web/nope')
  expect(res.status()).toBe(404)
  expect(res.headers()['content-type']).toContain('application/json')
  expect((await res.json()).success).toBe(false)
})

test("an API answer of 503 shows 'ERP response 503 /web/...' as a full-page error", async ({ page }) => {
  await page.route('**/web/public/contact', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: '{"success":false,"data":null,"response":{"status":503}}',
    }),
  )
  // A page the server does not render: the ones it renders come with the contacts (docs/decisions/0040).
  await page.goto('/login')
  await expect(page.getByRole('heading', { name: 'ERP response 503 /web/public/contact' })).toBeVisible()
})

test('campaign parameters are kept in the affiliate cookie for 30 minutes', async ({ page, context }) => {
  await page.goto('/?utm_source=facebook&utm_campaign=payday&gclid=abc123&unrelated=1')
  const cookie = (await context.cookies()).find((c) => c.name === 'affiliate')
  expect(cookie).toBeDefined()
  expect(JSON.parse(decodeURIComponent(cookie!.value))).toEqual({
    gclid: 'abc123',
    utm_source: 'facebook',
    utm_campaign: 'payday',
  })
  const lifetime = cookie!.expires - Date.now() / 1000
  expect(lifetime).toBeGreaterThan(1700)
  expect(lifetime).toBeLessThanOrEqual(1800)
})

test('a page view is pushed to the data layer after each route change', async ({ page }) => {
  await page.goto('/')
  await page.waitForFunction(() => (window.dataLayer ?? []).some((e) => e.page_path === '/'))
  await page.locator('header').getByRole('link', { name: 'FAQ' }).first().click()
  await expect(page).toHaveURL(/\/faq$/)
  await page.waitForFunction(() => (window.dataLayer ?? []).some((e) => e.page_path === '/faq'))
})
