/**
 * The router side of the client journey: routes derive from the journey machine's state, never from a page
 * calling `navigate` (issue 5 item 2, GUIDE section 4 "Routes from machine state").
 *
 * - `journeyBeforeLoad`: put it on the registration and application layout routes and on /profile/my-loan.
 *   It reads the journey actor from the router context, asks `journeyDecision` (machines/journey.machine.ts)
 *   for the page being loaded, performs the guard's side effects (not while preloading) and throws the
 *   redirect.
 * - `followJourney`: when a poll answer (or a session change) makes the page on screen wrong, it
 *   invalidates the router so the same `beforeLoad` runs again and redirects. No page decides anything.
 */
import { type AnyRouter, redirect } from '@tanstack/react-router'
import type { Actor } from 'xstate'
import {
  ANALYTICS_QUERY_COOKIE,
  type GuardEffect,
  type JourneyRedirect,
  SINGLE_LINK_COOKIE,
} from '../../../domain/flow-routes'
import {
  type JourneyCookies,
  type JourneyLocation,
  type JourneySnapshot,
  journeyDecision,
  type journeyMachine,
} from '../../../machines/journey.machine'

export type JourneyActor = Actor<typeof journeyMachine>

/** What each guard effect does in the app; an effect without a handler is ignored. */
export type JourneyEffectHandlers = {
  [K in GuardEffect['type']]?: (effect: Extract<GuardEffect, { type: K }>) => void
}

/** The router context entry (`context.journey`): the actor, and the app's cookie reader and effect handlers. */
export interface JourneyRouting {
  actor: JourneyActor
  readCookie: (name: string) => string | null
  effects: JourneyEffectHandlers
}

/** The part of TanStack's `ParsedLocation` the journey reads. */
export interface RouterLocation {
  pathname: string
  /** With its `?`, as TanStack gives it; absent or empty without a query. */
  searchStr?: string
}

export function journeyCookies(readCookie: JourneyRouting['readCookie']): JourneyCookies {
  return {
    analyticsQuery: readCookie(ANALYTICS_QUERY_COOKIE),
    singleLink: readCookie(SINGLE_LINK_COOKIE) !== null,
  }
}

function toJourneyLocation(location: RouterLocation): JourneyLocation {
  return { pathname: location.pathname, search: location.searchStr ?? '' }
}

function perform(handlers: JourneyEffectHandlers, effect: GuardEffect) {
  const handler = handlers[effect.type] as ((e: GuardEffect) => void) | undefined
  handler?.(effect)
}

/**
 * The redirect `beforeLoad` must throw for `location`, or null. Internal targets keep their query; external
 * ones (the facebook step) become a full-document navigation, as TanStack does for any absolute `href`.
 */
export function journeyRedirect(
  snapshot: JourneySnapshot,
  location: RouterLocation,
  cookies: JourneyCookies,
): { href: string } | null {
  const target = journeyDecision(snapshot, toJourneyLocation(location), cookies).redirect
  return target ? { href: hrefOf(target) } : null
}

function hrefOf(target: JourneyRedirect): string {
  if ('href' in target) return target.href
  return target.search ? `${target.to}?${target.search}` : target.to
}

/**
 * `beforeLoad` for every journey page: `beforeLoad: journeyBeforeLoad`. Performs the guard's effects (except
 * while preloading a link the user only hovered) and throws the redirect, replacing the history entry so Back
 * does not bounce.
 */
export function journeyBeforeLoad({
  context,
  location,
  preload,
}: {
  context: { journey: JourneyRouting }
  location: RouterLocation
  preload?: boolean
}): void {
  const { actor, readCookie, effects } = context.journey
  const decision = journeyDecision(
    actor.getSnapshot(),
    toJourneyLocation(location),
    journeyCookies(readCookie),
  )
  if (!preload) for (const effect of decision.effects) perform(effects, effect)
  if (decision.redirect) throw redirect({ href: hrefOf(decision.redirect), replace: true })
}

/**
 * Re-runs the route guards whenever the journey's state makes the current page wrong (a poll answered a new
 * step, the client logged out, the sandbox was switched on or off). Answers the unsubscribe function.
 */
export function followJourney(router: AnyRouter, journey: JourneyRouting): () => void {
  const subscription = journey.actor.subscribe((snapshot) => {
    const due = journeyRedirect(snapshot, router.state.location, journeyCookies(journey.readCookie))
    if (due) void router.invalidate()
  })
  return () => subscription.unsubscribe()
}
