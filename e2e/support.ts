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
