/**
 * Route guards (spec sections 2 and 6) for `beforeLoad`: they wait until the session has settled (a restored
 * token is still loading its user), read the auth machine's snapshot and throw `redirect()`. The machine, not
 * the page, decides who may see what.
 */
import { type ParsedLocation, redirect } from '@tanstack/react-router'
import { waitFor } from 'xstate'
import { type AuthSnapshot, isLoggedIn, isSettled } from '../../../machines/auth.machine'
import type { AuthActor } from '../../app/services'

/** Long enough for a slow network; after it the guard decides on what it has (not logged in). */
export const SETTLE_TIMEOUT_MS = 15_000
export const SINGLE_LINK_HOME = '/profile/my-loan'

export async function settledSession(auth: AuthActor): Promise<AuthSnapshot> {
  try {
    return await waitFor(auth, isSettled, { timeout: SETTLE_TIMEOUT_MS })
  } catch {
    return auth.getSnapshot()
  }
}

const toLogin = (location: ParsedLocation) =>
  redirect({ to: '/login', search: { redirect: location.href }, replace: true })

/** Client pages (/profile/*, /application/*): a logged-in client; single-link sessions see my loan only. */
export async function requireClient(auth: AuthActor, location: ParsedLocation): Promise<void> {
  const snapshot = await settledSession(auth)
  if (snapshot.matches('singleLink')) {
    if (location.pathname !== SINGLE_LINK_HOME) throw redirect({ to: SINGLE_LINK_HOME, replace: true })
    return
  }
  if (!isLoggedIn(snapshot)) throw toLogin(location)
  // A back-office user has no client record: client pages would only answer 403.
  if (snapshot.context.claims?.type === 'user') throw redirect({ to: '/admin', replace: true })
}

/** /admin/*: back-office users only; anyone logged in otherwise goes home. */
export async function requireBackOffice(auth: AuthActor, location: ParsedLocation): Promise<void> {
  const snapshot = await settledSession(auth)
  if (snapshot.matches('singleLink')) throw redirect({ to: '/', replace: true })
  if (!isLoggedIn(snapshot)) throw toLogin(location)
  if (snapshot.context.claims?.type !== 'user') throw redirect({ to: '/', replace: true })
}

/** Where a session that just became logged in goes: back to the guarded page it came from, if it is ours. */
export function afterLogin(redirectTo: string | undefined, snapshot: AuthSnapshot): string {
  if (snapshot.matches('singleLink')) return SINGLE_LINK_HOME
  const fallback = snapshot.context.claims?.type === 'user' ? '/admin' : '/profile'
  // Same-origin paths only: '//evil.example' or 'https://...' would leave the site.
  if (redirectTo && /^\/(?!\/)/.test(redirectTo) && !redirectTo.startsWith('/login')) return redirectTo
  return fallback
}
