/**
 * The router side of the client journey: routes derive from the flow-sync machine's state, never from a page
 * calling `navigate` (issue 5 item 2, docs/product.md, Pitfalls: "Routes from machine state").
 *
 * - `journeyBeforeLoad`: put it on the registration and application layout routes and on /profile/my-loan.
 *   It reads the flow-sync actor from the router context, asks `journeyDecision` (machines/flow-sync.machine.ts)
 *   for the page being loaded, performs the guard's side effects (not while preloading) and throws the
 *   redirect. When the server's last answer named a step the journey model does not know, it throws
 *   `UnrecognisedFlowError` instead: the router shows its error page (spec section 2, Layout: any other error).
 * - `journeyMachineRoute`: the registration for `followMachines` (src/app/machine-routing.ts): when a poll
 *   answer (or a session change) makes the page on screen wrong, the router runs the same `beforeLoad` again.
 *   No page decides anything.
 */
import { type ParsedLocation, redirect } from '@tanstack/react-router'
import type { Actor } from 'xstate'
import {
  ANALYTICS_QUERY_COOKIE,
  type GuardEffect,
  type JourneyRedirect,
  journeyPageOf,
  SINGLE_LINK_COOKIE,
  type UnrecognisedFlow,
} from '../../domain/journey/routing'
import {
  type FlowSyncSnapshot,
  type flowSyncMachine,
  type JourneyCookies,
  type JourneyLocation,
  journeyDecision,
  unrecognisedFlowOf,
} from '../../machines/flow-sync.machine'
import { type MachineRoute, machineRoute } from './machine-routing'

export type FlowSyncActor = Actor<typeof flowSyncMachine>

/** A journey page cannot be shown: the server named a step or status this app does not know. */
export class UnrecognisedFlowError extends Error {
  readonly step: string | null
  readonly status: string | null
  constructor({ step, status }: UnrecognisedFlow) {
    super(`The journey step "${step ?? '?'}" (status "${status ?? '?'}") is not known to this app.`)
    this.name = 'UnrecognisedFlowError'
    this.step = step
    this.status = status
  }
}

/**
 * Spec section 8, "Unknown routing middleware: 500 'Unknown middleware'": a guard effect (the journey guards'
 * middleware) this app has no notion of. The router shows its error page with the status and the message.
 */
export class UnknownMiddlewareError extends Error {
  readonly status = 500
  readonly middleware: string
  constructor(middleware: string) {
    super('Unknown middleware')
    this.name = 'UnknownMiddlewareError'
    this.middleware = middleware
  }
}

/** Every guard effect the journey model can ask for; the type checker keeps it complete. */
const knownEffects = {
  startSandbox: true,
  setProgress30: true,
  removeCookie: true,
  logout: true,
  loadProfileAndFlow: true,
  loadLoanAndSchedule: true,
} satisfies Record<GuardEffect['type'], true>

/** What each guard effect does in the app; a known effect without a handler is ignored. */
export type JourneyEffectHandlers = {
  [K in GuardEffect['type']]?: (effect: Extract<GuardEffect, { type: K }>) => void
}

/** The router context entry (`context.journey`): the actor, and the app's cookie reader and effect handlers. */
export interface JourneyRouting {
  actor: FlowSyncActor
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

export function perform(handlers: JourneyEffectHandlers, effect: GuardEffect) {
  if (!Object.hasOwn(knownEffects, effect.type)) throw new UnknownMiddlewareError(String(effect.type))
  const handler = handlers[effect.type] as ((e: GuardEffect) => void) | undefined
  handler?.(effect)
}

/**
 * The redirect `beforeLoad` must throw for `location`, or null. Internal targets keep their query; external
 * ones (the facebook step) become a full-document navigation, as TanStack does for any absolute `href`.
 */
export function journeyRedirect(
  snapshot: FlowSyncSnapshot,
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

/** The unrecognised answer that keeps `location`, a journey page, from being shown; null otherwise. */
export function unrecognisedFlowAt(
  snapshot: FlowSyncSnapshot,
  location: RouterLocation,
): UnrecognisedFlow | null {
  const unrecognised = unrecognisedFlowOf(snapshot)
  return unrecognised && journeyPageOf(location.pathname) ? unrecognised : null
}

/**
 * `beforeLoad` for every journey page: `beforeLoad: journeyBeforeLoad`. Performs the guard's effects (except
 * while preloading a link the user only hovered) and throws the redirect, replacing the history entry so Back
 * does not bounce; throws `UnrecognisedFlowError` while the server's step is one this app does not know.
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
  const snapshot = actor.getSnapshot()
  const unrecognised = unrecognisedFlowAt(snapshot, location)
  if (unrecognised) throw new UnrecognisedFlowError(unrecognised)
  const decision = journeyDecision(snapshot, toJourneyLocation(location), journeyCookies(readCookie))
  if (!preload) for (const effect of decision.effects) perform(effects, effect)
  if (decision.redirect) throw redirect({ href: hrefOf(decision.redirect), replace: true })
}

/**
 * The journey's registration for `followMachines`: its answer for a location is what `journeyBeforeLoad`
 * would do there (a redirect, or the unrecognised step's error), so the two cannot disagree.
 */
export function journeyMachineRoute(journey: JourneyRouting): MachineRoute<FlowSyncSnapshot> {
  return machineRoute({
    actor: journey.actor,
    redirectFor: (snapshot, location: ParsedLocation) => {
      const unrecognised = unrecognisedFlowAt(snapshot, location)
      if (unrecognised) return { unrecognised }
      return journeyRedirect(snapshot, location, journeyCookies(journey.readCookie))
    },
  })
}
