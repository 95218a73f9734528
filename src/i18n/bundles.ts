/**
 * Which locale bundles a page needs beyond the ones every page gets (the shell, the calculator on `/`, the
 * account texts of the header). Plain data with no React, so `scripts/bundle-size.ts` reads it too: the texts
 * of these bundles are not part of the home route's JavaScript.
 */
/**
 * `sandbox` is on no route: the sandbox panel (src/features/sandbox/sandbox-panel.tsx) loads it with its own code,
 * only in a browser holding the QA cookie.
 */
export const routeBundles = [
  'journey',
  'application',
  'repay',
  'legal',
  'admin',
  'content',
  'sandbox',
] as const
export type RouteBundle = (typeof routeBundles)[number]

const byPrefix: [prefix: string, bundles: RouteBundle[]][] = [
  // The registration steps, and the summary where the client reads and signs the agreement.
  ['/registration', ['journey', 'application']],
  ['/application', ['application']],
  ['/profile', ['application']],
  // Paying back: My loan and the repayment page show the payment watch's toast and the channels' texts.
  ['/profile/my-loan', ['repay']],
  ['/profile/repayment', ['repay']],
  // Extending the loan (issue 17): the extension fee is paid through the same channels.
  ['/profile/rollover', ['repay']],
  ['/repay', ['repay']],
  // The sandbox gateway's checkout page (issue 16).
  ['/sandbox', ['repay']],
  // The content pages' own texts (issue 19: out of the home page's JavaScript); the FAQ and contact stay in the
  // shell, since the home page and the footer show parts of them.
  ['/about', ['content']],
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
