/**
 * Which locale bundles a page needs beyond the ones every page gets (the shell, the calculator on `/`, the
 * account texts of the header). Plain data with no React, so `scripts/bundle-size.ts` reads it too: the texts
 * of these bundles are not part of the home route's JavaScript.
 */
/**
 * `tracking` is on no route either: the device-data consent notice (src/ui/layout/client-extras.tsx) loads it
 * with its own code, only for a logged-in client, after the page has loaded.
 *
 * `sandbox` is on no route: the sandbox panel (src/features/sandbox/sandbox-panel.tsx) loads it with its own code,
 * only in a browser holding the QA cookie.
 */
export const routeBundles = [
  'auth',
  'journey',
  'application',
  'repay',
  'legal',
  'admin',
  'content',
  'sandbox',
  'tracking',
] as const
export type RouteBundle = (typeof routeBundles)[number]

const byPrefix: [prefix: string, bundles: RouteBundle[]][] = [
  // The account's pages and the code steps (sign-up, login, recovery, the profile's changes, signing with a
  // code): out of the public pages' JavaScript (issue 21 item 3).
  ['/login', ['auth']],
  ['/recover', ['auth']],
  ['/affiliate', ['auth']],
  ['/registration', ['auth']],
  ['/application', ['auth']],
  ['/profile', ['auth']],
  // The registration steps, and the summary where the client reads and signs the agreement.
  ['/registration', ['journey', 'application']],
  ['/application', ['application']],
  // The profile's device-data consent setting reads the tracking texts (ADR 0042).
  ['/profile', ['application', 'tracking']],
  // Paying back: My loan and the repayment page show the payment watch's toast and the channels' texts.
  ['/profile/my-loan', ['repay']],
  ['/profile/repayment', ['repay']],
  // Extending the loan (issue 17): the extension fee is paid through the same channels.
  ['/profile/rollover', ['repay']],
  ['/repay', ['repay']],
  // The sandbox gateway's checkout page (issue 16).
  ['/sandbox', ['repay']],
  // The content pages' own texts (issue 19: out of the home page's JavaScript); contact stays in the shell, since
  // the footer shows parts of it, and so do the FAQ's first questions, which the home page shows (issue 21).
  ['/about', ['content']],
  ['/faq', ['content']],
  ['/how-to-apply', ['content']],
  ['/payment-info', ['content']],
  ['/promo', ['content']],
  ['/documents', ['content']],
  ['/documents/terms', ['legal']],
  ['/documents/policy', ['legal']],
  ['/admin', ['admin']],
  // Accepting a back-office invitation (issue 19): outside /admin, since the person has no session yet.
  ['/admin-invitation', ['admin']],
]

/** The route bundles the page at `pathname` reads; the root route loads them before the page renders. */
export function bundlesFor(pathname: string): RouteBundle[] {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  const found = new Set<RouteBundle>()
  for (const [prefix, bundles] of byPrefix) {
    if (path === prefix || path.startsWith(`${prefix}/`)) for (const bundle of bundles) found.add(bundle)
  }
  return [...found]
}
