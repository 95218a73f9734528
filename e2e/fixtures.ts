/**
 * Playwright's `test` and `expect`, with one change: the `request` fixture (the API calls a test makes beside
 * the browser) opens a connection per call. Playwright keeps its connections alive, and the server closes one
 * that has been idle for 5 s (server/http/node-server.ts, keepAliveTimeout): a call sent as the server closes
 * the connection it picked failed with ECONNRESET, now and then on a busy machine. Browsers retry such a call;
 * Playwright's API client does not.
 */
import { test as base } from '@playwright/test'

export { expect } from '@playwright/test'

export const test = base.extend({
  request: async ({ playwright, baseURL, extraHTTPHeaders }, use) => {
    const request = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { ...extraHTTPHeaders, connection: 'close' },
    })
    await use(request)
    await request.dispose()
  },
})
