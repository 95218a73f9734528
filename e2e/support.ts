import { expect, type Page } from '@playwright/test'

/** Collects console errors and uncaught page errors; a test asserts the list is empty. */
export function watchConsole(page: Page) {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return errors
}

/** The real layout is there: header landmark, main content, footer landmark. */
export async function expectLayout(page: Page) {
  await expect(page.getByRole('banner')).toBeVisible()
  await expect(page.locator('main#main')).toBeVisible()
  await expect(page.getByRole('contentinfo')).toBeVisible()
}

/**
 * Waits until the app runs on the page: the server renders the public pages to HTML (ADR 0040), which a test
 * can see and click before the app has taken them over, when a click on a tab or a button does nothing yet.
 * React marks the root container once `hydrateRoot` or `createRoot` has taken it.
 */
export async function waitForApp(page: Page) {
  await page.waitForFunction(() => {
    const root = document.getElementById('root')
    return root !== null && Object.keys(root).some((key) => key.startsWith('__reactContainer'))
  })
}
