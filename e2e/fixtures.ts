/**
 * Playwright's `test` and `expect`, with two changes:
 *
 * - the `request` fixture (the API calls a test makes beside the browser) opens a connection per call. Playwright
 *   keeps its connections alive, and the server closes one that has been idle for 5 s (server/http/node-server.ts,
 *   keepAliveTimeout): a call sent as the server closes the connection it picked failed with ECONNRESET, now and
 *   then on a busy machine. Browsers retry such a call; Playwright's API client does not.
 * - when a test fails, every page still open (the test's own and those of staff browsers it opened) is printed:
 *   its address and what a screen reader would read (the accessibility tree, as Playwright's aria snapshot), so a
 *   CI log says what the page showed without a trace (traces are off by default, playwright.config.ts).
 */
import { test as base } from '@playwright/test'

export { expect } from '@playwright/test'

/** Characters of each page's aria snapshot printed on a failure. */
const SNAPSHOT_CHARS = 16_000

export const test = base.extend<{ failureContext: undefined }>({
  request: async ({ playwright, baseURL, extraHTTPHeaders }, use) => {
    const request = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { ...extraHTTPHeaders, connection: 'close' },
    })
    await use(request)
    await request.dispose()
  },
  // Depends on `context`, so it is torn down before the test's own context closes.
  failureContext: [
    async ({ browser, context: _context }, use, testInfo) => {
      await use(undefined)
      if (testInfo.status === testInfo.expectedStatus) return
      const lines: string[] = [`── pages open when "${testInfo.title}" failed`]
      for (const [c, open] of browser.contexts().entries())
        for (const [p, page] of open.pages().entries()) {
          const snapshot = await page
            .locator('body')
            .ariaSnapshot({ timeout: 5_000 })
            .catch((error: Error) => `(no snapshot: ${error.message.split('\n')[0]})`)
          lines.push(`context ${c} page ${p}: ${page.url()}`, snapshot.slice(0, SNAPSHOT_CHARS))
        }
      console.info(lines.join('\n'))
    },
    { auto: true },
  ],
})
