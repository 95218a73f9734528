import { mkdirSync } from 'node:fs'
import { expect, test } from './fixtures'

/**
 * The e2e server runs every adapter on its sandbox provider, so every page shows the sandbox banner
 * (docs/decisions/0018): a labelled region above the header, whole and legible on a 360 px phone.
 */
const paths = ['/', '/login', '/registration', '/contact', '/repay', '/no-such-page']

test('every page shows the sandbox banner, readable at 360 px', async ({ page }) => {
  test.setTimeout(120_000)
  mkdirSync('test-results/screenshots', { recursive: true })
  await page.setViewportSize({ width: 360, height: 740 })
  for (const path of paths) {
    await page.goto(path)
    const banner = page.getByRole('region', { name: 'Sandbox environment' })
    await expect(banner, path).toBeVisible({ timeout: 20_000 })
    await expect(banner, path).toContainText('Nothing here is real')
    const box = (await banner.boundingBox())!
    expect(box.x, path).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width, path).toBeLessThanOrEqual(360)
    // Above the header, and the text neither clipped nor tiny.
    const header = (await page.locator('.site-header').boundingBox())!
    expect(box.y + box.height, path).toBeLessThanOrEqual(header.y + 1)
    const text = banner.locator('p')
    const { clipped, fontSize } = await text.evaluate((el) => ({
      clipped: el.scrollWidth > el.clientWidth,
      fontSize: Number.parseFloat(getComputedStyle(el).fontSize),
    }))
    expect(clipped, path).toBe(false)
    expect(fontSize, path).toBeGreaterThanOrEqual(14)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `horizontal overflow on ${path}`).toBeLessThanOrEqual(0)
  }
  await page.goto('/')
  await expect(page.getByRole('region', { name: 'Sandbox environment' })).toBeVisible({ timeout: 20_000 })
  await page.screenshot({ path: 'test-results/screenshots/sandbox-banner-360.png' })
})
