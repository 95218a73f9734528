/**
 * What the end-to-end server is started with and the tests rely on (sandbox only, docs/decisions/0009).
 * No Playwright import here: playwright.config.ts reads it too.
 */

/** The device the seeded back-office user trusts from the start (SANDBOX_ADMIN_DEVICE_ID). */
export const E2E_ADMIN_DEVICE_ID = 'e2e-admin-device-0001'
export const E2E_ADMIN = { email: 'admin@hiram.local', password: 'HiramAdmin2026' } as const
