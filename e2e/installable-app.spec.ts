/**
 * Issue 22 item 3 in a real browser: on an Android phone (its user agent, 360 px), the install prompt offers the
 * app of the back office's enabled Android entry (spec section 9: "Mobile app: Android only, enabled"), read
 * here from the public call the layout reads; "Not now" hides it and it stays hidden after a reload (and comes
 * back once the remembered answer is gone). The page links the web app manifest, which Chromium itself fetches
 * and parses without errors, with the PNG icons it needs and the Play app as its related application. The entry
 * is only read, never changed: the specs beside this one see the seeded entry (changes are covered by
 * tests/api/installable-app.test.ts).
 */
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext } from '@playwright/test'
import { expect, test } from './fixtures'
import { watchConsole } from './support'

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'

test.use({ userAgent: ANDROID, viewport: { width: 360, height: 740 } })

/** The enabled Android entry's store address, as the layout gets it. */
async function androidUrl(request: APIRequestContext): Promise<string> {
  const answer = await request.get('/web/public/site-content')
  expect(answer.status()).toBe(200)
  const apps = (await answer.json()).data.apps as { platform: string; url: string }[]
  const android = apps.find((app) => app.platform === 'android')
  expect(android, 'the seeded Android entry is enabled').toBeDefined()
  return android!.url
}

test('the Android prompt links to the configured app; "Not now" keeps it away after a reload', async ({
  page,
  request,
}) => {
  const url = await androidUrl(request)
  const errors = watchConsole(page)
  await page.goto('/faq')
  const prompt = page.getByRole('region', { name: 'The Hiram app' })
  await expect(prompt).toBeVisible()
  await expect(prompt.getByRole('link', { name: 'Get the app' })).toHaveAttribute('href', url)

  // Accessible and inside the 360 px screen, its buttons reachable.
  const results = await new AxeBuilder({ page }).include('.install-prompt').analyze()
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([])
  const box = (await prompt.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(360)
  expect(box.y + box.height).toBeLessThanOrEqual(740)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

  await prompt.getByRole('button', { name: 'Not now' }).click()
  await expect(prompt).toHaveCount(0)

  await page.reload()
  // The page has loaded and hydrated (the prompt would come after the load event): the footer's app link, from
  // the same answer, is there, and the network is quiet.
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Get the Android app' })).toBeVisible()
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(500)
  await expect(prompt).toHaveCount(0)

  // Without the remembered answer (a new browser, or 30 days later) it is offered again: the absence above was
  // the answer remembered, not a prompt that never came.
  await page.evaluate(() => window.localStorage.clear())
  await page.reload()
  await expect(prompt).toBeVisible()
  expect(errors).toEqual([])
})

test('the page links the web app manifest, which Chromium parses without errors', async ({
  page,
  request,
}) => {
  const url = await androidUrl(request)
  const errors = watchConsole(page)
  await page.goto('/')
  const href = await page.locator('link[rel="manifest"]').getAttribute('href')
  expect(href).toBe('/manifest.webmanifest')

  // As served: the type browsers expect, and a JSON body.
  const served = await request.get(href!)
  expect(served.status()).toBe(200)
  expect(served.headers()['content-type']).toBe('application/manifest+json')
  const manifest = await served.json()
  expect(manifest).toMatchObject({ short_name: 'Hiram', start_url: '/', display: 'standalone' })
  expect(manifest.related_applications).toEqual([
    { platform: 'play', url, id: new URL(url).searchParams.get('id') },
  ])
  for (const icon of manifest.icons as { src: string; type: string }[]) {
    const image = await request.get(icon.src)
    expect(image.status(), icon.src).toBe(200)
    expect(image.headers()['content-type'], icon.src).toBe(icon.type)
  }

  // As Chromium reads it (the page's CSP lets it load the manifest): no parse errors, the values it installs with.
  const cdp = await page.context().newCDPSession(page)
  await expect
    .poll(async () => ((await cdp.send('Page.getAppManifest')) as { url: string }).url)
    .toContain('/manifest.webmanifest')
  const parsed = (await cdp.send('Page.getAppManifest')) as {
    errors: { message: string; critical: number }[]
    data?: string
  }
  expect(parsed.errors).toEqual([])
  expect(JSON.parse(parsed.data!).name).toBe(manifest.name)
  // Chromium's installability check: nothing about the manifest or its icons stands in the way.
  const installability = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[]
  }
  const blocking = installability.installabilityErrors
    .map((e) => e.errorId)
    .filter((id) => /manifest|icon|start-url|display|name/i.test(id))
  expect(blocking).toEqual([])
  expect(errors).toEqual([])
})
