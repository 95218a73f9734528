/**
 * Route guards of the auth session (spec sections 2, 4 and 6), for `beforeLoad`. One pure answer,
 * `authRedirect(snapshot, location)`, says where the auth machine's state sends a user at a location; the
 * guards throw it as `redirect()`, and `followMachines` (src/app/machine-routing.ts) re-runs them when it
 * changes while the page stays. The machine, not the page, decides who may see what and where a login or a
 * session end leads:
 *
 * | state                                 | location                    | goes to                                |
 * | ------------------------------------- | --------------------------- | -------------------------------------- |
 * | loggedOut.sessionEnded (logout)       | any page but /login         | /login                                 |
 * | loggedOut.sessionEnded (unauthorized) | any page but /login         | /login?redirect=<that page> (not for /) |
 * | loggedOut.sessionEnded (linkFailed)   | any page but /login         | /login, which says the link failed      |
 * | loggedOut.sessionEnded                | /login                      | stays; the guard sends SESSION.END.SEEN |
 * | loggedIn / singleLink                 | /login                      | afterLogin(?redirect)                  |
 * | singleLink                            | /affiliate/sleeper-otp      | /profile/my-loan                       |
 * | not logged in (settled)               | /profile/*, /application/*, /admin/* | /login?redirect=<that page>   |
 * | singleLink                            | /profile/* but my loan, /application/* | /profile/my-loan             |
 * | back office                           | /profile/*, /application/*  | /admin                                 |
 * | client or single link                 | /admin/*                    | /                                      |
 *
 * Private areas wait until the session has settled (a restored token is still loading its user); /login and
 * the single-link page do not (they show "logging in" meanwhile, and follow the machine once it settles).
 */
import { type ParsedLocation, redirect } from '@tanstack/react-router'
import { waitFor } from 'xstate'
import { type AuthSnapshot, isLoggedIn, isSettled, pendingSessionEnd } from '../../machines/auth.machine'
import type { AuthActor } from './services'

/** Long enough for a slow network; after it the guard decides on what it has (not logged in). */
export const SETTLE_TIMEOUT_MS = 15_000
export const SINGLE_LINK_HOME = '/profile/my-loan'
export const LOGIN_PATH = '/login'
export const SINGLE_LINK_LOGIN_PATH = '/affiliate/sleeper-otp'

/** Where a guard sends the user: a route with its search, or a same-site href (the after-login target). */
export type AuthRedirect = { to: string; search?: { redirect?: string } } | { href: string }

/** The part of TanStack's ParsedLocation the guards read. */
export type GuardLocation = Pick<ParsedLocation, 'pathname' | 'href'> & { search?: unknown }

type Area = 'client' | 'backOffice' | 'login' | 'singleLinkLogin' | 'public'

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`)

function areaOf(pathname: string): Area {
  if (under(pathname, '/profile') || under(pathname, '/application')) return 'client'
  if (under(pathname, '/admin')) return 'backOffice'
  if (pathname === LOGIN_PATH) return 'login'
  if (pathname === SINGLE_LINK_LOGIN_PATH) return 'singleLinkLogin'
  return 'public'
}

const toLogin = (location: GuardLocation): AuthRedirect => ({
  to: LOGIN_PATH,
  search: { redirect: location.href },
})

const redirectParam = (location: GuardLocation): string | undefined => {
  const value = (location.search as { redirect?: unknown } | undefined)?.redirect
  return typeof value === 'string' ? value : undefined
}

/** Where a session that just became logged in goes: back to the guarded page it came from, if it is ours. */
export function afterLogin(redirectTo: string | undefined, snapshot: AuthSnapshot): string {
  if (snapshot.matches('singleLink')) return SINGLE_LINK_HOME
  const fallback = snapshot.context.claims?.type === 'user' ? '/admin' : '/profile'
  // Same-origin paths only: '//evil.example' or 'https://...' would leave the site.
  if (redirectTo && /^\/(?!\/)/.test(redirectTo) && !redirectTo.startsWith('/login')) return redirectTo
  return fallback
}

/**
 * A logout or a 401/403 during a session: every page goes to the login page, an 'unauthorized' end keeping
 * the page to come back to. On /login itself the answer is the login page: its guard acknowledges the end.
 */
export function sessionEndRedirect(snapshot: AuthSnapshot, location: GuardLocation): AuthRedirect | null {
  const end = pendingSessionEnd(snapshot)
  if (!end) return null
  if (location.pathname === LOGIN_PATH) return { to: LOGIN_PATH }
  const keep = end.reason === 'unauthorized' && location.pathname !== '/'
  return keep ? toLogin(location) : { to: LOGIN_PATH }
}

/**
 * What the page's own area says: null to stay. A private area answers null while the session is not settled,
 * unless the guard has `waited` for it (then an unsettled session counts as not logged in).
 */
function areaRedirect(snapshot: AuthSnapshot, location: GuardLocation, waited = false): AuthRedirect | null {
  const area = areaOf(location.pathname)
  const singleLink = snapshot.matches('singleLink')
  switch (area) {
    case 'login':
      return isLoggedIn(snapshot) || singleLink
        ? { href: afterLogin(redirectParam(location), snapshot) }
        : null
    case 'singleLinkLogin':
      return singleLink ? { to: SINGLE_LINK_HOME } : null
    case 'client':
      if (!waited && !isSettled(snapshot)) return null
      if (singleLink) return location.pathname === SINGLE_LINK_HOME ? null : { to: SINGLE_LINK_HOME }
      if (!isLoggedIn(snapshot)) return toLogin(location)
      // A back-office user has no client record: client pages would only answer 403.
      return snapshot.context.claims?.type === 'user' ? { to: '/admin' } : null
    case 'backOffice':
      if (!waited && !isSettled(snapshot)) return null
      if (singleLink) return { to: '/' }
      if (!isLoggedIn(snapshot)) return toLogin(location)
      return snapshot.context.claims?.type === 'user' ? null : { to: '/' }
    default:
      return null
  }
}

/**
 * The auth session's answer for a location: what the guards below throw, and what `followMachines` watches
 * (`{ actor: services.auth, redirectFor: authRedirect }`).
 */
export function authRedirect(snapshot: AuthSnapshot, location: GuardLocation): AuthRedirect | null {
  return sessionEndRedirect(snapshot, location) ?? areaRedirect(snapshot, location)
}

const thrown = (target: AuthRedirect) =>
  redirect({ ...(target as { to: string }), replace: true } as Parameters<typeof redirect>[0])

export async function settledSession(auth: AuthActor): Promise<AuthSnapshot> {
  try {
    return await waitFor(auth, isSettled, { timeout: SETTLE_TIMEOUT_MS })
  } catch {
    return auth.getSnapshot()
  }
}

/**
 * The root route's guard: a pending session end takes every page to /login (replacing the page, so Back does
 * not return to a page the ended session was showing).
 */
export function sessionEndGuard(auth: AuthActor, location: GuardLocation): void {
  const target = sessionEndRedirect(auth.getSnapshot(), location)
  if (target && location.pathname !== LOGIN_PATH) throw thrown(target)
}

/**
 * /login: the login page is reached, so a pending session end is acknowledged (not while only preloading a
 * link); a session that is logged in goes to its after-login target.
 */
export function loginGuard(auth: AuthActor, location: GuardLocation, preload = false): void {
  if (!preload && pendingSessionEnd(auth.getSnapshot())) auth.send({ type: 'SESSION.END.SEEN' })
  const target = areaRedirect(auth.getSnapshot(), location)
  if (target) throw thrown(target)
}

/** /affiliate/sleeper-otp: once the single-link session exists, my loan. */
export function singleLinkGuard(auth: AuthActor, location: GuardLocation): void {
  const target = areaRedirect(auth.getSnapshot(), location)
  if (target) throw thrown(target)
}

/** Client pages (/profile/*, /application/*): a logged-in client; single-link sessions see my loan only. */
export async function requireClient(auth: AuthActor, location: GuardLocation): Promise<void> {
  const target = areaRedirect(await settledSession(auth), location, true)
  if (target) throw thrown(target)
}

/** /admin/*: back-office users only; anyone logged in otherwise goes home. */
export async function requireBackOffice(auth: AuthActor, location: GuardLocation): Promise<void> {
  const target = areaRedirect(await settledSession(auth), location, true)
  if (target) throw thrown(target)
}
